/**
 * SIGKILL of the driving process at six points of a step: no `claude` child of the dead process, nor
 * anything carrying its tag, is left, and once they are gone the model has had no request after the
 * kill; `continue` in a new process completes the step; and the record's generations add up
 * (generations = 1 + handoffs, one session each).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { StepRecord } from "../../src/public/stores.js";
import { pidExists } from "../../src/records/process-identity.js";
import { text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { carrying, tagOfDriver, untilNone } from "../support/run-processes.js";
import { fixtureEnv, rig, type Rig } from "./runtime-helpers.js";

type KillPoint =
  "main-streaming" | "bash-running" | "in-worker" | "writing-handoff" | "successor-start" | "after-append";

const HANDOFF = [
  "## Doing",
  "GEN-1: reading the files; several read, the worker checked the tree.",
  "## Decided",
  "- Read in numeric order, because later files refer to earlier ones.",
  "## Dead ends",
  "- none so far",
  "## Next",
  "- Finish: say it is finished.",
  "## Scene",
  "- `big-0.txt`",
].join("\n");

function writeBigFiles(workspace: string): void {
  for (let f = 0; f < 6; f++) {
    const lines = Array.from(
      { length: 400 },
      (_, n) => `FILE-${f}-LINE-${n} ${"lorem ipsum dolor sit amet ".repeat(3)}`,
    );
    writeFileSync(join(workspace, `big-${f}.txt`), lines.join("\n"));
  }
}

/**
 * The scripted model: Bash, then a subagent, then reads until the handoff; the successor finishes. The
 * Bash command sleeps only where the kill lands while it runs (`slowBash`); elsewhere it would only wait.
 */
function reply(request: ModelRequest, slowBash: boolean) {
  if (request.isHandoffTurn) return text(HANDOFF);
  if (request.isSubagent) {
    return request.countToolResults("Bash") === 0
      ? toolUse("Bash", { command: "echo worker-did-it" })
      : text("Ran `echo worker-did-it`: printed worker-did-it.");
  }
  if (request.firstUserText().includes("GEN-1")) return text("finished in generation 2");
  const done = request.countToolResults();
  if (done === 0) return toolUse("Bash", { command: slowBash ? "sleep 3; echo slept" : "echo slept" });
  if (done === 1)
    return toolUse("Agent", { subagent_type: "helper", description: "check", prompt: "Run echo." });
  return toolUse("Read", { file_path: `big-${(done - 2) % 6}.txt` });
}

function isTrigger(point: KillPoint, request: ModelRequest): boolean {
  switch (point) {
    case "main-streaming":
      return request.isMainThread && !request.isHandoffTurn && request.countToolResults() === 0;
    case "bash-running":
      return false; // killed by a timer while the tool runs
    case "in-worker":
      return request.isSubagent;
    case "writing-handoff":
      return request.isHandoffTurn;
    case "successor-start":
      return request.isMainThread && request.firstUserText().includes("GEN-1");
    case "after-append":
      return request.isMainThread && !request.isHandoffTurn && request.countToolResults() === 3;
  }
}

/** `claude` processes whose parent is `pid`. */
function claudeChildrenOf(pid: number): number[] {
  return execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid, ...args]) => Number(ppid) === pid && args.some((arg) => arg.endsWith("/claude")))
    .map(([child]) => Number(child));
}

let current: Rig | undefined;
let drivers: ChildProcess[] = [];
afterEach(async () => {
  for (const driver of drivers) if (driver.exitCode === null) driver.kill("SIGKILL");
  drivers = [];
});

function startDriver(mode: "run" | "continue"): {
  child: ChildProcess;
  done: Promise<{ code: number | null; out: string; err: string }>;
} {
  const child = spawn(process.execPath, [join(import.meta.dirname, "fixtures", "crash-driver.mjs"), mode], {
    env: fixtureEnv(current!),
    stdio: ["ignore", "pipe", "pipe"],
  });
  drivers.push(child);
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, out, err })),
  );
  return { child, done };
}

const POINTS: KillPoint[] = [
  "main-streaming",
  "bash-running",
  "in-worker",
  "writing-handoff",
  "successor-start",
  "after-append",
];

describe("a driver killed with SIGKILL", () => {
  for (const point of POINTS) {
    it(`at ${point}: leaves no claude child, no further request, and continues to a record that adds up`, async () => {
      let killedAt: number | null = null;
      const running: { driver?: ChildProcess } = {};
      let orphans: number[] = [];
      let tag: string | null = null;
      const kill = () => {
        const driver = running.driver;
        if (killedAt !== null || !driver?.pid) return;
        orphans = claudeChildrenOf(driver.pid);
        tag = tagOfDriver(driver.pid);
        driver.kill("SIGKILL");
        killedAt = current!.model.requests.length;
      };
      current = await rig({
        policy: (request) => {
          if (killedAt === null && isTrigger(point, request)) {
            kill();
            return text("never delivered", { delayMs: 3_000 });
          }
          const answer = reply(request, point === "bash-running" && killedAt === null);
          if (
            killedAt === null &&
            point === "bash-running" &&
            request.isMainThread &&
            request.countToolResults() === 0
          )
            setTimeout(kill, 1_000);
          return answer;
        },
      });
      writeBigFiles(current.workspace);

      const first = startDriver("run");
      running.driver = first.child;
      const exit = await first.done;
      expect(exit.code, `the driver was expected to be killed; it exited: ${exit.err}`).toBeNull();
      expect(killedAt).not.toBeNull();
      expect(orphans.length).toBeGreaterThan(0);

      // The dead driver's claude children go, and everything that carries its tag (a bound for a hung
      // machine, not a measure of speed: the kernel kills the children at once).
      const left = await untilNone(
        () => [...orphans.filter(pidExists).map((pid) => ({ pid, command: "claude" })), ...carrying(tag!)],
        10_000,
      );
      expect(left).toEqual([]);
      // Only they could ask the model anything: with them gone, no request came after the kill.
      expect(current.model.requests.length).toBe(killedAt);

      const second = startDriver("continue");
      const resumed = await second.done;
      expect(resumed.code, resumed.err).toBe(0);
      expect(JSON.parse(resumed.out)).toMatchObject({ result: "finished in generation 2" });

      const record = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8")).steps
        .crash as StepRecord;
      const story = JSON.stringify({ errors: record.errors, history: record.history }, null, 1);
      expect(record.status, story).toBe("done");
      expect(record.generations, story).toBe(record.history.length);
      // Usually 2; a handoff that degraded on the way (its successor starts over) makes it 3.
      expect(record.generations, story).toBeGreaterThanOrEqual(2);
      expect(record.history.filter((g) => g.handoff !== null)).toHaveLength(record.generations - 1);
      expect(record.history.every((g) => typeof g.sessionId === "string")).toBe(true);
      expect(record.retired).toEqual(record.history.slice(0, -1).map((g) => g.sessionId));
      expect(record.sessionId).toBe(record.history.at(-1)!.sessionId);
      expect(record.handoffs.every((path) => existsSync(path))).toBe(true);
      current.model.assertNoErrors();
    }, 360_000);
  }
});
