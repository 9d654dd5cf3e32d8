/**
 * `flower show [<run>|<step>]`: a run's steps and frozen documents, or one step in detail; reads only.
 * Options: command-line/command-options.ts `show`; records: record-views/step-source.ts (run directory, and
 * --store); its sections: record-views/frozen-view.ts, record-views/guard-summary.ts,
 * live/handoff-summary.ts, record-views/work-summary.ts; words: cli-text.ts, live/display-text.ts.
 */
import { spentOfBudget } from "../record-views/budget-lines.js";
import { isDefaultRunDirectory } from "../../storage/files.js";
import { EXIT, UsageError } from "../../errors.js";
import { readFrozenHandoff } from "../../handoff/freeze-handoff.js";
import { formatTokens } from "../../handoff/handoff-document-text.js";
import { builtInSpec } from "../../documents/builtin/index.js";
import { resolveLocale, type Locale } from "../../locale/locale.js";
import type { PersonMessage } from "../../records/person-messages.js";
import { driftMeasures, type GenerationRecord, type StepRecord } from "../../records/step-record.js";
import { generationTurns, stepTurns } from "../../records/turns.js";
import { sparkline } from "../../report/sparkline.js";
import { reportStep } from "../record-views/step-report-input.js";
import { parseLang, type ParsedCommand } from "../command-line/args.js";
import { changedInUse } from "../record-views/changed-documents.js";
import { CHANGED_TEXT } from "../record-views/changed-text.js";
import { DISPLAY_TEXT } from "../live/display-text.js";
import { frozenState, type FrozenState } from "../record-views/frozen-state.js";
import { frozenDocumentLines } from "../record-views/frozen-view.js";
import { guardSummary } from "../record-views/guard-summary.js";
import { handoffSummary } from "../live/handoff-summary.js";
import { displayPath, makeOutput, type Output } from "../live/live-run.js";
import { shellQuote, typed } from "../../locale/invocation.js";
import { runStatus } from "../record-views/run-status.js";
import { openStepSource, type StepSource } from "../record-views/step-source.js";
import { storeHint } from "../store-hint.js";
import { columnsOf, cut, oneLine } from "../live/terminal-text.js";
import { CLI_TEXT, type CliText } from "../cli-text.js";
import { USAGE_TEXT } from "../command-line/usage-text.js";
import { leftOutName, namedFiles, stepFiles } from "../record-views/work-summary.js";
import { branchOf } from "../../checkpoints/checkpoint-message.js";
import { git } from "../../checkpoints/git.js";
import { existsSync } from "node:fs";
import { localTime, sum } from "../record-views/step-figures.js";

/**
 * `flower show [<run>|<step>]`: a run's steps and its frozen documents, or one step in detail — read
 * from the run directory, or with a shared store (`--store`, FLOWER_STORE) from the store as well, so a
 * run recorded on another machine shows here with its documents as the store keeps them
 * (cli/record-views/step-source.ts). Reads only; never creates the run directory.
 */
export async function showCommand(parsed: ParsedCommand): Promise<number> {
  const locale = resolveLocale(parseLang(parsed.values.lang));
  if (parsed.positionals.length > 1) throw new UsageError(USAGE_TEXT[locale].oneStepName("show"));
  const output = makeOutput(parsed.values.json === true, locale);
  const source = await openStepSource(parsed.values, locale);
  try {
    return await show(source, parsed.positionals[0], output);
  } finally {
    await source.close();
  }
}

async function show(source: StepSource, wanted: string | undefined, output: Output): Promise<number> {
  const text = CLI_TEXT[output.locale];
  const record = wanted === undefined ? source.steps.at(-1) : source.step(wanted);
  // A run id, or no name after a workflow run: the run with its frozen documents.
  const run = wanted === undefined ? record?.run : record ? undefined : wanted;
  if (run !== undefined) {
    const records = source.steps.filter((step) => step.run === run);
    if (records.length > 0) {
      await source.prepareFiles(records);
      return showRun(run, records, source, output);
    }
  }
  if (!record) {
    if (wanted === undefined) throw new UsageError(`flower show: ${text.noSteps(source.where)}`);
    throw new UsageError(text.noStep(wanted, source.where, source.knownNames()));
  }
  if (output.json) {
    process.stdout.write(`${JSON.stringify(record)}\n`);
    return EXIT.ok;
  }
  await source.prepareFiles([record]);
  showStep(
    record,
    source,
    output,
    await branchHere(record),
    await source.waitingMessages(record.run ?? record.step),
  );
  return EXIT.ok;
}

