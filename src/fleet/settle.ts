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

export async function settle(
  fleet: FleetStore,
  { run, token, stop, outcome, events }: Settle,
): Promise<Settled> {
  const name = run.run;
  if (stop === "lost") {
    events.emit({ type: "run-status", run: name, status: "lost" });
    return { status: "lost" };
  }
  // A run that reached its end (or its pause) before the stop took effect keeps that end.
  const reached =
    outcome.status === "done" ||
    outcome.status === "goal-not-met" ||
    outcome.status === "budget-reached" ||
    outcome.status === "paused";
  if (!reached && stop === "shutdown") {
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
  let status: FleetStatus;
  let error = outcome.error;
  if (reached) status = outcome.status as FleetStatus;
  else if (stop === "cancel") [status, error] = ["cancelled", null];
  else if (outcome.status === "stopped")
    [status, error] = ["failed", error ?? "the run stopped without being asked to"];
  else status = "failed";
  if (!(await fleet.runs.finish(name, token, status, { error, job: null }))) {
    events.emit({ type: "run-status", run: name, status: "lost" });
    return { status: "lost" };
  }
  if (run.job !== null) await fleet.queue.complete(run.job);
  events.emit({ type: "run-status", run: name, status, ...(error ? { error } : {}) });
  return { status, error };
}
