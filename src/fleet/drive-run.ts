/**
 * One fleet run driven once by a worker, through the same path `flower "<task>"` and `flower continue`
 * take: a Runtime on the shared store, then `runWorkflow` for a new run or `continueWorkflow` for one
 * with records (after a pause, a stop, or a worker that died: the step is continued in its session or
 * from its last handoff, never from scratch), or `rt.run`/`rt.continue` for a `--direct` run. Step
 * leases, handoffs and the goal guard are the runtime's, untouched; this only says which call to make
 * and reads where the run ended.
 */
import { defaultTeam } from "../agents/default-team.js";
import { LeaseHeldError, StepFailedError } from "../errors.js";
import { HandoffPolicy } from "../handoff/policy.js";
import type { FleetRun, FleetStatus } from "../records/fleet-run.js";
import { DEFAULT_LEASE_TIMING } from "../records/lease.js";
import type { FlowerEvent } from "../runtime/events.js";
import type { Locale } from "../locale/locale.js";
import { NOTIFY_TEXT } from "../notify/index.js";
import { formatUsd, type Budget } from "../records/run-spend.js";
import type { BudgetStop, StepRecord } from "../records/step-record.js";
import { atDriftPause, driftMeasures } from "../records/step-record.js";
import type { DriftMeasures } from "../locale/drift-words.js";
import type { RuntimeOptions } from "../runtime/options.js";
import { Runtime } from "../runtime/runtime.js";
import { defaultWorkflow } from "../workflow/default-workflow.js";
import { workflowPosition } from "../workflow/position.js";
import { continueWorkflow, runWorkflow } from "../workflow/run-workflow.js";
import type { Workflow } from "../workflow/workflow.js";
import { join, resolve } from "node:path";
import { DEFAULTS } from "../defaults.js";
import { openRunWorkspace, type RunWorkspace } from "../checkpoints/run-workspace.js";
import type { WorkCarrier } from "../checkpoints/work-carrier.js";
import type { StoreSpec } from "../storage/store-spec.js";

/** The options of each run's Runtime, but the store (the fleet's) and the window (the run's). */
export type RunRuntimeOptions = Omit<RuntimeOptions, "store" | "onEvent">;

export interface DriveRun {
  /** The fleet's store, parsed once by the worker. */
  store: StoreSpec;
  run: FleetRun;
  /** The store's log of the runs' work: a run's beginning (and a dead worker's checkpoints) come from it. */
  carrier: WorkCarrier;
  runtime: RunRuntimeOptions;
  /** Every event of the run's runtime. */
  onEvent: (event: FlowerEvent) => void;
  /** Set once the runtime exists: the worker stops the run through it (cancel, shutdown, lost row). */
  onRuntime: (rt: Runtime) => void;
  /** The run's own working tree, once it is made (or found again). */
  onWorkspace?: (space: RunWorkspace) => void;
  /** A line of the repository's setup command (flower.json), run in a new working tree. */
  onSetup?: (line: string) => void;
  /** The run's budget and the fleet's day budget. @default none */
  budgets?: DriveBudgets;
}

/**
 * How a turn with the run ended: a final status, `paused`, or `stopped` (rt.stop(): the worker decides
 * whether that was a cancel or a shutdown).
 */
/** What a run runs under besides its steps' own: its budget and the fleet's day budget (worker.ts). */
export interface DriveBudgets {
  /** The run's budget in dollars (submitted, else the worker's default). */
  runUsd?: number;
  /** The fleet's budget for the UTC day, its offset the day's spend without this run. */
  day?: Budget;
}

export interface DriveOutcome {
  status: Exclude<FleetStatus, "queued" | "running" | "cancelled"> | "stopped";
  /** A failed run's last error; a run the drift watch paused: the evidence, in one line. */
  error: string | null;
  /** A goal-not-met run's reason in one line (its guard's), for a notification. */
  why?: string;
  /** Where the budget stood, for a run that ended `budget-reached`. */
  budget?: BudgetStop;
  /** A paused run that waits for a person because the drift watch paused it (not after its requirements). */
  drift?: { step: string; generations: number[]; handoff: string; measures: DriftMeasures };
}

/**
 * A lease still held by a worker that died on another machine goes stale after this; the fleet takes
 * the run back at about the same time, so the step waits up to twice that for the lease.
 */
const LEASE_WAIT_MS = 2 * DEFAULT_LEASE_TIMING.staleAfterMs;

export async function driveRun(drive: DriveRun): Promise<DriveOutcome> {
  const { run } = drive;
  const window = run.options.window;
  // Every run in a working tree of its own: runs on one worker never write over each other.
  const checkout = resolve(drive.runtime.workspace);
  const runDir = runDirOf(drive.runtime);
  const space = await openRunWorkspace({
    checkout,
    runDir,
    run: run.run,
    commit: run.options.source?.commit ?? null,
    carrier: drive.carrier,
    ...(drive.onSetup ? { onSetup: drive.onSetup } : {}),
  });
  drive.onWorkspace?.(space);
  const work = drive.runtime.work;
  const rt = new Runtime({
    ...drive.runtime,
    workspace: space.path,
    runDir,
    store: drive.store,
    ...budgetOptions(drive),
    onEvent: drive.onEvent,
    // Its own tree, and no branch in the worker's checkout: the work is in the store (flower fetch).
    work:
      typeof work === "object"
        ? { ...work, isolated: true, branch: false }
        : work === false
          ? false
          : { isolated: true, branch: false },
    ...(window !== undefined || run.options.rule !== undefined
      ? {
          handoff: new HandoffPolicy({
            ...(window !== undefined ? { window } : {}),
            ...(run.options.rule !== undefined ? { rule: run.options.rule } : {}),
          }),
        }
      : {}),
  });
  drive.onRuntime(rt);
  try {
    await rt.ready();
    await rt.records.pull?.();
    return run.options.direct ? await direct(rt, run) : await workflow(rt, run);
  } catch (error) {
    if (error instanceof LeaseHeldError || error instanceof StepFailedError)
      return { status: "failed", error: oneLine(error.message) };
    throw error;
  } finally {
    // The tree stays until the run's end is written: the worker clears it then (run-leftovers.ts), and
    // a paused or stopped run keeps it for its next drive here.
    rt.close();
  }
}

