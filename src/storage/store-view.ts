/**
 * A shared store seen from outside a run, for `flower runs|show|report|forget --store`: every step any
 * machine recorded, who holds each running one, the files the steps saved there, the fleet's runs, and
 * the one write, `forget`. Creates no run directory (the schema is brought up to date like on any first
 * use, so an empty store reads as empty).
 */
import { shellQuote, typed } from "../locale/invocation.js";
import type pg from "pg";
import { FleetRunOpenError, LeaseHeldError, StoreError, type LeaseHolder } from "../errors.js";
import { FINISHED, holderAsLease, type FleetRun } from "../records/fleet-run.js";
import { DEFAULT_LEASE_TIMING, holderOf, ownerGone, type LeaseRow } from "../records/lease.js";
import { PostgresFleetRuns } from "./postgres/postgres-fleet-runs.js";
import { deleteEndedJobs } from "./postgres/run-queue.js";
import { PostgresRunRecords } from "./postgres/postgres-run-records.js";
import { currentProcess, type ProcessIdentity } from "../records/process-identity.js";
import { atDriftPause, type StepRecord } from "../records/step-record.js";
import { quoteIdentifier } from "./postgres/migrate.js";
import type { PostgresSessionStore } from "./postgres/postgres-session-store.js";
import { PostgresWorkspaceFiles } from "./postgres/postgres-workspace-files.js";
import { PostgresWorkLog } from "./postgres/work-log.js";
import type { StoreSpec } from "./store-spec.js";
import type { PersonMessage } from "../records/person-messages.js";
import type { WorkspaceFiles } from "../session-layers/workspace-files.js";
import { connectPostgres, reason } from "./backing-store.js";
import { stepSessionIds } from "./retention.js";
import { FollowedRecords } from "./followed-records.js";

export interface StoreView {
  location: string;
  /** Every step, oldest update first. */
  steps(): Promise<StepRecord[]>;
  /**
   * `steps()` for a reader that asks every second: each call reads only what was written since the last
   * (followed-records.ts).
   */
  followSteps(): () => Promise<StepRecord[]>;
  /** Who drives each running step now (a lease whose owner is gone is left out). */
  holders(): Promise<Map<string, LeaseHolder>>;
  /** The files steps saved (frozen documents, handoffs, spill files), by their path under `.flower/`. */
  files: Pick<WorkspaceFiles, "get" | "list">;
  /** The fleet's runs (`flower submit`), oldest submission first; none in a store without a fleet. */
  fleetRuns(): Promise<FleetRun[]>;
  /** A person's messages to `run` that no session has been given yet (`flower say`), oldest first. */
  messages(run: string): Promise<PersonMessage[]>;
  /**
   * Deletes the steps' sessions (every generation and the reviewer's), the files they saved, their
   * leases and their records, and the fleet's row of `fleetRun` with its ended queue jobs, in one
   * transaction. Deletes nothing and refuses with FleetRunOpenError while the fleet run of any of them
   * can still move (queued, paused, running), and with LeaseHeldError while a live driver holds a step.
   */
  forget(target: ForgetTarget): Promise<ForgottenInStore>;
  close(): Promise<void>;
}

export interface ForgetTarget {
  steps: readonly StepRecord[];
  /** The fleet run named like what was forgotten (a run id, a --direct run's step), if the fleet has one. */
  fleetRun?: string;
}

export interface ForgottenInStore {
  sessions: number;
  files: number;
  records: number;
  /** Fleet rows deleted: 1 when `fleetRun` was given, else 0. */
  fleetRuns: number;
  /** Rows of the runs' work log deleted (a run's checkpoints go when all of its steps do). */
  work: number;
}

/** Connections: the reads go one after another; forget holds one for its transaction and reads on another. */
const VIEW_CONNECTIONS = 2;

