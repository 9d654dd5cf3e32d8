/**
 * One live driver per step. `run` and `continue` take a lease on the step in the run store (owner pid,
 * host, start time, heartbeat); a second driver gets `LeaseHeldError` naming the holder. A lease whose
 * owner is gone — its pid is not alive on this host, or its heartbeat is older than `staleAfterMs` — is
 * taken over, but only once everything its owner started on this machine is gone too: its `claude`
 * children, and every process carrying its tag (the Bash commands and hooks the binary starts in
 * sessions of their own, goal checks, setup; process/driver-tag.ts). A child that outlived its driver
 * would otherwise keep sending requests for a session that the new driver resumes (two processes driving
 * one session), and a command that outlived it would keep writing files the new driver has already
 * named to the model as they are (a slow loop's lines landed after the model rewrote the file).
 */
import { readFileSync } from "node:fs";
import { DEFAULTS } from "../defaults.js";
import type { LeaseHolder } from "../errors.js";
import { driverTag, ownDriverTag } from "../process/driver-tag.js";
import { endTagged } from "../process/tagged-processes.js";
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
 * Kills what is left of a gone owner on this host and waits up to `waitMs` for it to disappear: its
 * `claude` children's process groups, and every process carrying the owner's tag (its reaper, which
 * does the same when the owner dies, may have been killed with it). Returns the pids still alive.
 * Processes on another host cannot be seen from here; there the owner's reaper ends them.
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
  // Never our own tag: a lease of this very process that looks stale must not end its live children.
  const tag = driverTag(row);
  const tagged = tag !== null && tag !== ownDriverTag() ? await endTagged(tag, waitMs) : [];
  while (alive().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return [...alive(), ...tagged];
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
