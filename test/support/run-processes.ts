/**
 * What a person checks after killing a run: which processes are still at work in its folder (`ps` and
 * their working directories), and which still carry the killed driver's tag (src/process/driver-tag.ts).
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { sep } from "node:path";
import { driverTag } from "../../src/process/driver-tag.js";
import { processStartTicks } from "../../src/process/start-ticks.js";
import { taggedProcesses } from "../../src/process/tagged-processes.js";

export interface RunProcess {
  pid: number;
  /** Its command line, arguments joined by spaces. */
  command: string;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "?";
  }
}

/** Running processes (zombies have no working directory) whose working directory is `dir` or below it. */
export function processesIn(dir: string): RunProcess[] {
  const found: RunProcess[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let cwd: string;
    try {
      cwd = readlinkSync(`/proc/${name}/cwd`);
    } catch {
      continue;
    }
    if (cwd === dir || cwd.startsWith(dir + sep))
      found.push({ pid: Number(name), command: commandOf(Number(name)) });
  }
  return found;
}

/** The tag the processes a live driver `pid` starts carry (read before it is killed). */
export function tagOfDriver(pid: number): string {
  const tag = driverTag({ pid, startTicks: processStartTicks(pid) });
  if (tag === null) throw new Error(`no start time for pid ${pid}: is it running, and is there a /proc?`);
  return tag;
}

/** Running processes carrying `tag`. */
export function carrying(tag: string): RunProcess[] {
  return taggedProcesses(tag).map((pid) => ({ pid, command: commandOf(pid) }));
}

/** Polls until `list()` is empty or `ms` passed; returns what was left (empty: none). */
export async function untilNone(list: () => RunProcess[], ms: number): Promise<RunProcess[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = list();
    if (left.length === 0 || Date.now() >= deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
