/**
 * A shared store seen from outside a run, for `flower runs --store`: every step any machine recorded,
 * and who holds each running one. Reads only; creates no run directory (the schema is brought up to
 * date like on any first use, so an empty store reads as empty).
 */
import type { LeaseHolder } from "../errors.js";
import { DEFAULT_LEASE_TIMING, holderOf, ownerGone } from "../records/lease.js";
import { PostgresRunRecords } from "../records/postgres-records.js";
import { currentProcess } from "../records/process-identity.js";
import type { StepRecord } from "../records/step-record.js";
import { quoteIdentifier } from "../store/postgres/migrate.js";
import type { StoreSpec } from "../store/store-spec.js";
import { connectPostgres } from "./backing-store.js";

export interface StoreView {
  location: string;
  /** Every step, oldest update first. */
  steps(): Promise<StepRecord[]>;
  /** Who drives each running step now (a lease whose owner is gone is left out). */
  holders(): Promise<Map<string, LeaseHolder>>;
  close(): Promise<void>;
}

export function openStoreView(spec: Extract<StoreSpec, { kind: "postgres" }>): StoreView {
  const { location, pool, sessions, ready } = connectPostgres(spec, 1);
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
