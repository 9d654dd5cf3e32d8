/**
 * `flower runs` and `flower show <step>`: read-only views of the step records and the frozen handoffs,
 * to reconstruct afterwards how many generations a step burned, what each cost and why it handed off.
 * They read through runtime/run-directory.ts, never the manifest or the store, and never create the
 * run directory.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { EXIT, UsageError } from "../../errors.js";
import { readFrozenHandoff } from "../../handoff/freeze.js";
import { formatTokens } from "../../handoff/text.js";
import { resolveLocale } from "../../locale/locale.js";
import { effectiveStatus, RunDirectory } from "../../runtime/run-directory.js";
import type { LeaseHolder } from "../../errors.js";
import type { StepRecord } from "../../records/step-record.js";
import { sparkline } from "../../report/sparkline.js";
import { reportStep } from "../../runtime/report-input.js";
import { parseLang, parseNonEmpty, type ParsedCommand } from "../args.js";
import { guardSummary } from "../guard-summary.js";
import { handoffSummary } from "../handoff-summary.js";
import { displayPath, makeOutput, shellQuote, type Output } from "../live-run.js";
import { frozenDocumentLines } from "../frozen-view.js";
import { knownNames, runStatus } from "../run-status.js";
import { columnsOf, cut } from "../terminal-text.js";
import { CLI_TEXT } from "../text.js";

function openRunDirectory(values: ParsedCommand["values"]): RunDirectory {
  return new RunDirectory(resolve(parseNonEmpty("--run-dir", values["run-dir"]) ?? "runs"));
}

export function runsCommand(parsed: ParsedCommand): number {
  if (parsed.positionals.length > 0)
    throw new UsageError(
      `flower runs: unexpected argument "${parsed.positionals[0]}" (see flower runs --help)`,
    );
  const locale = resolveLocale(parseLang(parsed.values.lang));
  const output = makeOutput(parsed.values.json === true, locale);
  const runDirectory = openRunDirectory(parsed.values);
  const steps = runDirectory.steps();
  if (output.json) {
    const holders = runDirectory.holders();
    for (const record of steps)
      process.stdout.write(`${JSON.stringify(summaryOf(record, holders.get(record.step)))}\n`);
    return EXIT.ok;
  }
  const text = CLI_TEXT[locale];
  if (steps.length === 0) {
    output.say(text.noSteps(runDirectory.recordsPath));
    return EXIT.ok;
  }
  const holders = runDirectory.holders();
  const stepRow = (record: StepRecord, label: string): string[] => {
    const holder = holders.get(record.step);
    return [
      label,
      text.status[effectiveStatus(record)],
      String(record.generations),
      `$${record.costUsd.toFixed(4)}`,
      String(record.numTurns),
      localTime(record.updatedAt),
      holder ? `pid ${holder.pid}@${holder.host}` : "-",
    ];
  };
  const rows: string[][] = [];
  for (const entry of groupByRun(steps)) {
    if (entry.kind === "step") {
      rows.push(stepRow(entry.record, entry.record.step));
      continue;
    }
    // A run: one line for the run (its status, its totals), then its steps in workflow order.
    const state = runStatus(entry.records);
    const holder = state.steps.map((record) => holders.get(record.step)).find(Boolean);
    rows.push([
      entry.run,
      text.status[state.status],
      "",
      `$${sum(state.steps, (record) => record.costUsd).toFixed(4)}`,
      String(sum(state.steps, (record) => record.numTurns)),
      localTime(
        state.steps
          .map((record) => record.updatedAt)
          .sort()
          .at(-1) ?? "",
      ),
      holder ? `pid ${holder.pid}@${holder.host}` : "-",
    ]);
    for (const record of state.steps) rows.push(stepRow(record, `  ${record.workflow?.name ?? record.step}`));
  }
  for (const line of table([[...text.runsHeader], ...rows], [false, false, true, true, true, false, false]))
    output.say(line);
  return EXIT.ok;
}

type RunsEntry = { kind: "step"; record: StepRecord } | { kind: "run"; run: string; records: StepRecord[] };

/**
 * Steps run on their own stay single rows; the steps of one workflow run become one entry, placed where
 * its most recently updated step is (the list stays oldest update first).
 */