export function openStoreView(spec: Extract<StoreSpec, { kind: "postgres" }>): StoreView {
  const { location, pool, sessions, ready } = connectPostgres(spec, VIEW_CONNECTIONS);
  const schema = quoteIdentifier(spec.schema);
  const records = new PostgresRunRecords(ready, schema, location);
  const files = new PostgresWorkspaceFiles(ready, schema, location);
  const fleet = new PostgresFleetRuns(ready, schema, location);
  const work = new PostgresWorkLog(ready, schema, location);
  const liveLeases = async () => {
    const self = currentProcess();
    const now = new Date();
    const leases = await records.leases();
    return {
      all: leases,
      live: leases.filter((lease) => !ownerGone(lease, self, now, DEFAULT_LEASE_TIMING)),
    };
  };
  return {
    location,
    steps: () => records.list(),
    followSteps: () => {
      const followed = new FollowedRecords(records);
      return () => followed.list();
    },
    holders: async () => new Map((await liveLeases()).live.map((lease) => [lease.step, holderOf(lease)])),
    files,
    fleetRuns: () => fleet.list(),
    messages: (run) => records.messages.list(run),
    forget: async ({ steps, fleetRun }) => {
      const names = steps.map((record) => record.step);
      const concerned = fleetRunsConcerned(steps, fleetRun);
      // Read first so the person hears about the fleet run before a lease its worker holds; checked again locked.
      const runs = (await fleet.list()).filter((run) => concerned.has(run.run));
      refuseOpenRuns(runs, concerned, currentProcess(), new Date());
      const { all, live } = await liveLeases();
      const held = live.find((lease) => names.includes(lease.step));
      if (held) throw new LeaseHeldError(held.step, holderOf(held));
      const seen = all.filter((lease) => names.includes(lease.step));
      // A run's checkpoints go with the last of its steps (or with its fleet row).
      const everyStep = await records.list();
      const runsGone = [
        ...new Set(
          [
            ...steps.map((record) => record.run ?? record.step),
            ...(fleetRun !== undefined ? [fleetRun] : []),
          ].filter(
            (run) =>
              run === fleetRun ||
              everyStep
                .filter((record) => (record.run ?? record.step) === run)
                .every((record) => names.includes(record.step)),
          ),
        ),
      ];
      return forgetInTransaction(
        await ready(),
        { records, files, sessions, fleet, work },
        { location, schema: spec.schema },
        { steps: names, seen, concerned, runsGone, ...(fleetRun !== undefined ? { fleetRun } : {}) },
        [...new Set(steps.flatMap(stepSessionIds))],
      );
    },
    close: async () => {
      await sessions.close();
      await pool.end();
    },
  };
}

/**
 * The deletes of `forget`, all or nothing. The fleet rows concerned are locked first and checked again
 * (an approve between the read and now cannot slip a run back into the queue under the delete). The
 * leases judged dead are locked next and must be the same rows still (same tokens, no new one): a
 * driver that took a step in between keeps it, and a driver presumed dead loses its lease with the
 * record, so its next fenced write fails.
 */
async function forgetInTransaction(
  pool: pg.Pool,
  tables: {
    records: PostgresRunRecords;
    files: PostgresWorkspaceFiles;
    sessions: PostgresSessionStore;
    fleet: PostgresFleetRuns;
    work: PostgresWorkLog;
  },
  { location, schema }: { location: string; schema: string },
  target: {
    steps: string[];
    seen: readonly LeaseRow[];
    concerned: ReadonlyMap<string, string | null>;
    runsGone: readonly string[];
    fleetRun?: string;
  },
  sessionIds: string[],
): Promise<ForgottenInStore> {
  const { steps, seen, concerned, fleetRun } = target;
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const runs = await tables.fleet.lock(client, [...concerned.keys()]);
    refuseOpenRuns(runs, concerned, currentProcess(), new Date());
    const locked = await tables.records.lockLeases(client, steps);
    const changed = locked.find(
      (row) => !seen.some((lease) => lease.step === row.step && lease.token === row.token),
    );
    if (changed)
      throw new StoreError(
        `Cannot forget "${changed.step}" in ${location}: a driver took its lease meanwhile; nothing was deleted (see ${typed("runs")})`,
      );
    const sessions = await tables.sessions.deleteSessions(client, sessionIds);
    const files = await tables.files.deleteOfSteps(client, steps);
    const records = await tables.records.deleteSteps(client, steps);
    const work = await tables.work.deleteOfRuns(client, target.runsGone);
    let fleetRuns = 0;
    if (fleetRun !== undefined) {
      fleetRuns = await tables.fleet.deleteRuns(client, [fleetRun]);
      await deleteEndedJobs(client, schema, fleetRun);
    }
    await client.query("COMMIT");
    return { sessions, files, records, fleetRuns, work };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    if (error instanceof StoreError || error instanceof FleetRunOpenError) throw error;
    throw new StoreError(`Cannot forget in ${location}: ${reason(error)}`, { cause: error });
  } finally {
    client.release();
  }
}

