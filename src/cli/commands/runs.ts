/**
 * `flower runs`: a table (or JSON lines) of the step records and runs, the fleet's statuses with --store.
 * Options: command-line/command-options.ts `runs`; store: command-line/store-option.ts; figures:
 * record-views/run-status.ts, record-views/step-figures.ts, record-views/budget-lines.ts; words: cli-text.ts,
 * fleet-commands/fleet-text.ts, command-line/usage-text.ts.
 */
import { shellQuote, typed } from "../../locale/invocation.js";
import { spentOfBudget } from "../record-views/budget-lines.js";
import { EXIT, UsageError } from "../../errors.js";
import { resolveLocale } from "../../locale/locale.js";
import { runDirectory } from "../../storage/files.js";
import { effectiveStatus, RunDirectory } from "../../storage/run-directory.js";
import { openStoreView, statusInStore } from "../../storage/store-view.js";
import type { StoreSpec } from "../../storage/store-spec.js";
import type { LeaseHolder } from "../../errors.js";
import type { StepRecord } from "../../records/step-record.js";
import { stepTurns } from "../../records/turns.js";
import { parseLang, parseNonEmpty, type ParsedCommand } from "../command-line/args.js";
import { makeOutput, type Output } from "../live/live-run.js";
import { runStatus } from "../record-views/run-status.js";
import { localTime, sum } from "../record-views/step-figures.js";
import { storeOption } from "../command-line/store-option.js";
import { columnsOf, cut } from "../live/terminal-text.js";
import { USAGE_TEXT } from "../command-line/usage-text.js";
import { CLI_TEXT } from "../cli-text.js";
import { FLEET_TEXT } from "../fleet-commands/fleet-text.js";
import type { FleetRunView } from "../../fleet/fleet-runs.js";

function openRunDirectory(values: ParsedCommand["values"]): RunDirectory {
  return new RunDirectory(runDirectory(parseNonEmpty("--run-dir", values["run-dir"])));
}

/**
 * `flower runs`: a read-only view of the step records, to reconstruct afterwards how many generations a
 * step burned, what each cost and who holds a running one. It reads through storage/run-directory.ts (or
 * the shared store's view), never the manifest, and never creates the run directory.
 */
export function runsCommand(parsed: ParsedCommand): number | Promise<number> {
  const locale = resolveLocale(parseLang(parsed.values.lang));
  if (parsed.positionals.length > 0)
    throw new UsageError(USAGE_TEXT[locale].unexpected("runs", parsed.positionals[0]!));
  const output = makeOutput(parsed.values.json === true, locale);
  const store = storeOption(parsed.values);
  if (store.spec.kind === "postgres") return runsInStore(store.spec, output);
  const runDirectory = openRunDirectory(parsed.values);
  const steps = runDirectory.steps();
  // The holders are read only when there is something to show them for.
  const holders = steps.length === 0 ? new Map<string, LeaseHolder>() : runDirectory.holders();
  return printRuns(output, runDirectory.recordsPath, steps, holders, effectiveStatus);
}

/**
 * `flower runs --store postgres://…`: every step of every machine that shares the store; a run of the
 * fleet (`flower submit`) with the fleet's status (queued, running on which machine, paused, cancelled…),
 * one submitted but not yet begun on a line of its own.
 */
async function runsInStore(spec: Extract<StoreSpec, { kind: "postgres" }>, output: Output): Promise<number> {
  const view = openStoreView(spec);
  try {
    const steps = await view.steps();
    const holders = await view.holders();
    const { listFleetRuns } = await import("../../fleet/fleet-runs.js");
    const fleet = new Map((await listFleetRuns(spec)).map((run) => [run.run, run]));
    return printRuns(
      output,
      view.location,
      steps,
      holders,
      (record) => statusInStore(record, holders.get(record.step)),
      fleet,
    );
  } finally {
    await view.close();
  }
}

