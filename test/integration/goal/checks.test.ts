import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { allPassed, runChecks, type CheckResult } from "../../../src/goal/checks.js";
import { ConfigurationError } from "../../../src/errors.js";

let workspace: string;
let logDir: string;

beforeEach(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "goal-checks-"));
  logDir = path.join(workspace, ".flower", "artifacts");
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** Running = exists and is not a zombie (this container's PID 1 does not reap orphans). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const state = execFileSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" }).trim();
    return state !== "" && !state.startsWith("Z");
  } catch {
    return false; // ps exits 1 when the pid is gone
  }
}

/** Whether the workspace holds `file`. */
async function exists(file: string): Promise<boolean> {
  return stat(path.join(workspace, file)).then(
    () => true,
    () => false,
  );
}

async function readPid(file: string): Promise<number> {
  const pid = Number((await readFile(path.join(workspace, file), "utf8")).trim());
  expect(pid).toBeGreaterThan(1);
  return pid;
}

describe("runChecks: outcomes", () => {
  it("passes on exit 0, fails on another code, and writes one log per check", async () => {
    await writeFile(path.join(workspace, "app.ts"), "const x = 1;\n");
    const results = await runChecks(
      [
        { command: "echo hello; echo warn >&2", description: "greets" },
        { command: "echo about to fail; exit 3" },
        { command: "grep -c TODO app.ts", expect: { exitCode: 1, pattern: "^0$" } },
      ],
      { workspace, logDir },
    );
    expect(results.map((result) => result.passed)).toEqual([true, false, true]);
    expect(allPassed(results)).toBe(false);
    const [first, second] = results as [CheckResult, CheckResult];
    expect(first).toMatchObject({
      index: 1,
      exitCode: 0,
      signal: null,
      timedOut: false,
      notFound: false,
      reason: null,
      description: "greets",
      logPath: path.join(logDir, "goal-check-1.log"),
    });
    expect(first.tail).toBe("hello\nwarn");
    expect(second).toMatchObject({ exitCode: 3, reason: "exit code 3, expected 0", tail: "about to fail" });
    const log = await readFile(second.logPath, "utf8");
    expect(log).toContain("# command: echo about to fail; exit 3");
    expect(log).toContain("about to fail\n");
    expect(log).toMatch(/# end: exit 3 after \d+ ms; failed: exit code 3, expected 0\n$/);
    // Atomic writes leave no temp files behind.
    expect((await readdir(logDir)).sort()).toEqual([
      "goal-check-1.log",
      "goal-check-2.log",
      "goal-check-3.log",
    ]);
  });

  it("fails a pattern that the output does not match, and says so", async () => {
    const [result] = await runChecks([{ command: "echo 3", expect: { pattern: "^0$" } }], {
      workspace,
      logDir,
    });
    expect(result).toMatchObject({ passed: false, exitCode: 0, reason: "output does not match /^0$/" });
  });

  it("lets a pattern alone decide when no exit code is stated, but never passes a missing command", async () => {
    await writeFile(path.join(workspace, "clean.ts"), "export {};\n");
    const results = await runChecks(
      [
        { command: "grep -c TODO clean.ts", expect: { pattern: "^0$" } },
        { command: "grep -c TODO clean.ts", expect: { pattern: "^0$", exitCode: 0 } },
        { command: "flower-no-such-command-xyz", expect: { pattern: "not found" } },
      ],
      { workspace, logDir },
    );
    expect(results.map((result) => [result.passed, result.exitCode, result.expectedExitCode])).toEqual([
      [true, 1, null],
      [false, 1, 0],
      [false, 127, null],
    ]);
    expect(results[2]!.reason).toBe("command not found: flower-no-such-command-xyz (exit 127)");
    expect(await readFile(results[0]!.logPath, "utf8")).toContain("# expect: output matches /^0$/m\n");
  });

  it("runs in the workspace with the environment it is given", async () => {
    const [result] = await runChecks(
      [{ command: 'pwd; echo "$GOAL_MARK"', expect: { pattern: "^marked$" } }],
      {
        workspace,
        logDir,
        env: { PATH: process.env.PATH, GOAL_MARK: "marked" },
      },
    );
    expect(result!.passed).toBe(true);
    expect(result!.tail.split("\n")[0]).toBe(
      await import("node:fs").then((fs) => fs.realpathSync(workspace)),
    );
  });

  it("reports a command that does not exist as not found (exit 127)", async () => {
    const [result] = await runChecks([{ command: "flower-no-such-command-xyz --version" }], {
      workspace,
      logDir,
    });
    expect(result).toMatchObject({ passed: false, exitCode: 127, notFound: true });
    expect(result!.reason).toBe("command not found: flower-no-such-command-xyz (exit 127)");
  });

  it("keeps only the last lines in the tail, without colour codes, and caps its length", async () => {
    const [result] = await runChecks(
      [
        {
          command:
            "i=1; while [ $i -le 50 ]; do printf '\\033[31mline %s\\033[0m\\n' $i; i=$((i+1)); done; exit 1",
        },
      ],
      { workspace, logDir },
    );
    const lines = result!.tail.split("\n");
    expect(lines).toHaveLength(20);
    expect(lines[0]).toBe("line 31");
    expect(lines[19]).toBe("line 50");
    const [wide] = await runChecks([{ command: "yes abcdefghij | head -n 2000 | tr -d '\\n'; exit 1" }], {
      workspace,
      logDir,
    });
    expect(wide!.tail.length).toBeLessThanOrEqual(2000);
    expect(wide!.tail.startsWith("…")).toBe(true);
  });

  it("bounds a 5 MB output in memory and in the log, and says where it cut", async () => {
    const [result] = await runChecks(
      [{ command: "head -c 5000000 /dev/zero | tr '\\0' 'x'; echo; echo LAST LINE; exit 2" }],
      { workspace, logDir },
    );
    expect(result).toMatchObject({ passed: false, exitCode: 2 });
    expect(result!.outputBytes).toBe(5_000_000 + 1 + 10);
    expect(result!.tail.endsWith("LAST LINE")).toBe(true);
    expect(result!.tail.length).toBeLessThanOrEqual(2000);
    const { size } = await stat(result!.logPath);
    expect(size).toBeLessThan(800 * 1024);
    const log = await readFile(result!.logPath, "utf8");
    expect(log).toMatch(/# \[flower: \d+ bytes of output omitted here; 5000011 bytes in all\]/);
    expect(log).toContain("LAST LINE\n# end: exit 2");
  });
});

describe("runChecks: one log per run", () => {
  it("writes each run's log to its own file, so an earlier round's evidence stays", async () => {
    const checks = [{ command: "cat status.txt" }, { command: "true" }];
    await writeFile(path.join(workspace, "status.txt"), "broken\n");
    const first = await runChecks(checks, { workspace, logDir, run: 1 });
    await writeFile(path.join(workspace, "status.txt"), "fixed\n");
    const second = await runChecks(checks, { workspace, logDir, run: 2 });
    expect(first.map((result) => path.basename(result.logPath))).toEqual([
      "goal-check-1.run-1.log",
      "goal-check-2.run-1.log",
    ]);
    expect(path.basename(second[0]!.logPath)).toBe("goal-check-1.run-2.log");
    expect(await readFile(first[0]!.logPath, "utf8")).toContain("\nbroken\n");
    expect(await readFile(second[0]!.logPath, "utf8")).toContain("\nfixed\n");
    expect((await readdir(logDir)).sort()).toEqual([
      "goal-check-1.run-1.log",
      "goal-check-1.run-2.log",
      "goal-check-2.run-1.log",
      "goal-check-2.run-2.log",
    ]);
  });

  it("keeps the logs of the last ten runs and leaves other files alone", async () => {
    await mkdir(logDir, { recursive: true });
    const kept = ["goal-check-1.log", "notes.md", "goal-check-1.run-3.log.tmp"];
    for (const name of kept) await writeFile(path.join(logDir, name), "x");
    for (let run = 1; run <= 12; run += 1)
      await runChecks([{ command: "true" }, { command: "false" }], { workspace, logDir, run });
    const names = await readdir(logDir);
    const runs = (index: number) =>
      names
        .map((name) => new RegExp(`^goal-check-${index}\\.run-(\\d+)\\.log$`).exec(name)?.[1])
        .filter((run) => run !== undefined)
        .map(Number)
        .sort((a, b) => a - b);
    expect(runs(1)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(runs(2)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    for (const name of kept) expect(names).toContain(name);
  });
});

describe("runChecks: timeouts, process groups, abort", () => {
  it("kills a hanging check at its timeout and counts it as failed", async () => {
    // Killed, not waited out: a check that ran to its end would have touched the file.
    const [result, next] = await runChecks(
      [{ command: "sleep 30; touch slept", timeoutMs: 300 }, { command: "echo still runs" }],
      { workspace, logDir },
    );
    expect(await exists("slept")).toBe(false);
    expect(result).toMatchObject({
      passed: false,
      timedOut: true,
      exitCode: null,
      signal: "SIGTERM",
      reason: "timed out after 0.3 s",
    });
    expect(next!.passed).toBe(true);
  });

  it("kills a grandchild with the check when it times out", async () => {
    const [result] = await runChecks(
      [{ command: "sh -c 'sleep 30 & echo $! > grandchild.pid; wait'", timeoutMs: 500 }],
      { workspace, logDir },
    );
    expect(result!.timedOut).toBe(true);
    expect(running(await readPid("grandchild.pid"))).toBe(false);
  });

  it("ends a background process a passing check left behind", async () => {
    // Ended, not waited for: had it run its course it would have touched the file.
    const [result] = await runChecks(
      [{ command: "(sleep 30; touch finished) & echo $! > left.pid; echo ok" }],
      { workspace, logDir },
    );
    expect(result!.passed).toBe(true);
    expect(running(await readPid("left.pid"))).toBe(false);
    expect(await exists("finished")).toBe(false);
  });

  it("SIGKILLs a group that ignores SIGTERM after the grace period", async () => {
    const [result] = await runChecks(
      [{ command: "trap '' TERM; sleep 30 & echo $! > stubborn.pid; wait", timeoutMs: 300 }],
      { workspace, logDir, killGraceMs: 200 },
    );
    expect(result).toMatchObject({ timedOut: true, signal: "SIGKILL", reason: "timed out after 0.3 s" });
    expect(running(await readPid("stubborn.pid"))).toBe(false);
  });

  it("on abort ends the running check, writes its log and rejects with the reason", async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const run = runChecks(
      [{ command: "sleep 30 & echo $! > aborted.pid; wait" }, { command: "echo never" }],
      {
        workspace,
        logDir,
        signal: controller.signal,
        onCheckStart: (index) => {
          seen.push(index);
          setTimeout(() => controller.abort(new Error("user stopped")), 300);
        },
      },
    );
    await expect(run).rejects.toThrow("user stopped");
    expect(seen).toEqual([1]);
    expect(running(await readPid("aborted.pid"))).toBe(false);
    expect(await readFile(path.join(logDir, "goal-check-1.log"), "utf8")).toContain("failed: aborted");
  });

  it("does not start when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      runChecks([{ command: "touch ran" }], { workspace, logDir, signal: controller.signal }),
    ).rejects.toThrow(/abort/i);
    await expect(stat(path.join(workspace, "ran"))).rejects.toThrow();
  });

  it("reports each result through onCheck as it ends", async () => {
    const reported: number[] = [];
    await runChecks([{ command: "true" }, { command: "false" }], {
      workspace,
      logDir,
      onCheck: (result) => reported.push(result.index),
    });
    expect(reported).toEqual([1, 2]);
  });
});

describe("runChecks: input validation", () => {
  const bad = async (checks: unknown, options: object, message: RegExp): Promise<void> => {
    const run = runChecks(checks as never, { workspace, logDir, ...options });
    await expect(run).rejects.toBeInstanceOf(ConfigurationError);
    await expect(run).rejects.toThrow(message);
  };

  it("names the bad value", async () => {
    await bad([], {}, /checks: got an array of 0.*at least one check/);
    await bad("npm test", {}, /checks: got "npm test"/);
    await bad([{ command: "  " }], {}, /checks\[0\]\.command: got " {2}"/);
    await bad([{ command: "true" }, { command: 5 }], {}, /checks\[1\]\.command: got 5/);
    await bad([{ command: "true", expect: { exitCode: 256 } }], {}, /checks\[0\]\.expect\.exitCode: got 256/);
    await bad([{ command: "true", expect: { pattern: "(" } }], {}, /checks\[0\]\.expect\.pattern: got "\("/);
    await bad([{ command: "true", timeoutMs: -1 }], {}, /checks\[0\]\.timeoutMs: got -1/);
    await bad([{ command: "true" }], { timeoutMs: 0 }, /timeoutMs: got 0/);
    await bad(
      [{ command: "true" }],
      { workspace: path.join(workspace, "missing") },
      /workspace: got ".*missing"/,
    );
    await bad([{ command: "true" }], { logDir: "" }, /logDir: got ""/);
    await bad([{ command: "true" }], { killGraceMs: Number.NaN }, /killGraceMs: got NaN/);
    await bad([{ command: "true" }], { run: 0 }, /run: got 0/);
    await bad([{ command: "true" }], { run: 1.5 }, /run: got 1\.5/);
  });
});
