import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COORDINATOR_RULES } from "../../src/public/hooks.js";
import { coordinator, subagent } from "../../src/index.js";
import { fault, script, text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { claudeChildren } from "../support/claude-children.js";
import { fixtureEnv, rig, type Rig } from "./runtime-helpers.js";

let current: Rig | undefined;

const analyst = subagent(
  "Analyses files: counts, searches, compares.",
  "Use the command line; never estimate by hand.",
  {
    tools: ["Bash", "Read"],
  },
);
const lead = () =>
  coordinator("lead", "Goal: report two facts about the workspace.", { analyst }, { glance: false });

/** Coordinator sends two tasks, one after the other; the subagent runs one Bash each and reports. */
function delegatingPolicy(request: ModelRequest) {
  if (request.isSubagent) {
    const task = request.firstUserText().includes("TASK-A") ? "A" : "B";
    if (request.countToolResults("Bash") === 0)
      return toolUse("Bash", { command: `echo worker-did-${task}` });
    return text(`Report ${task}: ${request.lastToolResult()?.text.trim()}`);
  }
  const done = request.countToolResults("Agent");
  if (done < 2) {
    const task = done === 0 ? "TASK-A" : "TASK-B";
    return toolUse("Agent", {
      description: `do ${task}`,
      prompt: `${task}: run the check.`,
      subagent_type: "analyst",
    });
  }
  return text("Both tasks done.");
}

describe("Runtime through the real binary", () => {
  it("a coordinator delegates two tasks to a subagent; the preset prompt gets the rules appended", async () => {
    current = await rig({ policy: delegatingPolicy });
    const rt = current.runtime();
    const result = await rt.run("survey", lead(), "Survey the workspace.");

    expect(result.result).toBe("Both tasks done.");
    expect(result.attempts).toBe(0);
    expect(result.generations).toBe(1);
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const main = current.model.exchanges.filter((e) => e.kind === "main");
    const subagents = current.model.exchanges.filter((e) => e.kind === "subagent");
    expect(main.length).toBe(3);
    expect(subagents.length).toBe(4);
    const system = main[0]!.request.systemText;
    // Appended, not replaced: the Claude Code preset is still there, followed by our rules and goal.
    expect(system).toContain("You are Claude Code");
    expect(system.indexOf("You are Claude Code")).toBeLessThan(
      system.indexOf(COORDINATOR_RULES.en.slice(0, 60)),
    );
    expect(system).toContain("Goal: report two facts about the workspace.");
    // The session offers the coordinator's tools plus its subagents' (the CLI's tool list is session-wide;
    // TodoWrite only because flower's child environment turns the todo tools on). Hands-off is the
    // delegate guard's job.
    expect(main[0]!.request.toolNames).toEqual(
      expect.arrayContaining(["Agent", "TodoWrite", "Read", "Bash"]),
    );
    expect(main[0]!.request.toolNames).not.toContain("Write");
    // The Agent tool lists the coordinator's own subagents only: the CLI's built-in agent types
    // (general-purpose, Explore, Plan, ...) would cost ~370 tokens a request and carry no subagent rules.
    expect(main[0]!.request.allText()).toContain("- analyst:");
    expect(main[0]!.request.allText()).not.toContain("- general-purpose:");
    // Subagents inherit the coordinator's model: no downgrade.
    expect(new Set(subagents.map((e) => e.request.model))).toEqual(new Set([main[0]!.request.model]));
    // The subagent really ran its command.
    expect(main[2]!.request.toolResults().map((r) => r.text)).toEqual([
      expect.stringContaining("Report A: worker-did-A"),
      expect.stringContaining("Report B: worker-did-B"),
    ]);
    // The requests served: the coordinator's three and its subagents' four (booked as they come).
    expect(result.numTurns).toBe(main.length + subagents.length);
    expect(result.costUsd).toBeGreaterThan(0);
    expect(
      current.events
        .filter((e) => e.type === "agent" && e.phase === "start")
        .map((e) => e.type === "agent" && e.agent),
    ).toEqual(["analyst", "analyst"]);
    const manifest = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8"));
    expect(manifest.steps.survey.status).toBe("done");
    expect(manifest.steps.survey.sessionId).toBe(result.sessionId);
    current.model.assertNoErrors();

    // Running the same step name again starts afresh and keeps the earlier record.
    const again = await rt.run("survey", lead(), "Survey the workspace.");
    const record = rt.records.get("survey")!;
    expect(record.sessionId).toBe(again.sessionId);
    expect(record.earlierRuns?.map((r) => r.sessionId)).toEqual([result.sessionId]);
    expect(record.earlierRuns?.[0]?.costUsd).toBe(result.costUsd);
  });

  it("retries a step whose first attempt dies on 500s; attempts, cost and turns add up", async () => {
    const policy = script([
      // The first attempt: the request and CLAUDE_CODE_MAX_RETRIES (2) retries of the CLI's own, all refused.
      fault("server-error"),
      fault("server-error"),
      fault("server-error"),
      // The runtime's second attempt.
      text("second attempt worked"),
    ]);
    current = await rig({ policy });
    const rt = current.runtime();
    const result = await rt.run("flaky", lead(), "Do it.");
    policy.assertComplete();
    expect(result.result).toBe("second attempt worked");
    expect(result.attempts).toBe(1);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/500|Internal server error/);
    // 1 + CLAUDE_CODE_MAX_RETRIES (2) requests were refused before the runtime retried.
    expect(current.model.exchanges.filter((e) => e.status === 500)).toHaveLength(3);
    const manifest = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8"));
    const record = manifest.steps.flaky;
    expect(record.failures).toHaveLength(1);
    expect(record.failures[0].reason).toMatch(/500|Internal server error/);
    expect(record.costUsd).toBeCloseTo(result.costUsd, 10);
    expect(record.numTurns).toBe(result.numTurns);
    expect(current.events.filter((e) => e.type === "retry")).toHaveLength(1);
  });

  // Giving up after maxAttempts with a StepFailedError that says why: fault-matrix.e2e.test.ts's endless
  // 529 storm asserts it (the message, the failed record, its attempts) on its one run.

  it("continues a step in a second process, resuming the session with its history", async () => {
    current = await rig({
      policy: (request) => {
        if (request.lastUserText().includes("second process")) return text("B saw the history");
        if (request.countToolResults("Bash") === 0 && request.lastUserText().includes("first process")) {
          return toolUse("Bash", { command: "echo FROM-PROCESS-A" });
        }
        return text("A finished");
      },
    });
    const child = (mode: string) =>
      new Promise<string>((resolve, reject) => {
        const proc = spawn(
          process.execPath,
          [join(import.meta.dirname, "fixtures", "continuity-child.mjs"), mode],
          {
            env: fixtureEnv(current!),
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        let out = "";
        let err = "";
        proc.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
        proc.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
        proc.on("exit", (code) =>
          code === 0 ? resolve(out) : reject(new Error(`child ${mode} exited ${code}: ${err}`)),
        );
      });
    const a = JSON.parse(await child("run")) as { sessionId: string };
    const requestsOfA = current.model.requests.length;
    const b = JSON.parse(await child("continue")) as { sessionId: string; result: string };
    expect(b.result).toBe("B saw the history");
    const firstOfB = current.model.requests[requestsOfA]!;
    expect(firstOfB.allText()).toContain("FROM-PROCESS-A");
    expect(firstOfB.allText()).toContain("first process");
    expect(firstOfB.sessionId).toBe(b.sessionId);
    const manifest = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8"));
    expect(Object.keys(manifest.steps)).toEqual(["carry-on"]);
    expect(manifest.steps["carry-on"].sessionId).toBe(b.sessionId);
    expect(a.sessionId).toBeTruthy();
  });

  it("retries after the claude process is killed mid-step", async () => {
    const policy = script([
      () => {
        // A crash, not an error result: SIGKILL every claude child of this test process.
        for (const pid of claudeChildren()) process.kill(pid, "SIGKILL");
        return text("never delivered", { delayMs: 500 });
      },
      // The runtime's second attempt, in a new claude process.
      (request) => text(`recovered on request ${request.index}`),
    ]);
    current = await rig({ policy });
    const result = await current.runtime().run("crash", lead(), "Do it.");
    policy.assertComplete();
    expect(result.result).toMatch(/^recovered on request \d+$/);
    expect(result.attempts).toBe(1);
    expect(result.errors).toEqual(["Claude Code process terminated by signal SIGKILL"]);
    expect(current.events.filter((e) => e.type === "retry")).toHaveLength(1);
  });
});
