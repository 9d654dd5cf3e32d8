/**
 * The request channel of `flower handoff`: a person (in another terminal, or on another machine that
 * names the same store) asks the live driver of a step to hand off at its next message boundary.
 *
 * Why a channel of its own and not a write to the step record: the record has one writer, the driver's
 * ledger, and every write it makes is fenced by its lease. A second writer would either be refused by the
 * fence or overwrite the driver's next save. So `flower handoff` leaves one row per step, addressed to
 * the lease it saw live (its token), and the driver reads it at its message boundaries and deletes it
 * when it acts on it; the ledger records who asked, when and with which words. A row addressed to a
 * lease that is gone (the driver ended between the check and the write) is never acted on by a later
 * driver: its token is not theirs.
 */
import type { LeaseRow } from "./lease.js";
import type { StepRecord } from "./step-record.js";
export interface HandoffRequest {
  /** Random per request: the driver deletes exactly the row it acted on, not a newer one. */
  id: string;
  step: string;
  /** The token of the lease the request was addressed to (the live driver when it was made). */
  lease: string;
  /** What the next generation should do, in the person's words; null for a plain handoff. */
  next: string | null;
  /** Who asked: `user@host`. */
  by: string;
  /** When, ISO 8601. */
  at: string;
}

/** One row per step: a newer request replaces an older one the driver has not acted on yet. */
export interface HandoffRequests {
  put(request: HandoffRequest): void | Promise<void>;
  /** The step's request addressed to `lease`, or null. */
  get(step: string, lease: string): HandoffRequest | null | Promise<HandoffRequest | null>;
  /** Deletes the request the driver acted on (by its id: a newer one stays). */
  take(step: string, id: string): void | Promise<void>;
}

export interface RequestColumns {
  id: string;
  step: string;
  lease: string;
  next: string | null;
  by_whom: string;
  at: string;
}

export function toRequest(row: RequestColumns): HandoffRequest {
  return { id: row.id, step: row.step, lease: row.lease, next: row.next, by: row.by_whom, at: row.at };
}

/** What a handoff request needs of a store: the step, its lease, the channel. */
export interface RequestTarget {
  step(name: string): Promise<StepRecord | undefined>;
  steps(): Promise<StepRecord[]>;
  lease(name: string): Promise<LeaseRow | undefined>;
  requests: HandoffRequests;
}
