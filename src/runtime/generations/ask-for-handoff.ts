/**
 * Asking a step's live driver to hand off (`flower handoff`, `Runtime.requestHandoff`): finds the step
 * and its lease, decides whether the driver is alive by the rules a takeover uses (a dead pid on this
 * machine, or a heartbeat gone stale on any), and leaves a request addressed to that lease
 * (records/handoff-requests.ts). The driver acts on it at its next message boundary (handoff-request-watch.ts).
 */
import { randomUUID } from "node:crypto";
import { hostname, userInfo } from "node:os";
import type { LeaseHolder } from "../../errors.js";
import type { HandoffRequest, RequestTarget } from "../../records/handoff-requests.js";
import { DEFAULT_LEASE_TIMING, holderOf, ownerGone } from "../../records/lease.js";
import { currentProcess } from "../../records/process-identity.js";
import type { RunRecords } from "../../records/run-records.js";
import type { StepRecord } from "../../records/step-record.js";

export type { RequestTarget };

export type HandoffAsked =
  /** The request waits for the driver's next message boundary. */
  | { kind: "asked"; holder: LeaseHolder; request: HandoffRequest }
  /** Nobody drives the step now (its status, when it has a record). */
  | { kind: "no-driver"; status: StepRecord["status"] | null }
  /** No such step; the steps there are. */
  | { kind: "unknown"; known: string[] };

export interface RequestHandoffOptions {
  /** What the next generation should do; put first in the handoff's `next`, marked as the person's. */
  next?: string | undefined;
  /** Who asks. @default `<user>@<host>` of this process */
  by?: string | undefined;
}

export async function requestHandoff(
  target: RequestTarget,
  step: string,
  options: RequestHandoffOptions = {},
): Promise<HandoffAsked> {
  const [record, lease] = [await target.step(step), await target.lease(step)];
  if (record === undefined && lease === undefined)
    return { kind: "unknown", known: (await target.steps()).map((other) => other.step) };
  if (lease === undefined || ownerGone(lease, currentProcess(), new Date(), DEFAULT_LEASE_TIMING))
    return { kind: "no-driver", status: record?.status ?? null };
  const next = options.next?.trim() ?? "";
  const request: HandoffRequest = {
    id: randomUUID(),
    step,
    lease: lease.token,
    next: next === "" ? null : next,
    by: options.by ?? `${userName()}@${hostname()}`,
    at: new Date().toISOString(),
  };
  await target.requests.put(request);
  return { kind: "asked", holder: holderOf(lease), request };
}

/** The person asking, as the driver's terminal and the record name them. */
function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? "someone";
  }
}

/** A runtime's records as a target: a shared store's record is pulled first (it may run on another machine). */
export function recordsTarget(records: RunRecords): RequestTarget {
  if (records.requests === undefined) throw new Error(`${records.location} has no handoff request channel`);
  return {
    step: async (name) => {
      await records.pull?.(name);
      return records.get(name);
    },
    steps: async () => {
      await records.pull?.();
      return records.list();
    },
    lease: async (name) => (await records.leases()).find((row) => row.step === name),
    requests: records.requests,
  };
}
