/**
 * Ending a check's whole process tree. A check runs as the leader of its own process group, so a test
 * runner's workers, a dev server started with `&`, or `sleep` under a shell all share one group id and
 * die with one signal. Without this a timed-out `npm test` leaves its workers running, and they hold
 * the output pipe open, so the runner would wait on them as well.
 *
 * "Gone" ignores zombies: in a container whose PID 1 does not reap, an orphaned grandchild that has
 * exited stays a zombie in its group forever and `kill(-group, 0)` keeps succeeding. A zombie runs
 * nothing, so on Linux the group's members are read from /proc and zombies are not counted.
 */
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

const POLL_MS = 25;
/** After SIGKILL the kernel ends a process at once; this only bounds the wait for that to show. */
const AFTER_KILL_WAIT_MS = 1_000;

/** Whether any process in the group is still running (zombies do not count). */
export function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
  } catch (error) {
    // EPERM: a member exists that we may not signal; treat as alive, the SIGKILL attempt will tell.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return process.platform === "linux" ? hasRunningMember(groupId) : true;
}

function hasRunningMember(groupId: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // it ended while we looked
    }
    // "pid (comm) state ppid pgrp ..." — comm may contain spaces and parentheses, so cut at the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const state = fields[0];
    const group = Number(fields[2]);
    if (group === groupId && state !== "Z" && state !== "X") return true;
  }
  return false;
}

function signalGroup(groupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-groupId, signal);
  } catch {
    // ESRCH: already gone between the check and the signal.
  }
}

async function waitUntilGone(groupId: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!groupAlive(groupId)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(Math.min(POLL_MS, Math.max(1, deadline - Date.now())));
  }
}

/**
 * SIGTERM to the group, SIGKILL to whatever is left after `graceMs`. Resolves with the last signal
 * sent (null when nothing was running) once no member runs any more, or after a bounded wait when a
 * member cannot be killed (a process we may not signal).
 */
export async function terminateGroup(groupId: number, graceMs: number): Promise<NodeJS.Signals | null> {
  if (!groupAlive(groupId)) return null;
  signalGroup(groupId, "SIGTERM");
  if (await waitUntilGone(groupId, graceMs)) return "SIGTERM";
  signalGroup(groupId, "SIGKILL");
  await waitUntilGone(groupId, AFTER_KILL_WAIT_MS);
  return "SIGKILL";
}