function groupByRun(steps: readonly StepRecord[]): RunsEntry[] {
  const entries: RunsEntry[] = [];
  const runs = new Map<string, { kind: "run"; run: string; records: StepRecord[] }>();
  for (const record of steps) {
    if (record.run === undefined) {
      entries.push({ kind: "step", record });
      continue;
    }
    let entry = runs.get(record.run);
    if (entry) entries.splice(entries.indexOf(entry), 1);
    else runs.set(record.run, (entry = { kind: "run", run: record.run, records: [] }));
    entry.records.push(record);
    entries.push(entry);
  }
  return entries;
}

function sum(records: readonly StepRecord[], value: (record: StepRecord) => number): number {
  return records.reduce((total, record) => total + value(record), 0);
}

function summaryOf(record: StepRecord, holder: LeaseHolder | undefined) {
  return {
    heldBy: holder ?? null,
    step: record.step,
    status: effectiveStatus(record),
    generations: record.generations,
    costUsd: record.costUsd,
    numTurns: record.numTurns,
    updatedAt: record.updatedAt,
    sessionId: record.sessionId,
    run: record.run ?? null,
    name: record.workflow?.name ?? null,
    frozen: record.frozen ?? null,
  };
}

export function showCommand(parsed: ParsedCommand): number {
  if (parsed.positionals.length > 1)
    throw new UsageError("flower show: give one step name (see flower show --help)");
  const locale = resolveLocale(parseLang(parsed.values.lang));
  const output = makeOutput(parsed.values.json === true, locale);
  const text = CLI_TEXT[locale];
  const runDirectory = openRunDirectory(parsed.values);
  const wanted = parsed.positionals[0];
  const record = wanted === undefined ? runDirectory.lastStep() : runDirectory.step(wanted);
  // A run id, or no name after a workflow run: the run with its frozen documents.
  const run = wanted === undefined ? record?.run : record ? undefined : wanted;
  if (run !== undefined) {
    const records = runDirectory.steps().filter((step) => step.run === run);
    if (records.length > 0) return showRun(run, records, runDirectory, output);
  }
  if (!record) {
    if (wanted === undefined) throw new UsageError(`flower show: ${text.noSteps(runDirectory.recordsPath)}`);
    throw new UsageError(text.noStep(wanted, runDirectory.recordsPath, knownNames(runDirectory)));
  }
  if (output.json) {
    process.stdout.write(`${JSON.stringify(record)}\n`);
    return EXIT.ok;
  }
  const t = text.show;
  const say = output.say;
  const label = (name: string) => name.padEnd(12);
  say(`${label(t.step)}${record.step}`);
  say(
    `${label(t.status)}${text.status[effectiveStatus(record)]} · ${localTime(record.startedAt)} → ${localTime(record.updatedAt)}`,
  );
  say(`${label(t.agent)}${record.agent}`);
  say(`${label(t.task)}${cut(record.prompt.replace(/\s+/g, " ").trim(), 160)}`);
  say(
    `${label(t.totals)}${t.cost} $${record.costUsd.toFixed(4)} · ${t.turns} ${record.numTurns} · ${t.generations} ${record.generations}` +
      ` · ${t.failedAttempts} ${record.attempts} · ${t.context} ${formatTokens(record.context)}` +
      ` · ${t.spills} ${record.spills} · ${t.denials} ${record.denials}`,
  );
  const series = reportStep(record);
  if (series.turns.length > 0) {
    const columns = Math.max(20, Math.min(100, (process.stdout.columns ?? 100) - 14));
    say(`${label(t.context)}${sparkline(series.turns, { width: columns, max: series.at })}`);
  }
  say(`${label(t.session)}${record.sessionId ?? t.none}`);
  say(`${label(t.retired)}${record.retired.length ? record.retired.join(", ") : t.none}`);
  say("");
  say(`${t.generationsTitle}:`);
  for (const generation of record.history) {
    const isCurrent = generation === record.history.at(-1) && !generation.handoff;
    const parts = [
      `${String(generation.generation).padStart(3)}  ${generation.sessionId ?? "-"}`,
      `$${generation.costUsd.toFixed(4)}`,
      `${generation.numTurns} ${t.turns}`,
      `${t.context} ${formatTokens(generation.context)}`,
    ];
    if (isCurrent) parts.push(t.current);
    say(`  ${parts.join(" · ")}`);
    const handoff = generation.handoff;
    if (handoff) {
      const state = handoff.degraded ? t.degraded(handoff.why ?? "") : "ok";
      say(`       -> ${t.handedOff}: ${handoff.path ?? t.noFile} · ${state}`);
    }
  }
  if (record.guard) {
    say("");
    for (const line of guardSummary(record.guard, locale)) say(line);
  }
  if (record.errors.length > 0) {
    say("");
    say(`${t.errors}:`);
    for (const error of record.errors) say(`  - ${cut(error.replace(/\s+/g, " "), 300)}`);
  }
  const files = runDirectory.handoffFiles(record);
  if (files.current.length > 0 || files.archived.length > 0) {
    say("");
    say(`${t.handoffFiles}:`);
    for (const path of files.current) say(`  ${path}${existsSync(path) ? "" : ` ${t.missingFile}`}`);
    for (const path of files.archived) say(`  ${path} (${t.archived})`);
    if (record.pendingHandoff) say(`  ${t.pending}`);
  }
  const current = files.current.at(-1);
  if (current && existsSync(current)) {
    const handoff = readFrozenHandoff(current, record.step);
    say("");
    say(t.currentHandoff(current));
    for (const line of handoffSummary(handoff.sections(), locale)) say(line);
    const scene = handoff.scene
      .split("\n")
      .map((line) => line.trim().replace(/^(?:[-*+]|\d+[.)])\s+/, ""))
      .filter(Boolean);
    say(`  - ${t.scene}${scene.length ? scene[0] : t.none}`);
    for (const line of scene.slice(1, 12)) say(`  ${" ".repeat(2 + t.scene.length)}${line}`);
  }
  if (record.frozen) {
    say("");
    for (const line of frozenDocumentLines(record.frozen, record.run ?? record.step, record.result, locale))
      say(line);
  }
  return EXIT.ok;
}