function printRuns(
  output: Output,
  where: string,
  steps: StepRecord[],
  holders: Map<string, LeaseHolder>,
  statusOf: (record: StepRecord) => StepRecord["status"] | "interrupted" | "paused",
  fleet: ReadonlyMap<string, FleetRunView> = new Map(),
): number {
  // Submitted runs no step of which has begun yet: only the fleet knows them.
  const waiting = [...fleet.values()].filter((run) => run.steps.length === 0);
  if (output.json) {
    for (const record of steps) {
      const run = fleet.get(record.run ?? record.step);
      process.stdout.write(
        `${JSON.stringify({ ...summaryOf(record, holders.get(record.step), statusOf), ...(run ? { fleet: run } : {}) })}\n`,
      );
    }
    for (const run of waiting) process.stdout.write(`${JSON.stringify({ run: run.run, fleet: run })}\n`);
    return EXIT.ok;
  }
  const text = CLI_TEXT[output.locale];
  const fleetText = FLEET_TEXT[output.locale];
  /** Fleet statuses on the table: their hints are the fleet's (approve, a worker), not `flower continue`. */
  const fleetShown = new Set<FleetRunView["status"]>();
  /** The fleet's status word and holder of a run it knows, else the records' own. */
  const fleetCells = (name: string, status: string, holder: string): [string, string] => {
    const run = fleet.get(name);
    if (!run) return [status, holder];
    // A run paused for another reason than its requirements says its own why under the table.
    if (!(run.status === "paused" && run.error !== null)) fleetShown.add(run.status);
    return [fleetText.status[run.status], run.machine ? `pid ${run.pid}@${run.machine}` : "-"];
  };
  if (steps.length === 0 && waiting.length === 0) {
    output.say(text.noSteps(where));
    return EXIT.ok;
  }
  const stepRow = (record: StepRecord, label: string): string[] => {
    const holder = holders.get(record.step);
    // A fleet run's steps are a worker's to go on with: the records' hints (flower continue) are not for them.
    if (!fleet.has(record.run ?? record.step)) shown.add(statusOf(record));
    const [status, held] =
      record.run === undefined
        ? fleetCells(
            record.step,
            text.status[statusOf(record)],
            holder ? `pid ${holder.pid}@${holder.host}` : "-",
          )
        : [text.status[statusOf(record)], holder ? `pid ${holder.pid}@${holder.host}` : "-"];
    return [
      label,
      status,
      String(record.generations),
      // ≈: part of it is flower's own pricing of responses no total of the binary covered (a kill).
      `${(record.estimatedCost?.usd ?? 0) > 0 ? "≈" : ""}$${record.costUsd.toFixed(4)}`,
      String(stepTurns(record)),
      localTime(record.updatedAt),
      held,
    ];
  };
  const rows: string[][] = [];
  const shown = new Set<string>();
  for (const entry of groupByRun(steps)) {
    if (entry.kind === "step") {
      rows.push(stepRow(entry.record, entry.record.step));
      continue;
    }
    // A run: one line for the run (its status, its totals), then its steps in workflow order.
    const state = runStatus(entry.records);
    const holder = state.steps.map((record) => holders.get(record.step)).find(Boolean);
    if (!fleet.has(entry.run)) shown.add(state.status);
    const [status, held] = fleetCells(
      entry.run,
      text.status[state.status],
      holder ? `pid ${holder.pid}@${holder.host}` : "-",
    );
    rows.push([
      entry.run,
      status,
      "",
      `$${sum(state.steps, (record) => record.costUsd).toFixed(4)}`,
      String(sum(state.steps, stepTurns)),
      localTime(
        state.steps
          .map((record) => record.updatedAt)
          .sort()
          .at(-1) ?? "",
      ),
      held,
    ]);
    for (const record of state.steps) rows.push(stepRow(record, `  ${record.workflow?.name ?? record.step}`));
  }
  for (const run of waiting) {
    fleetShown.add(run.status);
    rows.push([run.run, fleetText.status[run.status], "0", "$0.0000", "0", localTime(run.updatedAt), "-"]);
  }
  for (const line of table([[...text.runsHeader], ...rows], [false, false, true, true, true, false, false]))
    output.say(line);
  // Where a budget is set: spent of budget, a line per run under the table (not a wider column).
  const budgeted = [...new Set(steps.map((record) => record.run ?? record.step))]
    .map((name) => [name, spentOfBudget(steps, name, output.locale)] as const)
    .filter((entry): entry is readonly [string, string] => entry[1] !== null);
  if (budgeted.length > 0) output.say("");
  for (const [name, spent] of budgeted) output.say(`${name}: ${spent}`);
  // A fleet run that failed, or paused for another reason than its requirements (the drift watch), says
  // why under the table: its worker's words, one line.
  const why = [...fleet.values()].filter(
    (run) => (run.status === "failed" || run.status === "paused") && run.error !== null,
  );
  if (why.length > 0) output.say("");
  for (const run of why)
    output.say(
      run.status === "failed"
        ? fleetText.failedWhy(run.run, cut(run.error!, 300))
        : fleetText.pausedWhy(
            run.run,
            cut(run.error!, 300),
            typed(`approve ${shellQuote(run.run)} --store …`),
          ),
    );
  // The table says the status in a word; what to do about it is a line below, not a wider column.
  const hints = Object.entries(text.statusHint).filter(([status]) => shown.has(status));
  if (hints.length > 0) output.say("");
  for (const [status, hint] of hints)
    output.say(`${text.status[status as keyof typeof text.status]}: ${hint}`);
  const fleetHints = Object.entries(fleetText.statusHint).filter(([status]) =>
    fleetShown.has(status as FleetRunView["status"]),
  );
  if (fleetHints.length > 0 && hints.length === 0) output.say("");
  for (const [status, hint] of fleetHints)
    output.say(`${fleetText.status[status as FleetRunView["status"]]}: ${hint}`);
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

function summaryOf(
  record: StepRecord,
  holder: LeaseHolder | undefined,
  statusOf: (record: StepRecord) => StepRecord["status"] | "interrupted" | "paused",
) {
  return {
    heldBy: holder ?? null,
    step: record.step,
    status: statusOf(record),
    generations: record.generations,
    costUsd: record.costUsd,
    numTurns: stepTurns(record),
    updatedAt: record.updatedAt,
    sessionId: record.sessionId,
    // A --direct run's step is its run (continue, show, diff, apply, fetch take the name as one): named so.
    run: record.run ?? record.step,
    name: record.workflow?.name ?? null,
    frozen: record.frozen ?? null,
    /** The run's budget (`--budget`), null without one; where it stood if the step stopped on it. */
    budgetUsd: record.settings?.budgetUsd ?? null,
    budgetStop: record.budgetStop ?? null,
  };
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
