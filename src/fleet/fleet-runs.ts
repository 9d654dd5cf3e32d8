/**
 * The fleet seen and steered from outside a worker: every run with where it stands (`flower runs`, the
 * live page), `approve` (a paused run goes on) and `cancel` (a run stops at its next boundary, wherever
 * it runs). Each takes the store as its URL, or a store opened once with `openFleet` (a page that polls
 * should not connect every second).
 */
import { ConfigurationError, FlowerError } from "../errors.js";
import { FINISHED, holderAsLease, type FleetRun, type FleetStatus } from "../records/fleet-run.js";
import { DEFAULT_LEASE_TIMING, ownerGone } from "../records/lease.js";
import { currentProcess } from "../records/process-identity.js";
import type { StepRecord } from "../records/step-record.js";
import { openFleetStore, type FleetStore } from "../storage/fleet-store.js";
import type { StoreSpec } from "../storage/store-spec.js";

/**
 * A store URL (`postgres://…`) or its parsed spec (the CLI's `--store`), or a store opened with
 * `openFleet` (the caller closes it).
 */
export type FleetStoreOption = string | StoreSpec | FleetStore;

export interface FleetRunView {
  run: string;
  status: FleetStatus;
  /** The workflow step it is on (`requirements`, `goal`, `work`), or null before its first step. */
  step: string | null;
  task: string;
  /** The worker's host name and pid while it runs. */
  machine?: string;
  pid?: number;
  direct: boolean;
  yes: boolean;
  window?: number;
  approved: boolean;
  /** A cancel was asked and the worker has not stopped it yet. */
  cancelRequested: boolean;
  error: string | null;
  /** Generations and cost over the run's steps so far (from the step records). */
  generations: number;
  costUsd: number;
  /** The run's step records' names (`<run>/requirements`, … or the step itself for --direct). */
  steps: string[];
  submittedAt: string;
  updatedAt: string;
}

/** Opens the fleet of a shared store once, for many calls; `close()` it when done. */
export function openFleet(store: string | StoreSpec): FleetStore {
  return openFleetStore(store);
}

/** Every run of the fleet, oldest submission first. */
export async function listFleetRuns(store: FleetStoreOption): Promise<FleetRunView[]> {
  return withStore(store, async (fleet) => fleetRunViews(fleet, await fleet.records.list()));
}

/** Every run of an open fleet, its cost and generations from `records` (a page keeps them: it reads each second). */
export async function fleetRunViews(fleet: FleetStore, records: StepRecord[]): Promise<FleetRunView[]> {
  const runs = await fleet.runs.list();
  const self = currentProcess();
  const now = new Date();
  // Grouped once: a page with thousands of runs and records must not filter every record per run.
  const byRun = new Map<string, StepRecord[]>();
  const byStep = new Map<string, StepRecord>();
  for (const record of records) {
    if (record.run !== undefined) byRun.set(record.run, [...(byRun.get(record.run) ?? []), record]);
    byStep.set(record.step, record);
  }
  return runs.map((run) => {
    const own = byRun.get(run.run) ?? [];
    const direct = run.options.direct ? byStep.get(run.run) : undefined;
    const steps = direct !== undefined && !own.includes(direct) ? [...own, direct] : own;
    return viewOf(run, steps, (holder) => !ownerGone(holder, self, now, DEFAULT_LEASE_TIMING));
  });
}

/** A paused run (after its requirements) goes back to the queue and on without pausing again. */
export async function approveRun(store: FleetStoreOption, run: string): Promise<FleetRunView> {
  checkRunName(run);
  return withStore(store, async (fleet) => {
    const found = await known(fleet, run);
    if (found.status !== "paused")
      throw new FlowerError(
        "configuration",
        `Cannot approve run "${run}": it is ${found.status}, and only a paused run waits for approval`,
      );
    if (!(await fleet.runs.move(run, ["paused"], "queued", { approved: true })))
      throw new FlowerError("configuration", `Cannot approve run "${run}": its status changed meanwhile`);
    await fleet.runs.setJob(run, await fleet.queue.send(run));
    return viewAfter(fleet, run);
  });
}

/**
 * Cancels a run: a queued or paused one at once; a running one is asked to stop, and its worker stops it
 * at the next message boundary (the view says `cancelRequested` until then).
 */
export async function cancelRun(store: FleetStoreOption, run: string): Promise<FleetRunView> {
  checkRunName(run);
  return withStore(store, async (fleet) => {
    const found = await known(fleet, run);
    if (FINISHED.includes(found.status))
      throw new FlowerError("configuration", `Cannot cancel run "${run}": it is ${found.status} already`);
    if (await fleet.runs.move(run, ["queued", "paused"], "cancelled", { job: null })) {
      if (found.job !== null) await fleet.queue.cancel(found.job).catch(() => undefined);
    } else if (!(await fleet.runs.requestCancel(run))) {
      throw new FlowerError(
        "configuration",
        `Cannot cancel run "${run}": its status changed meanwhile; try again`,
      );
    }
    return viewAfter(fleet, run);
  });
}

/** Runs `action` on the given store, or on one opened (and closed) for this call. */
export async function withStore<T>(
  store: FleetStoreOption,
  action: (fleet: FleetStore) => Promise<T>,
): Promise<T> {
  if (isOpened(store)) return action(store);
  const fleet = openFleetStore(store);
  try {
    return await action(fleet);
  } finally {
    await fleet.close();
  }
}

/** A store opened with `openFleet`, not a URL or a spec to open. */
export function isOpened(store: FleetStoreOption): store is FleetStore {
  return typeof store === "object" && store !== null && !("kind" in store);
}

function checkRunName(run: unknown): asserts run is string {
  if (typeof run !== "string" || run.trim() === "") throw new ConfigurationError("run", run, "a run's name");
}

async function known(fleet: FleetStore, run: string): Promise<FleetRun> {
  const found = await fleet.runs.get(run);
  if (found) return found;
  const names = (await fleet.runs.list()).map((entry) => entry.run);
  throw new FlowerError(
    "configuration",
    `No run "${run}" in the fleet of ${fleet.location} (runs: ${names.slice(-20).join(", ") || "none"})`,
  );
}

async function viewAfter(fleet: FleetStore, run: string): Promise<FleetRunView> {
  const found = await known(fleet, run);
  return viewOf(found, await fleet.records.list(), () => true);
}

function viewOf(
  run: FleetRun,
  records: StepRecord[],
  alive: (holder: Parameters<typeof ownerGone>[0]) => boolean,
): FleetRunView {
  const steps = records.filter(
    (record) => record.run === run.run || (run.options.direct && record.step === run.run),
  );
  const holder = run.holder;
  const live = holder !== null && alive(holderAsLease(run.run, holder));
  // A running run whose worker is gone waits for another worker to take it back: it is queued again.
  const status: FleetStatus = run.status === "running" && !live ? "queued" : run.status;
  return {
    run: run.run,
    status,
    step: run.step,
    task: run.task,
    ...(status === "running" && holder ? { machine: holder.host, pid: holder.pid } : {}),
    direct: run.options.direct,
    yes: run.options.yes,
    ...(run.options.window !== undefined ? { window: run.options.window } : {}),
    approved: run.approved,
    cancelRequested: run.cancelRequested && !FINISHED.includes(status),
    error: run.error,
    generations: steps.reduce((total, record) => total + record.generations, 0),
    costUsd: steps.reduce((total, record) => total + record.costUsd, 0),
    steps: steps.map((record) => record.step),
    submittedAt: run.submittedAt,
    updatedAt: run.updatedAt,
  };
}
