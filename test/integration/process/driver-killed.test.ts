/**
 * Nothing a driver starts outlives it, besides the `claude` child's commands (e2e cli/kill-orphans):
 * a goal check, a notifier command and a worktree's setup command, each a loop that keeps appending to
 * a file, all end when their driver is SIGKILLed, alone or with its whole process group, and no
 * reaper is left behind. The driver is a script over the built modules (build first).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { carrying, processesIn, tagOfDriver, untilNone } from "../../support/run-processes.js";

const DRIVER = resolve(import.meta.dirname, "fixtures", "busy-driver.mjs");
const LOOPS = ["check", "notify", "setup"];
/** A liveness bound for the loops to be gone, not a speed. */
const GONE_WITHIN_MS = 10_000;

const dirs: string[] = [];
const drivers: number[] = [];
afterEach(() => {
  // A test that failed before its kill leaves its driver (and, without a reaper, its loops) running.
  for (const pid of drivers.splice(0))
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Killed by the test, as it should be.
    }
  for (const dir of dirs.splice(0)) {
    for (const { pid } of processesIn(dir))
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone meanwhile.
      }
    rmSync(dir, { recursive: true, force: true });
  }
});

const lines = (dir: string, name: string) => {
  const file = join(dir, `${name}.txt`);
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0;
};

async function killDriver(target: "the driver alone" | "its process group"): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "flower-driver-killed-"));
  dirs.push(dir);
  const driver = spawn(process.execPath, [DRIVER, dir], { cwd: dir, stdio: "ignore", detached: true });
  drivers.push(driver.pid!);
  const deadline = Date.now() + 30_000;
  while (LOOPS.some((name) => lines(dir, name) < 2) && Date.now() < deadline && driver.exitCode === null)
    await new Promise((done) => setTimeout(done, 50));
  expect(LOOPS.map((name) => lines(dir, name) >= 2)).toEqual([true, true, true]);
  const tag = tagOfDriver(driver.pid!);

  process.kill(target === "its process group" ? -driver.pid! : driver.pid!, "SIGKILL");
  expect(await untilNone(() => processesIn(dir), GONE_WITHIN_MS)).toEqual([]);
  expect(carrying(tag)).toEqual([]);
  // Nothing appends any more: what the files hold now is what they hold a moment later.
  const now = LOOPS.map((name) => lines(dir, name));
  await new Promise((done) => setTimeout(done, 600));
  expect(LOOPS.map((name) => lines(dir, name))).toEqual(now);
  // The reaper did its work and went.
  expect(await untilNone(() => reapers(tag), GONE_WITHIN_MS)).toEqual([]);
}

/** The reaper of the driver tagged `tag` (its parent is gone, so it is found by the tag it sweeps). */
function reapers(tag: string): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let command: string;
    try {
      command = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ");
    } catch {
      continue;
    }
    if (command.includes("reaper-main.js") && command.split(" ").includes(tag))
      found.push({ pid: Number(name), command });
  }
  return found;
}

describe("a SIGKILLed driver's goal check, notifier and setup command end with it", () => {
  it("the driver alone", () => killDriver("the driver alone"), 60_000);
  it("its whole process group", () => killDriver("its process group"), 60_000);
});
