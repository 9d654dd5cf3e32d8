/**
 * What a worker writes when its turn with a run ends, from where the run ended (drive-run.ts) and why
 * it was stopped, if it was: a final status, `paused`, `cancelled`, or back to the queue with a new job
 * (a shutdown). Every write is fenced by the worker's token: a run taken back from a worker presumed
 * dead is left to the worker that has it now.
 */
import type { FleetRun, FleetStatus } from "../records/fleet-run.js";
import type { FleetStore } from "../storage/fleet-store.js";
import type { DriveOutcome } from "./drive-run.js";
import type { FleetEvents } from "./fleet-events.js";

export interface Settle {
  run: FleetRun;
  token: string;
  stop: "cancel" | "shutdown" | "lost" | null;
  outcome: DriveOutcome;
  events: FleetEvents;
}

/** Where the run was left: the status written (with its error), or `lost` when it was not this worker's. */
export type Settled = { status: FleetStatus; error: string | null } | { status: "lost" };

/**
 * The status a worker's turn with a run ends in, before it is written: `lost` for a run taken from this
 * worker, `queued` for one given back at a shutdown before it reached an end, else its end.
 */
export function endOf(stop: Settle["stop"], outcome: DriveOutcome): FleetStatus | "lost" {
  if (stop === "lost") return "lost";
  // A run that reached its end (or its pause) before the stop took effect keeps that end.
  if (["done", "goal-not-met", "budget-reached", "paused"].includes(outcome.status))
    return outcome.status as FleetStatus;
  if (stop === "shutdown") return "queued";
  if (stop === "cancel") return "cancelled";
  return "failed";
}

export async function settle(
  fleet: FleetStore,
  { run, token, stop, outcome, events }: Settle,
): Promise<Settled> {
  const name = run.run;
  const end = endOf(stop, outcome);
  if (end === "lost") {
    events.emit({ type: "run-status", run: name, status: "lost" });
    return { status: "lost" };
  }
  if (end === "queued") {
    const job = await fleet.queue.send(name);
    if (!(await fleet.runs.finish(name, token, "queued", { job }))) {
      await fleet.queue.cancel(job).catch(() => undefined);
      events.emit({ type: "run-status", run: name, status: "lost" });
      return { status: "lost" };
    }
    if (run.job !== null) await fleet.queue.complete(run.job);
    events.emit({ type: "run-status", run: name, status: "queued", why: "released" });
    return { status: "queued", error: null };
  }
  const status = end;
  let error = outcome.error;
  if (end === "cancelled") error = null;
  else if (outcome.status === "stopped") error ??= "the run stopped without being asked to";
  if (!(await fleet.runs.finish(name, token, status, { error, job: null }))) {
    events.emit({ type: "run-status", run: name, status: "lost" });
    return { status: "lost" };
  }
  if (run.job !== null) await fleet.queue.complete(run.job);
  events.emit({ type: "run-status", run: name, status, ...(error ? { error } : {}) });
  return { status, error };
}
