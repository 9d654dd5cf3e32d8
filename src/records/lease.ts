/**
 * One live driver per step. `run` and `continue` take a lease on the step in the run store (owner pid,
 * host, start time, heartbeat); a second driver gets `LeaseHeldError` naming the holder. A lease whose
 * owner is gone — its pid is not alive on this host, or its heartbeat is older than `staleAfterMs` — is
 * taken over, but only once the `claude` children its owner started are gone too: a child that outlived
 * its driver would otherwise keep sending requests for a session that the new driver resumes, and two
 * processes would drive one session (seen in practice before children died with their driver).
 */
import { readFileSync } from "node:fs";
import { DEFAULTS } from "../defaults.js";
import type { LeaseHolder } from "../errors.js";
import { isAlive, pidExists, sameMachine, type ProcessIdentity } from "./process-identity.js";

export interface LeaseRow {
  step: string;
  /** A random token per acquisition: the holder proves it is still the holder with it. */
  token: string;
  pid: number;
  host: string;
  startTicks: number | null;
  startedAt: string;
  heartbeatAt: string;
  /** Pids of the `claude` children this holder started (each leads its own process group). */
  children: number[];
  /** The holder's machine (see ProcessIdentity.machine); kept by the shared store, absent in records.db. */
  machine?: string;
}

export interface LeaseTiming {
  /** How often a holder refreshes its heartbeat. @default 5000 */
  heartbeatMs: number;
  /** A lease whose heartbeat is older than this is presumed dead. @default 30000 */
  staleAfterMs: number;
}

export const DEFAULT_LEASE_TIMING: LeaseTiming = DEFAULTS.leaseTiming;

export function holderOf(row: LeaseRow): LeaseHolder {
  return { pid: row.pid, host: row.host, startedAt: row.startedAt, heartbeatAt: row.heartbeatAt };
}

/** Whether the lease's owner is gone, seen from `self` at `now`. */
export function ownerGone(row: LeaseRow, self: ProcessIdentity, now: Date, timing: LeaseTiming): boolean {
  if (sameMachine(row, self) && !isAlive({ pid: row.pid, startTicks: row.startTicks })) return true;
  return now.getTime() - Date.parse(row.heartbeatAt) > timing.staleAfterMs;
}

/**
 * Kills what is left of a dead owner's `claude` children on this host (each leads its own process group,
 * so its tool processes go too) and waits up to `waitMs` for them to disappear. Returns the pids still
 * alive; children on another host cannot be seen from here (they die with their driver, see
 * agents/spawn-claude.ts).
 */
export async function killLeftoverChildren(
  row: LeaseRow,
  self: ProcessIdentity,
  waitMs = 2_000,
): Promise<number[]> {
  if (!sameMachine(row, self)) return [];
  const alive = () => row.children.filter((pid) => pidExists(pid) && !isZombieOf(pid));
  for (const pid of alive()) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone between the probe and the kill.
      }
    }
  }
  const deadline = Date.now() + waitMs;
  while (alive().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return alive();
}

/** A child that died but was not reaped yet (its parent is this very process, still holding it). */
function isZombieOf(pid: number): boolean {
  try {
    // Field 3 of /proc/<pid>/stat is the state; Z = zombie.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false;
  }
}