/** The run directory of a worker's runs: their worktrees and shadow repositories are kept there. */
export function runDirOf(runtime: RunRuntimeOptions): string {
  return resolve(runtime.runDir ?? join(resolve(runtime.workspace), DEFAULTS.runDir));
}

/** The run's budget as the Runtime's option; the day's as a ceiling beside it (its offset is the fleet's). */
function budgetOptions(drive: DriveRun): Pick<RuntimeOptions, "budgetUsd" | "_internal"> {
  const budgets = drive.budgets ?? {};
  return {
    ...(budgets.runUsd !== undefined ? { budgetUsd: budgets.runUsd } : {}),
    ...(budgets.day !== undefined
      ? { _internal: { ...drive.runtime._internal, budgets: [budgets.day] } }
      : {}),
  };
}

async function workflow(rt: Runtime, run: FleetRun): Promise<DriveOutcome> {
  const steps = defaultWorkflow();
  const options = {
    wait: LEASE_WAIT_MS,
    ...(run.options.yes || run.approved ? { pauseAfter: false as const } : {}),
  };
  const started = rt.records.list().some((record) => record.run === run.run);
  if (started && !run.options.yes && !run.approved && atPause(rt, steps, run.run))
    return { status: "paused", error: null };
  const result = started
    ? await continueWorkflow(rt, steps, run.run, options)
    : await runWorkflow(rt, steps, run.task, { ...options, run: run.run });
  if (result.status === "paused") return { status: "paused", error: null };
  const last = result.steps.at(-1);
  const status = last ? rt.records.get(last.step)?.status : undefined;
  if (result.status === "done" && status !== "goal-not-met") return { status: "done", error: null };
  if (last) {
    const record = rt.records.get(last.step);
    const pause = driftPause(record, rt.options.locale) ?? budgetEnd(record, rt.options.locale);
    if (pause) return pause;
  }
  return ended(status, last?.result.errors, last ? rt.records.get(last.step)?.guard?.why : undefined);
}

/**
 * The run stands right after a step that pauses, the next one not begun: a worker died (or was stopped)
 * between the step's end and the pause being written. Going on would skip the person's approval (the
 * workflow pauses only after a step it ran itself), so the run pauses here instead.
 */
function atPause(rt: Runtime, workflow: Workflow, run: string): boolean {
  const next = workflowPosition(rt, workflow, run).next;
  if (next === null || next.index === 0 || next.status !== null) return false;
  return workflow.steps[next.index - 1]?.pause === true;
}

async function direct(rt: Runtime, run: FleetRun): Promise<DriveOutcome> {
  const team = defaultTeam(rt.options.locale);
  const result = rt.records.get(run.run)
    ? await rt.continue(run.run, team, { wait: LEASE_WAIT_MS })
    : await rt.run(run.run, team, run.task, { wait: LEASE_WAIT_MS });
  const record = rt.records.get(run.run);
  if (record?.status === "done") return { status: "done", error: null };
  return (
    driftPause(record, rt.options.locale) ??
    budgetEnd(record, rt.options.locale) ??
    ended(record?.status, result.errors, record?.guard?.why)
  );
}

/**
 * The drift watch paused the step at a handoff: the run waits for a person (`flower approve` lets a
 * worker go on from that handoff), with the evidence as its one line. Null for any other end.
 */
function driftPause(record: StepRecord | undefined, locale: Locale): DriveOutcome | null {
  if (!atDriftPause(record)) return null;
  const { step, drift, pendingHandoff } = record!;
  const handoff = pendingHandoff!;
  const measures = driftMeasures(record!.history, drift!.generations);
  return {
    status: "paused",
    error: NOTIFY_TEXT[locale].why.drift(drift!.generations, handoff, measures),
    // Named as the fleet's other notices name a step: by its place in the workflow.
    drift: { step: record!.workflow?.name ?? step, generations: drift!.generations, handoff, measures },
  };
}

/** The step stopped at a budget: the run ends `budget-reached`, its figure as its one line. Null otherwise. */
function budgetEnd(record: StepRecord | undefined, locale: Locale): DriveOutcome | null {
  const stop = record?.status === "budget-reached" ? record.budgetStop : undefined;
  if (!stop) return null;
  return {
    status: "budget-reached",
    error: NOTIFY_TEXT[locale].why.budgetReached(
      formatUsd(stop.spentUsd),
      formatUsd(stop.budgetUsd),
      stop.by,
    ),
    budget: stop,
  };
}

/** A step that did not finish: its verdict (and its guard's why), the stop, or a failure with its last error. */
function ended(
  status: string | undefined,
  errors: readonly string[] | undefined,
  why?: string | null,
): DriveOutcome {
  if (status === "goal-not-met")
    return { status: "goal-not-met", error: null, ...(why ? { why: oneLine(why) } : {}) };
  if (status === "stopped" || status === "running") return { status: "stopped", error: null };
  return {
    status: "failed",
    error: oneLine(errors?.at(-1) ?? `the step ended ${status ?? "without a record"}`),
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, 500);
}
