/**
 * Finding and ending every process that carries a driver's tag (driver-tag.ts): the reaper does it when
 * its driver dies, and a successor does it before it takes a dead driver's lease (records/lease.ts).
 *
 * A process's environment as it was exec'd is in /proc/<pid>/environ, readable for the processes of
 * one's own user; a zombie's and a kernel thread's read as empty (or fail), so they never match, and a
 * zombie runs nothing anyway. One sweep reads every readable environ once, about 40 µs a process (5 ms
 * with 125 processes, 42 ms with 1,000, measured on a busy 2-core machine); it runs only when a driver
 * is gone and before a takeover, never while a step runs.
 */
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { DRIVER_TAG_VARIABLE } from "./driver-tag.js";

const POLL_MS = 25;

/**
 * Whether the NUL-separated environment `environ` holds exactly `entry` (`NAME=value`): not a longer
 * value that starts with it (pid 12's tag is not pid 123's), nor another variable's value that ends with it.
 */
export function environHolds(environ: Buffer, entry: Buffer): boolean {
  for (let at = environ.indexOf(entry); at !== -1; at = environ.indexOf(entry, at + 1)) {
    const starts = at === 0 || environ[at - 1] === 0;
    const end = at + entry.length;
    if (starts && (end === environ.length || environ[end] === 0)) return true;
  }
  return false;
}

/** The pids of the processes whose environment carries `tag`, this process left out; none without /proc. */
export function taggedProcesses(tag: string): number[] {
  const entry = Buffer.from(`${DRIVER_TAG_VARIABLE}=${tag}`);
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${name}/environ`);
    } catch {
      continue; // gone while we looked, a kernel thread, or another user's process
    }
    if (environHolds(environ, entry)) found.push(pid);
  }
  return found;
}

/**
 * SIGKILLs every process tagged `tag`, and again whatever a dying one forked meanwhile, until a sweep
 * finds none or `waitMs` has passed. Returns the pids still there (empty: nothing of that driver runs).
 */
export async function endTagged(tag: string, waitMs: number): Promise<number[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const left = taggedProcesses(tag);
    if (left.length === 0 || Date.now() >= deadline) return left;
    for (const pid of left) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone between the sweep and the kill (or not ours to kill: the next sweep still finds it).
      }
    }
    await sleep(POLL_MS);
  }
}
