/**
 * A shared store seen from outside a run, for `flower runs|show|report|forget --store`: every step any
 * machine recorded, who holds each running one, the files the steps saved there, and the one write,
 * `forget`. Creates no run directory (the schema is brought up to date like on any first use, so an
 * empty store reads as empty).
 */
import type pg from "pg";
import { LeaseHeldError, StoreError, type LeaseHolder } from "../errors.js";
import { DEFAULT_LEASE_TIMING, holderOf, ownerGone, type LeaseRow } from "../records/lease.js";
import { PostgresRunRecords } from "./postgres/run-records.js";
import { currentProcess } from "../records/process-identity.js";
import type { StepRecord } from "../records/step-record.js";
import { quoteIdentifier } from "./postgres/migrate.js";
import type { PostgresSessionStore } from "./postgres/session-store.js";
import { PostgresWorkspaceFiles } from "./postgres/workspace-files.js";
import type { StoreSpec } from "./store-spec.js";
import type { WorkspaceFiles } from "../store/workspace-files.js";
import { connectPostgres, reason } from "./backing-store.js";
import { stepSessionIds } from "./retention.js";

export interface StoreView {
  location: string;
  /** Every step, oldest update first. */
  steps(): Promise<StepRecord[]>;
  /** Who drives each running step now (a lease whose owner is gone is left out). */
  holders(): Promise<Map<string, LeaseHolder>>;
  /** The files steps saved (frozen documents, handoffs, spill files), by their path under `.flower/`. */
  files: Pick<WorkspaceFiles, "get" | "list">;
  /**
   * Deletes the steps' sessions (every generation and the reviewer's), the files they saved, their
   * leases and their records, in one transaction. Refuses with LeaseHeldError, deleting nothing, while a
   * live driver holds one of them.
   */
  forget(steps: readonly StepRecord[]): Promise<ForgottenInStore>;
  close(): Promise<void>;
}

export interface ForgottenInStore {
  sessions: number;
  files: number;
  records: number;
}

/** Connections: the reads go one after another; forget holds one for its transaction and reads on another. */
const VIEW_CONNECTIONS = 2;

export function openStoreView(spec: Extract<StoreSpec, { kind: "postgres" }>): StoreView {
  const { location, pool, sessions, ready } = connectPostgres(spec, VIEW_CONNECTIONS);
  const schema = quoteIdentifier(spec.schema);
  const records = new PostgresRunRecords(ready, schema, location);
  const files = new PostgresWorkspaceFiles(ready, schema, location);
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
    holders: async () => new Map((await liveLeases()).live.map((lease) => [lease.step, holderOf(lease)])),
    files,
    forget: async (steps) => {
      const names = steps.map((record) => record.step);
      const { all, live } = await liveLeases();
      const held = live.find((lease) => names.includes(lease.step));
      if (held) throw new LeaseHeldError(held.step, holderOf(held));
      const seen = all.filter((lease) => names.includes(lease.step));
      return forgetInTransaction(await ready(), { records, files, sessions }, location, names, seen, [
        ...new Set(steps.flatMap(stepSessionIds)),
      ]);
    },
    close: async () => {
      await sessions.close();
      await pool.end();
    },
  };
}

/**
 * The deletes of `forget`, all or nothing. The leases judged dead are locked first and must be the
 * same rows still (same tokens, no new one): a driver that took a step in between keeps it, and a
 * driver presumed dead loses its lease with the record, so its next fenced write fails.
 */
async function forgetInTransaction(
  pool: pg.Pool,
  tables: { records: PostgresRunRecords; files: PostgresWorkspaceFiles; sessions: PostgresSessionStore },
  location: string,
  steps: string[],
  seen: readonly LeaseRow[],
  sessionIds: string[],
): Promise<ForgottenInStore> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const locked = await tables.records.lockLeases(client, steps);
    const changed = locked.find(
      (row) => !seen.some((lease) => lease.step === row.step && lease.token === row.token),
    );
    if (changed)
      throw new StoreError(
        `Cannot forget "${changed.step}" in ${location}: a driver took its lease meanwhile; nothing was deleted (see flower runs)`,
      );
    const sessions = await tables.sessions.deleteSessions(client, sessionIds);
    const files = await tables.files.deleteOfSteps(client, steps);
    const records = await tables.records.deleteSteps(client, steps);
    await client.query("COMMIT");
    return { sessions, files, records };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    if (error instanceof StoreError) throw error;
    throw new StoreError(`Cannot forget in ${location}: ${reason(error)}`, { cause: error });
  } finally {
    client.release();
  }
}

/** A step's status across machines: "running" only while a live holder has its lease. */
export function statusInStore(
  record: StepRecord,
  holder: LeaseHolder | undefined,
): StepRecord["status"] | "interrupted" {
  return record.status === "running" && holder === undefined ? "interrupted" : record.status;
}
