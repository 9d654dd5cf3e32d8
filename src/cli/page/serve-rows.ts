/**
 * The live page's rows from step records: one row per workflow run (its steps folded in, like `flower
 * runs` does), one per step run on its own. The gauge is the main thread's context of the step the run
 * is on against that step's window and handoff line; the checks are the goal's last run of them; the
 * files are what the latest generations changed (the report has every generation's).
 */
import type { LeaseHolder } from "../../errors.js";
import { HandoffPolicy } from "../../handoff/policy.js";
import type { StepRecord } from "../../records/step-record.js";
import type { RunGauge, RunGenerationFiles, RunRow } from "../../serve/page-source.js";
import { runBudget } from "../record-views/budget-lines.js";
import { runStatus } from "../record-views/run-status.js";
import type { ShownStatus } from "../record-views/step-source.js";

export interface RowInput {
  /** Every step, oldest update first. */
  steps: readonly StepRecord[];
  holders: ReadonlyMap<string, LeaseHolder>;
  /** A step's status as this machine can tell (a dead driver's "running" is "interrupted"). */
  statusOf: (record: StepRecord) => ShownStatus;
}

export function runRows({ steps, holders, statusOf }: RowInput): RunRow[] {
  const groups = new Map<string, StepRecord[]>();
  for (const record of steps) {
    const name = record.run ?? record.step;
    // Re-inserted at each update: the map's order is the runs' last updates, oldest first.
    const group = groups.get(name) ?? [];
    groups.delete(name);
    groups.set(name, [...group, record]);
  }
  return [...groups].map(([name, records]) => rowOf(name, records, holders, statusOf));
}

function rowOf(
  name: string,
  records: StepRecord[],
  holders: ReadonlyMap<string, LeaseHolder>,
  statusOf: RowInput["statusOf"],
): RunRow {
  const inRun = records[0]!.run !== undefined;
  const state = inRun ? runStatus(records) : null;
  const ordered = state?.steps ?? records;
  // The step the run is on: the first not done, else the last (a finished run shows where it ended).
  const current = ordered.find((record) => record.status !== "done") ?? ordered.at(-1)!;
  const unfinished = ordered.some((record) => record.status !== "done");
  const status = unfinished ? statusOf(current) : (state?.status ?? statusOf(current));
  const holder = ordered.map((record) => holders.get(record.step)).find(Boolean);
  const checked = [...ordered].reverse().find((record) => (record.guard?.checkRuns.length ?? 0) > 0);
  const last = checked?.guard?.checkRuns.at(-1);
  return {
    name,
    status,
    step: current.workflow?.name ?? (inRun ? current.step : null),
    machine: holder ? `pid ${holder.pid}@${holder.host}` : null,
    gauge: gaugeOf(current),
    // The generations of the step the run is on, as its gauge is: a workflow's steps are each a new
    // session, so a sum over them (5 for the demo's 2 handoffs) counted steps as generations.
    generations: current.generations,
    ...workOf(ordered, inRun),
    costUsd: ordered.reduce((sum, record) => sum + record.costUsd, 0),
    ...budgetOf(ordered, name),
    checks: last?.results.map((result) => ({ name: result.command, passed: result.passed })) ?? [],
    documents: ordered.flatMap((record) => (record.frozen ? [record.frozen.kind] : [])),
    task: ordered[0]!.workflow?.task ?? ordered[0]!.prompt,
    updatedAt: ordered
      .map((record) => record.updatedAt)
      .sort()
      .at(-1)!,
    report: true,
    can: {
      approve: status === "paused",
      cancel: ["running", "paused", "interrupted"].includes(status),
      // A run that has ended has no session left to read a message.
      say: !["done", "failed", "goal-not-met"].includes(status),
    },
  };
}

/**
 * The live generation's last turn: `context` is only written when a session ends, the per-turn series
 * at every response, so a running step's gauge moves with it. A step with no turn yet has no gauge.
 */
function gaugeOf(record: StepRecord): RunGauge | null {
  const context = record.history.at(-1)?.turns?.at(-1)?.[0] ?? record.context;
  if (record.history.length === 0 && context === 0) return null;
  const { window, at, warnAt } = record.policy ?? new HandoffPolicy();
  return { context, window, at, warnAt };
}

/** Generations the page lists files for, the latest; the files named of each. */
const GENERATIONS_SHOWN = 4;
const FILES_SENT = 8;

/**
 * The latest generations that changed files or ran the goal's checks at their handoff, over the run's
 * steps in order; nothing for a run whose records kept no checkpoints (written before them, or with them
 * off).
 */
function workOf(
  records: readonly StepRecord[],
  inRun: boolean,
): { work?: { generations: RunGenerationFiles[]; earlier: number } } {
  const generations = records.flatMap((record) =>
    record.history.map((generation) => ({ record, generation })),
  );
  if (!generations.some(({ generation }) => generation.work || generation.progress)) return {};
  // A generation that changed files, or whose handoff ran the goal's checks (one that changed nothing is
  // what the drift watch looks for).
  const changed = generations.flatMap(({ record, generation }) => {
    const files = generation.work?.files ?? [];
    const passing = generation.progress?.passing ?? null;
    if (files.length === 0 && passing === null) return [];
    return [
      {
        step: inRun ? (record.workflow?.name ?? record.step) : null,
        generation: generation.generation,
        count: files.length,
        files: files.slice(0, FILES_SENT),
        ...(passing !== null
          ? {
              checks: {
                passing: passing.length,
                total: generation.progress!.checks,
                newly: generation.progress!.newlyPassing.length,
              },
            }
          : {}),
      },
    ];
  });
  const shown = changed.slice(-GENERATIONS_SHOWN);
  return { work: { generations: shown, earlier: changed.length - shown.length } };
}

/** The run's budget, where its records name one. */
function budgetOf(records: readonly StepRecord[], run: string): { budgetUsd?: number } {
  const budgetUsd = runBudget(records, run);
  return budgetUsd === undefined ? {} : { budgetUsd };
}
