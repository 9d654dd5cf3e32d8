/**
 * Saying something to a run (`flower say`, `Runtime.say`, the live page): finds the run a name means
 * (a step's run, or a run id), decides from its records, leases and fleet row whether anyone will read
 * the message, and leaves it in the run's channel (records/person-messages.ts). Its driver gives it to
 * the main thread at the next message boundary (message-inbox.ts, session-run.ts); a run that is paused,
 * stopped or queued keeps it for its next session. A run that has ended is refused: nobody would read it.
 */
import { randomUUID } from "node:crypto";
import { hostname, userInfo } from "node:os";
import { ConfigurationError, type LeaseHolder } from "../../errors.js";
import type { FleetStatus } from "../../records/fleet-run.js";
import { DEFAULT_LEASE_TIMING, holderOf, ownerGone } from "../../records/lease.js";
import type { PersonMessage, SayTarget } from "../../records/person-messages.js";
import { currentProcess } from "../../records/process-identity.js";
import type { RunRecords } from "../../records/run-records.js";
import type { StepRecord } from "../../records/step-record.js";

/** How a run ended, when a message is refused. */
export type RunEnded = "done" | "failed" | "goal-not-met" | "cancelled";

/** Where the run stands when a message is kept for it. */
export type RunWaits =
  /** A driver is running one of its steps now: the message reaches it at its next boundary. */
  | "driven"
  /** Stopped (Ctrl-C, a signal, the drift watch), or cut off with its driver: the next `continue` gets it. */
  | "stopped"
  /** Paused for a person between two steps (after the requirements; a fleet run waiting for approval). */
  | "paused"
  /** Stopped at its budget: a continue with a higher one gets it. */
  | "budget-reached"
  /** Submitted to a fleet, no worker has it yet. */
  | "queued";

export type Said =
  | {
      kind: "said";
      message: PersonMessage;
      run: string;
      /** The step a live driver drives now (its record name), or null when none does. */
      step: string | null;
      /** That driver, or null. */
      holder: LeaseHolder | null;
      waits: RunWaits;
      /** A fleet run (its row decides where it stands: a paused one waits for `approve`). */
      fleet: boolean;
    }
  | { kind: "ended"; run: string; status: RunEnded }
  | { kind: "unknown"; known: string[] };

export interface SayOptions {
  /** Who says it. @default `<user>@<host>` of this process */
  by?: string | undefined;
}

/** Leaves `text` for the run `name` means (a run id, or any of its steps' names). */
export async function sayToRun(
  target: SayTarget,
  name: string,
  text: string,
  options: SayOptions = {},
): Promise<Said> {
  if (typeof text !== "string" || text.trim() === "")
    throw new ConfigurationError("text", text, "what to tell the run: text that is not empty");
  const steps = await target.steps();
  const named = steps.find((record) => record.step === name);
  const run = named ? (named.run ?? named.step) : name;
  const records = steps.filter((record) => (record.run ?? record.step) === run);
  const fleet = await target.fleetStatus?.(run);
  if (records.length === 0 && fleet === undefined)
    return { kind: "unknown", known: [...new Set(steps.map((record) => record.run ?? record.step))] };

  const self = currentProcess();
  const now = new Date();
  const live = (await target.leases()).find(
    (lease) =>
      records.some((record) => record.step === lease.step) &&
      !ownerGone(lease, self, now, DEFAULT_LEASE_TIMING),
  );
  const state = live ? ("driven" as const) : stateOf(records, fleet);
  if (isEnded(state)) return { kind: "ended", run, status: state };
  const message: PersonMessage = {
    id: randomUUID(),
    run,
    text: text.trim(),
    by: options.by ?? `${userName()}@${hostname()}`,
    at: now.toISOString(),
  };
  await target.messages.put(message);
  return {
    kind: "said",
    message,
    run,
    step: live?.step ?? null,
    holder: live ? holderOf(live) : null,
    waits: state,
    fleet: fleet !== undefined,
  };
}

function isEnded(state: RunWaits | RunEnded): state is RunEnded {
  return state === "done" || state === "failed" || state === "goal-not-met" || state === "cancelled";
}

/**
 * A run nobody drives now, from its fleet row (the fleet decides a fleet run's fate) or its steps' records:
 * the first step not done decides; with every step done, a last step that froze a document (the
 * requirements, the goal) has steps after it, and the run waits for them.
 */
function stateOf(records: readonly StepRecord[], fleet: FleetStatus | undefined): RunWaits | RunEnded {
  if (fleet !== undefined && fleet !== "running") return fleet;
  const ordered = [...records].sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const open = ordered.find((record) => record.status !== "done");
  if (open !== undefined) {
    if (open.status === "failed" || open.status === "goal-not-met") return open.status;
    if (open.status === "budget-reached") return "budget-reached";
    // Stopped (a drift pause too), or "running" with no live driver: its driver was cut off.
    return "stopped";
  }
  const last = ordered.at(-1);
  if (last?.workflow?.document !== undefined) return "paused";
  // A fleet run a worker has but not started a step of yet: it is about to be driven.
  if (last === undefined) return "queued";
  return "done";
}

/** The person saying it, as the record names them. */
function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? "someone";
  }
}

/** A runtime's records as a target: a shared store's records are pulled first (a run may be on another machine). */
export function recordsSayTarget(records: RunRecords): SayTarget {
  const messages = records.messages;
  if (messages === undefined) throw new Error(`${records.location} has no channel for messages`);
  return {
    steps: async () => {
      await records.pull?.();
      return records.list();
    },
    leases: async () => records.leases(),
    messages,
  };
}