/**
 * `flower show <run>`: the run's steps (status, cost, turns, generations) and each frozen document's
 * sections as the file is now; `flower show <run>/<step>` has one step in detail.
 */
function showRun(run: string, records: StepRecord[], runDirectory: RunDirectory, output: Output): number {
  const locale = output.locale;
  const text = CLI_TEXT[locale];
  const state = runStatus(records);
  if (output.json) {
    process.stdout.write(`${JSON.stringify({ run, status: state.status, steps: state.steps })}\n`);
    return EXIT.ok;
  }
  const t = text.show;
  const say = output.say;
  const label = (name: string) => name.padEnd(12);
  const first = state.steps[0]!;
  const updated =
    state.steps
      .map((record) => record.updatedAt)
      .sort()
      .at(-1) ?? first.updatedAt;
  say(`${label(t.run)}${run}`);
  say(
    `${label(t.status)}${text.status[state.status]} · ${localTime(first.startedAt)} → ${localTime(updated)}`,
  );
  say(`${label(t.task)}${cut((first.workflow?.task ?? first.prompt).replace(/\s+/g, " ").trim(), 160)}`);
  say(
    `${label(t.totals)}${t.cost} $${sum(state.steps, (record) => record.costUsd).toFixed(4)} · ${t.turns} ${sum(state.steps, (record) => record.numTurns)}`,
  );
  say("");
  say(`${t.steps}:`);
  const width = Math.max(...state.steps.map((record) => columnsOf(record.workflow?.name ?? record.step)));
  for (const [index, record] of state.steps.entries()) {
    const name = record.workflow?.name ?? record.step;
    const parts = [
      text.status[effectiveStatus(record)],
      `$${record.costUsd.toFixed(4)}`,
      `${record.numTurns} ${t.turns}`,
      `${t.generations} ${record.generations}`,
    ];
    say(`  ${index + 1}  ${name}${" ".repeat(width - columnsOf(name))}  ${parts.join(" · ")}`);
    for (const error of record.errors) say(`       ! ${cut(error.replace(/\s+/g, " "), 300)}`);
  }
  for (const record of state.steps) {
    if (!record.frozen) continue;
    say("");
    for (const line of frozenDocumentLines(record.frozen, run, record.result, locale)) say(line);
  }
  const last = state.steps.at(-1)!;
  const runDirOption =
    resolve(runDirectory.path) === resolve("runs")
      ? ""
      : ` --run-dir ${shellQuote(displayPath(runDirectory.path))}`;
  say("");
  say(t.stepDetails(`flower show ${shellQuote(last.step)}${runDirOption}`));
  return EXIT.ok;
}

function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function table(rows: string[][], rightAligned: boolean[]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => columnsOf(row[column] ?? ""))));
  return rows.map((row) =>
    row
      .map((cell, column) => {
        const pad = " ".repeat(widths[column]! - columnsOf(cell));
        return rightAligned[column] ? pad + cell : cell + pad;
      })
      .join("  ")
      .trimEnd(),
  );
}
