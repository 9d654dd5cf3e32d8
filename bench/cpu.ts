/**
 * CPU time, not wall time: what a comparison on a shared machine can hold still. The CPU of this process
 * (every thread) and of every process it started: the ones that ended (their time is added to this
 * process's children's time when they are reaped) and the ones still running, with theirs (flower's
 * long-lived git shell, a `claude` child mid-step). Linux only (/proc); elsewhere NaN, and the figures
 * that need it say so.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICK_MS = 10;

/** The four times of /proc/<pid>/stat after the command's name: utime, stime, cutime, cstime (ticks). */
function times(pid: number | "self"): [number, number, number, number] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return [Number(fields[11]), Number(fields[12]), Number(fields[13]), Number(fields[14])];
  } catch {
    return null;
  }
}

/** The pids of this process's running children (of every thread). */
export function livingChildren(): number[] {
  const pids: number[] = [];
  try {
    for (const task of readdirSync("/proc/self/task")) {
      const text = readFileSync(`/proc/self/task/${task}/children`, "utf8").trim();
      for (const pid of text === "" ? [] : text.split(/\s+/)) pids.push(Number(pid));
    }
  } catch {
    // not Linux
  }
  return pids;
}

/** This process's CPU and its children's, living and ended, in ms; NaN where /proc is missing. */
export function cpuMs(): number {
  const own = times("self");
  if (own === null) return Number.NaN;
  const usage = process.cpuUsage();
  let children = (own[2] + own[3]) * TICK_MS;
  for (const pid of livingChildren()) {
    const child = times(pid);
    if (child !== null) children += (child[0] + child[1] + child[2] + child[3]) * TICK_MS;
  }
  return (usage.user + usage.system) / 1000 + children;
}

/** The CPU of this process's children that ended and were reaped (ms): a `spawnSync`'s child's, after it. */
export function reapedChildrenMs(): number {
  const own = times("self");
  return own === null ? Number.NaN : (own[2] + own[3]) * TICK_MS;
}

/** A process's CPU (itself and its reaped children) in ms, and the bytes it read (rchar), by pid. */
export function processUse(pid: number): { cpuMs: number; readBytes: number } {
  const own = times(pid);
  let readBytes = Number.NaN;
  try {
    readBytes = Number(/^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? Number.NaN);
  } catch {
    // not Linux
  }
  return { cpuMs: own === null ? Number.NaN : (own[0] + own[1] + own[2] + own[3]) * TICK_MS, readBytes };
}

/** Waits (up to `ms`) until this process has no running child but those in `keep`. */
export async function childrenGone(keep: readonly number[] = [], ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until && livingChildren().some((pid) => !keep.includes(pid)))
    await new Promise((resolve) => setTimeout(resolve, 20));
}
