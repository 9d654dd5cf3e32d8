/**
 * Who a process is, well enough to tell later whether it is still alive: its pid, the host, and (on
 * Linux) its start time in clock ticks since boot. A pid alone is not enough: pids are reused, and a
 * lease held by a dead driver whose pid now belongs to an unrelated process would never be taken over.
 */
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { processStartTicks } from "../process/start-ticks.js";

export { processStartTicks };

export interface ProcessIdentity {
  pid: number;
  host: string;
  /** Start time from /proc/<pid>/stat (field 22); null where /proc is not available. */
  startTicks: number | null;
  /**
   * Which kernel and pid namespace the pid belongs to (`<boot id>/<pid namespace>`), where /proc tells.
   * A shared store (Postgres) sees leases from many machines, and hostnames repeat (two CI runners both
   * called "runner", containers on one node): a pid is only probed when the machine matches too.
   */
  machine?: string;
}

export function currentProcess(): ProcessIdentity {
  const machine = machineIdentity();
  return {
    pid: process.pid,
    host: hostname(),
    startTicks: processStartTicks(process.pid),
    ...(machine === null ? {} : { machine }),
  };
}

/** `<boot id>/<pid namespace>`; null where /proc does not tell (then the hostname alone decides). */
export function machineIdentity(): string | null {
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const namespace = readlinkSync("/proc/self/ns/pid");
    return `${boot}/${namespace}`;
  } catch {
    return null;
  }
}

/** Whether a pid recorded by `owner` can be probed from `self`: same host, and the same machine where both know it. */
export function sameMachine(
  owner: { host: string; machine?: string | undefined },
  self: ProcessIdentity,
): boolean {
  if (owner.host !== self.host) return false;
  return owner.machine === undefined || self.machine === undefined || owner.machine === self.machine;
}

/** True when `pid` exists (signal 0 probes without sending anything; EPERM means it exists). */
export function pidExists(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** True when the process `identity` names is still running on this host (same pid and same start time). */
export function isAlive(identity: { pid: number; startTicks: number | null }): boolean {
  if (!pidExists(identity.pid)) return false;
  if (identity.startTicks === null) return true;
  const now = processStartTicks(identity.pid);
  // A zombie or an unreadable /proc entry: trust the pid probe.
  return now === null || now === identity.startTicks;
}
