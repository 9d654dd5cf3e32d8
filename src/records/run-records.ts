/**
 * Where step records and leases live: the interface the runtime writes through. The SQLite
 * implementation (storage/sqlite/sqlite-run-records.ts) is the default and answers synchronously. The shared store
 * (storage/shared-run-records.ts over PostgreSQL) cannot: its lease operations return promises, which StepLease
 * awaits, and its records are written through (see storage/shared-run-records.ts for why `get`/`put` stay synchronous).
 */
import type { HandoffRequests } from "./handoff-requests.js";
import type { LeaseRow } from "./lease.js";
import type { PersonMessages } from "./person-messages.js";
import type { ProcessIdentity } from "./process-identity.js";
import type { StepRecord } from "./step-record.js";

export interface AcquireOptions {
  /** The acquiring process. */
  self: ProcessIdentity;
  now: Date;
}

export interface RunRecords {
  /** Where a person finds the records (a path or a URL without its password), for messages. */
  readonly location: string;
  get(step: string): StepRecord | undefined;
  /** Every step, oldest update first. */
  list(): StepRecord[];
  /**
   * What every record spent on a UTC day (`YYYY-MM-DD`; run-spend.ts daySpent over them all), and a run's
   * spent figure (runSpent): sums the store keeps beside each record, written in the record's own
   * transaction, so neither reads the records.
   */
  daySpent(day: string): number;
  runSpent(run: string): number;
  /**
   * Writes one step's record in a transaction. With `lease`, the write happens only while that lease
   * still holds the step; otherwise `LeaseLostError` is thrown and nothing is written.
   */
  put(record: StepRecord, options?: { lease?: string }): void;
  /**
   * Takes the step's lease: returns the new lease, or the current row when another live owner holds it
   * (the caller decides to wait or to fail). A dead owner's lease is returned with `takeover: true`:
   * the caller must make sure its children are gone and then call `takeOver`.
   */
  acquire(step: string, options: AcquireOptions & { token: string }): AcquireResult | Promise<AcquireResult>;
  /** Replaces a dead owner's lease (identified by its token) with ours, atomically. */
  takeOver(
    step: string,
    deadToken: string,
    options: AcquireOptions & { token: string },
  ): boolean | Promise<boolean>;
  /** Refreshes the heartbeat and the list of children; false when the lease is no longer ours. */
  heartbeat(step: string, token: string, now: Date, children?: number[]): boolean | Promise<boolean>;
  release(step: string, token: string): void | Promise<void>;
  /** Current leases, for `flower runs`. */
  leases(): LeaseRow[] | Promise<LeaseRow[]>;
  /** Removes a step's record (and its lease) entirely. */
  delete(step: string): boolean;
  close(): void;
  /**
   * A shared store only: brings the step's record (all records without `step`) from the store into the
   * local copy that `get`/`list` read. The runtime calls it before it reads a step it may not have seen.
   * `lease`: the caller holds the step's lease with this token (a record driven on this machine under
   * another lease keeps its local copy, which is ahead of the store's).
   */
  pull?(step?: string, options?: { lease?: string }): Promise<void>;
  /**
   * A shared store only: resolves once every `put` so far (of `step`, or of every step) reached the
   * store; rejects with why one did not.
   */
  flush?(step?: string): Promise<void>;
  /** `flower handoff`'s channel to a step's live driver (handoff-requests.ts); absent: nobody can ask. */
  readonly requests?: HandoffRequests;
  /** `flower say`'s channel to a run (person-messages.ts); absent: nobody can say anything. */
  readonly messages?: PersonMessages;
}

export type AcquireResult =
  | { kind: "acquired"; lease: LeaseRow }
  | { kind: "held"; lease: LeaseRow }
  | { kind: "dead-owner"; lease: LeaseRow };