/**
 * The run's branch `flower/<run>` when it exists: in the repository the step worked in, when that is on
 * this machine, else in the one the command runs in (where `flower fetch` builds it). Null otherwise: a
 * run that changed nothing, one outside git, a fleet run not fetched here, a discarded branch.
 */
async function branchHere(record: StepRecord): Promise<string | null> {
  if (!record.work) return null;
  const branch = branchOf(record.run ?? record.step);
  const where = existsSync(record.work.workspace) ? record.work.workspace : process.cwd();
  const found = await git(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], {
    cwd: where,
    ok: [0, 1, 128],
  }).catch(() => null);
  return found?.code === 0 ? branch : null;
}

/** `flower show <step>`: one step in detail. */
function showStep(
  record: StepRecord,
  source: StepSource,
  output: Output,
  branch: string | null,
  waiting: readonly PersonMessage[],
): void {
  const locale = output.locale;
  const text = CLI_TEXT[locale];
  const t = text.show;
  const say = output.say;
  const label = (name: string) => name.padEnd(12);
  say(`${label(t.step)}${record.step}`);
  const status = source.statusOf(record);
  say(
    `${label(t.status)}${text.status[status]} · ${localTime(record.startedAt)} → ${localTime(record.updatedAt)}`,
  );
  // goal-not-met needs no pointer here: the guard's evidence is further down this page.
  if (status !== "goal-not-met" && status in text.statusHint)
    say(`${label("")}${text.statusHint[status as keyof CliText["statusHint"]]}`);
  say(`${label(t.agent)}${record.agent}`);
  // A workflow step's prompt is generated; its task is what the person typed (the report shows both).
  say(`${label(t.task)}${cut((record.workflow?.task ?? record.prompt).replace(/\s+/g, " ").trim(), 160)}`);
  say(
    `${label(t.totals)}${t.cost} $${record.costUsd.toFixed(4)}${estimateOf(record, t)} · ${t.turns} ${stepTurns(record)} · ${t.generations} ${record.generations}` +
      ` · ${t.failedAttempts} ${record.attempts} · ${t.context} ${formatTokens(record.context)}` +
      ` · ${t.spills} ${record.spills} · ${t.denials} ${record.denials}`,
  );
  // Where a budget is set: the run's spent figure (all its steps) of it.
  const spent = spentOfBudget(source.steps, record.run ?? record.step, locale);
  if (spent !== null) say(`${label(t.budget)}${spent}`);
  const series = reportStep(record);
  if (series.turns.length > 0) {
    const columns = Math.max(20, Math.min(100, (process.stdout.columns ?? 100) - 14));
    say(`${label(t.context)}${sparkline(series.turns, { width: columns, max: series.at })}`);
  }
  say(`${label(t.session)}${record.sessionId ?? t.none}`);
  say(`${label(t.retired)}${record.retired.length ? record.retired.join(", ") : t.none}`);
  // Where the step's files are and how to see them: its own worktree or the checkout, its branch.
  // A worktree that is gone (removed when its run ended, or on another machine) is not named.
  if (record.work) {
    const gone = record.work.isolated && !existsSync(record.work.workspace);
    say(
      `${label(t.work)}${t.workWhere(gone ? null : displayPath(record.work.workspace), record.work.isolated, record.work.checkpoints, branch)}`,
    );
  }
  say("");
  say(`${t.generationsTitle}:`);
  for (const generation of record.history) {
    const isCurrent = generation === record.history.at(-1) && !generation.handoff;
    for (const line of generationLines(generation, locale, isCurrent ? t.current : null)) say(line);
    // A person's `flower handoff` rode on this generation's handoff: who asked, and what they wrote.
    for (const asked of record.handoffRequests ?? [])
      if (asked.generation === generation.generation)
        say(
          `       <- ${t.askedBy(asked.by, localTime(asked.at), asked.next === null ? null : cut(oneLine(asked.next), 160))}`,
        );
    // A person's messages (flower say) this generation's session was given.
    for (const said of record.personMessages ?? [])
      if (said.generation === generation.generation)
        say(
          `       << ${t.saidBy(said.by, localTime(said.at), localTime(said.deliveredAt), cut(oneLine(said.text), 160))}`,
        );
  }
  // Said to the run and waiting for its next session (or for a step of it still to come).
  for (const said of waiting)
    say(`  << ${t.saidWaiting(said.by, localTime(said.at), cut(oneLine(said.text), 160))}`);
  if (record.drift)
    say(
      `  !! ${t.driftPaused(record.drift.generations, localTime(record.drift.at), driftMeasures(record.history, record.drift.generations))}`,
    );
  // What the checkpoints could not keep, said once for the step.
  for (const line of workLines(record, text)) say(`  ${line}`);
  // Generations a rewind took back: archived, listed after the current ones and marked.
  for (const rewind of record.rewound ?? []) {
    say("");
    say(`${t.rewoundTitle(localTime(rewind.at), rewind.to)}:`);
    for (const generation of rewind.generations)
      for (const line of generationLines(generation, locale, t.rewound)) say(line);
  }
  const changed = changedDocuments(record, source, locale);
  if (changed.length > 0) {
    say("");
    for (const line of changed) say(line);
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
  const files = source.handoffFiles(record);
  if (files.current.length > 0 || files.archived.length > 0) {
    say("");
    say(`${t.handoffFiles}:`);
    for (const path of files.current) {
      const located = source.locate(path);
      say(`  ${located.shown}${located.file !== null ? "" : ` ${t.missingFile}`}`);
    }
    for (const path of files.archived) say(`  ${path} (${t.archived})`);
    if (record.pendingHandoff) say(`  ${t.pending}`);
  }
  const current = files.current.at(-1);
  const located = current === undefined ? null : source.locate(current);
  if (located?.file) {
    const handoff = readFrozenHandoff(located.file, record.step);
    say("");
    say(t.currentHandoff(located.shown));
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
    // Judged within its run, as `flower show <run>` and the end of the run judge it.
    const ordered = runStatus(
      record.run === undefined ? [record] : source.steps.filter((step) => step.run === record.run),
    ).steps;
    const state = frozenState(record, ordered, source);
    for (const line of documentLines(record, record.run ?? record.step, source, output, state)) say(line);
  }
}

/** ` (≈$0.0123 of it estimated: …)` when part of the cost is flower's own pricing; "" otherwise. */
function estimateOf(record: StepRecord, t: CliText["show"]): string {
  const estimate = record.estimatedCost;
  if (!estimate || estimate.usd <= 0) return "";
  return ` (${t.estimated(estimate.usd.toFixed(4), estimate.responses, estimate.models.join(", "))})`;
}

/**
 * A generation's line (`mark`: current, rewound), the files it changed (when its work was recorded) and
 * how it handed off.
 */
function generationLines(generation: GenerationRecord, locale: Locale, mark: string | null): string[] {
  const t = CLI_TEXT[locale].show;
  const parts = [
    `${String(generation.generation).padStart(3)}  ${generation.sessionId ?? "-"}`,
    `$${generation.costUsd.toFixed(4)}`,
    DISPLAY_TEXT[locale].turns(generationTurns(generation)),
    `${t.context} ${formatTokens(generation.context)}`,
  ];
  if (mark !== null) parts.push(mark);
  const lines = [`  ${parts.join(" · ")}`];
  const files = generation.work?.files;
  if (files !== undefined)
    lines.push(
      `       ${files.length > 0 ? t.changedFiles(files.length, namedFiles(files, t.moreFiles)) : t.noFilesChanged}`,
    );
  const handoff = generation.handoff;
  if (handoff) {
    const state = handoff.degraded ? t.degraded(handoff.why ?? "") : "ok";
    const progress = generation.progress;
    const checks =
      progress && progress.passing !== null
        ? ` · ${DISPLAY_TEXT[locale].progressChecks(progress.passing.length, progress.checks, progress.newlyPassing.length)}`
        : "";
    lines.push(`       -> ${t.handedOff}: ${handoff.path ?? t.noFile} · ${state}${checks}`);
  }
  return lines;
}

/** The step's files its checkpoints left out and the checkpoints that failed; none without work. */
function workLines(record: StepRecord, text: CliText): string[] {
  const t = text.show;
  const work = record.work;
  if (!work) return [];
  const lines: string[] = [];
  const secrets = work.leftOut.filter((entry) => entry.why === "secret");
  const others = work.leftOut.filter((entry) => entry.why !== "secret");
  if (others.length > 0) {
    const names = others.map((entry) => leftOutName(entry, t));
    lines.push(t.leftOut(namedFiles(names, t.moreFiles)));
  }
  if (secrets.length > 0) {
    const names = secrets.map((entry) => leftOutName(entry, t));
    lines.push(t.leftOutSecrets(namedFiles(names, t.moreFiles)));
  }
  for (const warning of work.warnings ?? []) lines.push(t.workWarning(cut(oneLine(warning), 300)));
  return lines;
}

/**
 * For a step of a workflow run: the documents it read that changed on disk after a step began with
 * them (that text, not the file, is used), one line each.
 */
function changedDocuments(record: StepRecord, source: StepSource, locale: Locale): string[] {
  const reads = record.workflow?.read ?? [];
  if (record.run === undefined || reads.length === 0) return [];
  const ordered = runStatus(source.steps.filter((step) => step.run === record.run)).steps;
  const lines: string[] = [];
  for (const earlier of ordered) {
    const frozen = earlier.frozen;
    if (!frozen || !reads.some((read) => read.kind === frozen.kind)) continue;
    const since = changedInUse(earlier, ordered, source)?.since;
    if (since === undefined) continue;
    const title = builtInSpec(frozen.kind)?.title[locale] ?? frozen.kind;
    const words = CHANGED_TEXT[locale];
    lines.push(
      `! ${words.line(`${title} ${source.locate(frozen.path).shown}`, words.changed(since, false))}`,
    );
  }
  return lines;
}

/** The frozen document's lines, read where the file is (here, or the store's copy), named as shown. */
function documentLines(
  record: StepRecord,
  run: string,
  source: StepSource,
  output: Output,
  state: FrozenState | null,
): string[] {
  const frozen = record.frozen!;
  const located = source.locate(frozen.path);
  if (located.file === null || located.file === frozen.path)
    return frozenDocumentLines(frozen, run, record.result, output.locale, state);
  const lines = frozenDocumentLines(
    { ...frozen, path: located.file },
    run,
    record.result,
    output.locale,
    state,
  );
  return [lines[0]!.replace(located.file, located.shown), ...lines.slice(1)];
}

/**
 * `flower show <run>`: the run's steps (status, cost, turns, generations) and each frozen document's
 * sections as the file is now (or, once a later step began with another text, as that text is, the
 * file's change marked not used); `flower show <run>/<step>` has one step in detail.
 */
function showRun(run: string, records: StepRecord[], source: StepSource, output: Output): number {
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
  const statusHint = text.statusHint[state.status as keyof CliText["statusHint"]];
  if (statusHint) say(`${label("")}${statusHint}`);
  say(`${label(t.task)}${cut((first.workflow?.task ?? first.prompt).replace(/\s+/g, " ").trim(), 160)}`);
  say(
    `${label(t.totals)}${t.cost} $${sum(state.steps, (record) => record.costUsd).toFixed(4)} · ${t.turns} ${sum(state.steps, stepTurns)}`,
  );
  say("");
  say(`${t.steps}:`);
  const width = Math.max(...state.steps.map((record) => columnsOf(record.workflow?.name ?? record.step)));
  for (const [index, record] of state.steps.entries()) {
    const name = record.workflow?.name ?? record.step;
    const parts = [
      text.status[source.statusOf(record)],
      `$${record.costUsd.toFixed(4)}`,
      DISPLAY_TEXT[locale].turns(stepTurns(record)),
      `${t.generations} ${record.generations}`,
    ];
    // A step that changed no files (a document step) says nothing of them.
    const files = stepFiles(record)?.length ?? 0;
    if (files > 0) parts.push(t.filesChanged(files));
    say(`  ${index + 1}  ${name}${" ".repeat(width - columnsOf(name))}  ${parts.join(" · ")}`);
    for (const error of record.errors) say(`       ! ${cut(error.replace(/\s+/g, " "), 300)}`);
  }
  for (const record of state.steps) {
    if (!record.frozen) continue;
    say("");
    const frozen = frozenState(record, state.steps, source);
    for (const line of documentLines(record, run, source, output, frozen)) say(line);
  }
  const last = state.steps.at(-1)!;
  const hint = storeHint(source.store, locale);
  const options = [
    ...hint.args,
    ...(isDefaultRunDirectory(source.runDirectory.path)
      ? []
      : ["--run-dir", displayPath(source.runDirectory.path)]),
  ];
  say("");
  say(t.stepDetails(typed(["show", last.step, ...options].map(shellQuote).join(" "))));
  if (hint.note !== null) say(`  ${hint.note}`);
  return EXIT.ok;
}
