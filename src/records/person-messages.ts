/**
 * The channel of `flower say`: a person's message to a run, kept until the run's driver has given it to
 * the main thread of a session as a user message (runtime/person/message-inbox.ts).
 *
 * Why a channel of its own, like `flower handoff`'s requests (handoff-requests.ts), and not a write to
 * the step record: the record has one writer, the driver's ledger, fenced by its lease. Unlike a handoff
 * request a message is addressed to the run, not to a lease: one to a run that is paused, stopped or
 * still queued waits here for the next session, whichever machine and whichever of the run's steps
 * drives it. A row leaves only when the transcript the session resumes holds the message (its id is the
 * user message's uuid: the transcript names it), so a driver killed between taking a message and the
 * transcript getting it leaves the row, and the next driver gives it again only if the transcript does
 * not have it: never lost, never twice.
 */
import type { FleetStatus } from "./fleet-run.js";
import type { LeaseRow } from "./lease.js";
import type { StepRecord } from "./step-record.js";

export interface PersonMessage {
  /** Random per message (a UUID): the SDK user message's `uuid`, so the transcript names it. */
  id: string;
  /** The run it is for: a workflow run's id, or the name of a step run on its own. */
  run: string;
  /** What the person said, as they said it. */
  text: string;
  /** Who said it: `user@host`. */
  by: string;
  /** When, ISO 8601. */
  at: string;
}

/** A run's messages in the order they were said; a row stays until the transcript holds it. */
export interface PersonMessages {
  put(message: PersonMessage): void | Promise<void>;
  /** The run's messages not taken yet, oldest first. */
  list(run: string): PersonMessage[] | Promise<PersonMessage[]>;
  /** The transcript holds it: the row goes (by id: a newer message stays). */
  take(run: string, id: string): void | Promise<void>;
}

export interface MessageColumns {
  id: string;
  run: string;
  text: string;
  by_whom: string;
  at: string;
}

export function toMessage(row: MessageColumns): PersonMessage {
  return { id: row.id, run: row.run, text: row.text, by: row.by_whom, at: row.at };
}

/** What `flower say` needs of a store: the steps (the run's state), their leases, the channel. */
export interface SayTarget {
  steps(): Promise<StepRecord[]>;
  leases(): Promise<LeaseRow[]>;
  messages: PersonMessages;
  /** A shared store's fleet: the run's status there, or undefined when it is not a fleet run (or no fleet). */
  fleetStatus?(run: string): Promise<FleetStatus | undefined>;
}

/** The runs a step's forget takes its messages with: a step run on its own, or the run of a workflow step. */
export function runsOfStep(step: string): string[] {
  const slash = step.indexOf("/");
  return slash === -1 ? [step] : [step, step.slice(0, slash)];
}
