/**
 * A shared store seen from outside a run, for `flower runs --store`: every step any machine recorded,
 * and who holds each running one. Reads only; creates no run directory (the schema is brought up to
 * date like on any first use, so an empty store reads as empty).
 */
import pg from "pg";
import type { LeaseHolder } from "../errors.js";
import { StoreError } from "../errors.js";
import { DEFAULT_LEASE_TIMING, holderOf, ownerGone } from "../records/lease.js";
import { PostgresRunRecords } from "../records/postgres-records.js";
import { currentProcess } from "../records/process-identity.js";
import type { StepRecord } from "../records/step-record.js";
import { quoteIdentifier } from "../store/postgres/migrate.js";
import { PostgresSessionStore } from "../store/postgres/postgres-store.js";
import type { StoreSpec } from "../store/store-spec.js";

export interface StoreView {
  location: string;
  /** Every step, oldest update first. */
  steps(): Promise<StepRecord[]>;
  /** Who drives each running step now (a lease whose owner is gone is left out). */
  holders(): Promise<Map<string, LeaseHolder>>;
  close(): Promise<void>;
}

export function openStoreView(spec: Extract<StoreSpec, { kind: "postgres" }>): StoreView {
  const location = `${spec.shown} (schema ${spec.schema})`;
  const pool = new pg.Pool({ connectionString: spec.url, max: 1, connectionTimeoutMillis: 10_000 });
  pool.on("error", () => undefined);
  const sessions = new PostgresSessionStore({ pool, schema: spec.schema });
  const ready = async () => {
    try {
      await sessions.ready();
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause ?? error;
      const message =
        cause instanceof AggregateError
          ? cause.errors.map((inner) => (inner as Error).message).join("; ")
          : (cause as Error).message;
      throw new StoreError(`Cannot use the store ${location}: ${message}`, { cause: error });
    }
    return pool;
  };
  const records = new PostgresRunRecords(ready, quoteIdentifier(spec.schema), location);
  return {
    location,
    steps: () => records.list(),
    holders: async () => {
      const self = currentProcess();
      const now = new Date();
      const leases = await records.leases();
      return new Map(
        leases
          .filter((lease) => !ownerGone(lease, self, now, DEFAULT_LEASE_TIMING))
          .map((lease) => [lease.step, holderOf(lease)]),
      );
    },
    close: async () => {
      await sessions.close();
      await pool.end();
    },
  };
}

/** A step's status across machines: "running" only while a live holder has its lease. */
export function statusInStore(
  record: StepRecord,
  holder: LeaseHolder | undefined,
): StepRecord["status"] | "interrupted" {
  return record.status === "running" && holder === undefined ? "interrupted" : record.status;
}