/** A step's status across machines: "running" only while a live holder has its lease. */
export function statusInStore(
  record: StepRecord,
  holder: LeaseHolder | undefined,
): StepRecord["status"] | "interrupted" | "paused" {
  if (atDriftPause(record)) return "paused";
  return record.status === "running" && holder === undefined ? "interrupted" : record.status;
}

/**
 * The fleet runs a forget touches, each with how it was reached: the run named (null), or a step of it
 * named on its own (that step). A --direct run's step is named like its run and is the run.
 */
function fleetRunsConcerned(
  steps: readonly StepRecord[],
  fleetRun: string | undefined,
): Map<string, string | null> {
  const concerned = new Map<string, string | null>();
  for (const step of steps) {
    const run = step.run ?? step.step;
    concerned.set(run, run === step.step ? null : step.step);
  }
  if (fleetRun !== undefined) concerned.set(fleetRun, null);
  return concerned;
}

/**
 * A fleet run that can still move is not forgotten, nor is any step of it: forget deletes what is over
 * and stops nothing, as it refuses a step a live driver holds. A queued run would still be delivered to
 * a worker that then finds nothing, a paused one waits for a person's approve, a running one's worker
 * is writing it: the person cancels it (`flower cancel`, which a running run obeys at its next message
 * boundary) and forgets it once it is cancelled. The status is the one `flower runs` shows: a running
 * run whose worker is gone is queued again, for the next worker to take back.
 */
function refuseOpenRuns(
  runs: readonly FleetRun[],
  concerned: ReadonlyMap<string, string | null>,
  self: ProcessIdentity,
  now: Date,
): void {
  for (const run of runs) {
    if (!concerned.has(run.run) || FINISHED.includes(run.status)) continue;
    const holder = run.holder;
    const where =
      holder && !ownerGone(holderAsLease(run.run, holder), self, now, DEFAULT_LEASE_TIMING)
        ? `pid ${holder.pid}@${holder.host}`
        : null;
    const state =
      run.status === "paused"
        ? `is paused in the fleet, waiting for ${typed(`approve ${shellQuote(run.run)} --store …`)}`
        : run.status !== "running"
          ? "is queued in the fleet"
          : where !== null
            ? `is running in the fleet on ${where}`
            : "is queued in the fleet again (its worker is gone)";
    const next = !(run.cancelRequested && run.status === "running")
      ? `cancel it first (${typed(`cancel ${shellQuote(run.run)} --store …`)}), then forget it`
      : where !== null
        ? `a cancel was asked, and it stops at its next message boundary; forget it once ${typed("runs --store …")} shows it cancelled`
        : `a cancel was asked, and the next ${typed("worker --store …")} ends it cancelled; forget it then`;
    const step = concerned.get(run.run);
    const subject = step ? `Step "${step}" belongs to run "${run.run}", which` : `Run "${run.run}"`;
    throw new FleetRunOpenError(run.run, `${subject} ${state}: ${next}; nothing was deleted`);
  }
}
