/**
 * `flower runs` and `flower show <step>`: read-only views of manifest.json and the frozen handoffs,
 * to reconstruct afterwards how many generations a step burned, what each cost and why it handed off.
 * They never create the run directory.
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { readFrozenHandoff } from "../../handoff/freeze.js";
import { formatTokens } from "../../handoff/text.js";
import { resolveLocale } from "../../locale/locale.js";
import { SqliteRunRecords } from "../../records/sqlite-records.js";
import { safeFileName } from "../../fs/safe-file-name.js";
import type { StepRecord } from "../../records/step-record.js";
import { handoffSummary } from "../display.js";
import { parseLang, parseNonEmpty, UsageError, type ParsedCommand } from "../args.js";
import { CLI_TEXT } from "../text.js";
import { EXIT, makeOutput } from "./live.js";
import { cut } from "../terminal-text.js";

function openManifest(values: ParsedCommand["values"]): SqliteRunRecords {
  return new SqliteRunRecords(resolve(parseNonEmpty("--run-dir", values["run-dir"]) ?? "runs"));
}

export function runsCommand(parsed: ParsedCommand): number {
  if (parsed.positionals.length > 0)
    throw new UsageError(
      `flower runs: unexpected argument "${parsed.positionals[0]}" (see flower runs --help)`,
    );
  const locale = resolveLocale(parseLang(parsed.values.lang));
  const output = makeOutput(parsed.values.json === true, locale);
  const manifest = openManifest(parsed.values);
  const steps = manifest.list().sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
  if (output.json) {
    for (const record of steps) process.stdout.write(`${JSON.stringify(summaryOf(record))}\n`);
    return EXIT.ok;
  }
  const text = CLI_TEXT[locale];
  if (steps.length === 0) {
    output.say(text.noSteps(manifest.manifestPath));
    return EXIT.ok;
  }
  const rows = steps.map((record) => [
    record.step,
    text.status[effectiveStatus(record)],
    String(record.generations),
    `$${record.costUsd.toFixed(4)}`,
    String(record.numTurns),
    localTime(record.updatedAt),
  ]);
  for (const line of table([[...text.runsHeader], ...rows], [false, false, true, true, true, false]))
    output.say(line);
  return EXIT.ok;
}

/**
 * "running" is only true while the process that runs the step lives; a step whose process crashed or
 * was killed is shown as interrupted (and can be continued).
 */
export function effectiveStatus(record: StepRecord): StepRecord["status"] | "interrupted" {
  if (record.status !== "running" || record.pid === undefined || record.pid === process.pid)
    return record.status;
  try {
    process.kill(record.pid, 0);
    return "running";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM" ? "running" : "interrupted";
  }
}

function summaryOf(record: StepRecord) {
  return {
    step: record.step,
    status: effectiveStatus(record),
    generations: record.generations,
    costUsd: record.costUsd,
    numTurns: record.numTurns,
    updatedAt: record.updatedAt,
    sessionId: record.sessionId,
  };
}

export function showCommand(parsed: ParsedCommand): number {
  if (parsed.positionals.length > 1)
    throw new UsageError("flower show: give one step name (see flower show --help)");
  const locale = resolveLocale(parseLang(parsed.values.lang));
  const output = makeOutput(parsed.values.json === true, locale);
  const text = CLI_TEXT[locale];
  const manifest = openManifest(parsed.values);
  const wanted = parsed.positionals[0];
  const steps = manifest.list();
  const record =
    wanted === undefined
      ? steps.sort((a, b) => a.updatedAt.localeCompare(b.updatedAt)).at(-1)
      : manifest.get(wanted);
  if (!record) {
    if (wanted === undefined) throw new UsageError(`flower show: ${text.noSteps(manifest.manifestPath)}`);
    throw new UsageError(
      text.noStep(
        wanted,
        manifest.manifestPath,
        steps.map((s) => s.step),
      ),
    );
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
  if (record.errors.length > 0) {
    say("");
    say(`${t.errors}:`);
    for (const error of record.errors) say(`  - ${cut(error.replace(/\s+/g, " "), 300)}`);
  }
  const files = handoffFiles(record);
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
  return EXIT.ok;
}

/**
 * The frozen files of a step: the newest one is current; earlier generations were moved to the archive
 * (the manifest follows them there), and archived files of earlier runs of the same step are listed too.
 */
function handoffFiles(record: StepRecord): { current: string[]; archived: string[] } {
  const newest = record.handoffs.at(-1);
  const current = newest === undefined ? [] : [newest];
  const archived = new Set(record.handoffs.slice(0, -1));
  const prefix = `${safeFileName(record.step)}-`;
  for (const path of current) {
    // <notes>/交接-<step>.md → <notes>/archive/交接/<step>-<timestamp>.md (handoff-… in en).
    const kind = basename(path).slice(0, basename(path).indexOf("-"));
    const dir = join(dirname(path), "archive", kind);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (
        name.startsWith(prefix) &&
        name.endsWith(".md") &&
        /^\d{4}-\d\d-\d\dT/.test(name.slice(prefix.length))
      )
        archived.add(join(dir, name));
    }
  }
  return { current, archived: [...archived].sort() };
}

function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Terminal columns of a string: CJK and other wide characters take two. */
function width(text: string): number {
  let columns = 0;
  for (const char of text)
    columns +=
      /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(
        char,
      )
        ? 2
        : 1;
  return columns;
}

function table(rows: string[][], rightAligned: boolean[]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => width(row[column] ?? ""))));
  return rows.map((row) =>
    row
      .map((cell, column) => {
        const pad = " ".repeat(widths[column]! - width(cell));
        return rightAligned[column] ? pad + cell : cell + pad;
      })
      .join("  ")
      .trimEnd(),
  );
}
