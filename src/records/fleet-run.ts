/**
 * A run of a fleet (`flower submit`, `flower worker`): one row per run in the shared store, next to its
 * step records. The row says who has the run (the queue decides that); the step leases still say who
 * drives a step (records/lease.ts), so a worker that lost its row also loses the next fenced write.
 */

import type { LeaseRow } from "./lease.js";
import type { RunSource } from "../checkpoints/run-source.js";
import type { HandoffRule } from "../handoff/policy.js";

/** Where a fleet run stands. `queued` includes a run given back by a stopped or dead worker. */
export type FleetStatus =
  "queued" | "running" | "paused" | "done" | "goal-not-met" | "budget-reached" | "failed" | "cancelled";

export const FLEET_STATUSES: readonly FleetStatus[] = [
  "queued",
  "running",
  "paused",
  "done",
  "goal-not-met",
  "budget-reached",
  "failed",
  "cancelled",
];

/**
 * A run that will not move again: approve and cancel refuse it. A run that reached its budget goes on
 * only with a person's raised one (`flower continue <run> --store … --budget <more>`).
 */
export const FINISHED: readonly FleetStatus[] = [
  "done",
  "goal-not-met",
  "budget-reached",
  "failed",
  "cancelled",
];

/** How a run was submitted: the flags of `flower submit` that change how it runs. */
export interface FleetRunOptions {
  /** `--direct`: the work step alone (a step named like the run), no requirements or goal. */
  direct: boolean;
  /** `--yes`: no pause after the requirements. */
  yes: boolean;
  /** `--window`: the model's context window in tokens; absent: the worker's default. */
  window?: number;
  /** `--handoff-rule`: when its steps hand off; absent: the line. */
  rule?: HandoffRule;
  /** `--budget`: the run's budget in dollars over everything it spends; absent: the worker's default, if any. */
  budgetUsd?: number;
  /**
   * `--notify`: a shell command or an http(s) URL the worker that drives the run tells when it pauses
   * for approval or ends (notify/); absent: only the worker's own notifier, if any.
   */
  notify?: string;
  /**
   * The work the run was given: the submitting checkout's repository, commit and uncommitted changes
   * (carried in the store's log). Absent: submitted from outside a git repository (or by code that named
   * no workspace); a worker then runs it on its own checkout's HEAD.
   */
  source?: RunSource;
}

/** The worker that has a run: enough to tell from another machine whether it is still alive. */
export interface FleetHolder {
  /** Random per claim: a worker proves with it that the run is still its own. */
  token: string;
  pid: number;
  host: string;
  machine?: string;
  startTicks: number | null;
  heartbeatAt: string;
}

/**
 * A run's holder as a step lease's row, so the one rule for a gone owner (lease.ts's `ownerGone`: a dead
 * pid on this machine, or a heartbeat older than staleAfterMs) judges workers as it judges drivers.
 */
export function holderAsLease(run: string, holder: FleetHolder): LeaseRow {
  return { step: run, children: [], startedAt: holder.heartbeatAt, ...holder };
}

export interface FleetRun {
  run: string;
  task: string;
  status: FleetStatus;
  options: FleetRunOptions;
  /** The workflow step the run is on (`requirements`, `goal`, `work`), or null before its first step. */
  step: string | null;
  /** The worker holding it while `running`; null otherwise. */
  holder: FleetHolder | null;
  /** The queue's job that delivers the run now (pg-boss id); null once finished. */
  job: string | null;
  /** A person approved it after its pause: it goes on without pausing again. */
  approved: boolean;
  /** `flower cancel` asked while it ran: the worker stops it at its next boundary. */
  cancelRequested: boolean;
  /** Why it failed (one line), or null. */
  error: string | null;
  submittedAt: string;
  updatedAt: string;
}
