/**
 * The goal guard through the real binary and the offline kit (SPEC §8): flower runs the goal's checks
 * itself when the coordinator's session completes, sends it back with the evidence, ends goal-not-met
 * when the rounds run out, flags subagent claims without evidence, and asks a scripted reviewer in a fresh
 * read-only session. What the guard does with a reviewer's verdict (not met, unparseable) is the step
 * loop's rule: test/unit/runtime/goal-guard-step.test.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Several sessions and check runs each: generous on a loaded 2-core machine. */
const TIMEOUT = 150_000;
import { coordinator, subagent } from "../../src/index.js";
import { REVIEW_SIGNATURE } from "../../src/goal/index.js";
import type { GuardRoundEvent } from "../../src/runtime/events.js";
import { text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { rig, type Rig } from "./runtime-helpers.js";

let current: Rig | undefined;

const fixer = subagent("Changes files in the workspace.", "Make the change asked for, then report it.", {
  tools: ["Write", "Read", "Bash"],
});
const lead = () => coordinator("lead", "Goal: make the status file say fixed.", { fixer }, { glance: false });

const GUARD_MESSAGE = "[flower goal guard] Round";

/** How many guard messages this conversation holds (the coordinator's rounds so far). */
function roundsIn(request: ModelRequest): number {
  return request.messages.filter(
    (message) =>
      message.role === "user" &&
      (typeof message.content === "string"
        ? message.content.includes(GUARD_MESSAGE)
        : message.content.some(
            (block) => block.type === "text" && (block.text ?? "").includes(GUARD_MESSAGE),
          )),
  ).length;
}

/**
 * A coordinator that claims success until `fixInRound`, then sends the fixer, which writes the file.
 * `fixInRound` Infinity: it never fixes anything.
 */
function claimingPolicy(workspace: string, fixInRound: number) {
  return (request: ModelRequest) => {
    if (request.isSubagent) {
      if (request.countToolResults("Write") === 0)
        return toolUse("Write", { file_path: join(workspace, "status.txt"), content: "fixed\n" });
      return text("Wrote status.txt; `cat status.txt` prints fixed.");
    }
    if (roundsIn(request) >= fixInRound && request.countToolResults("Agent") === 0) {
      return toolUse("Agent", {
        description: "fix the status file",
        prompt: "Write 'fixed' into status.txt.",
        subagent_type: "fixer",
      });
    }
    return text("All done, the status file is fixed and the tests pass.");
  };
}

const statusCheck = { command: "grep -q fixed status.txt", description: "the status file says fixed" };
const mainExchanges = (rig: Rig) => rig.model.exchanges.filter((e) => e.kind === "main");

describe("goal guard through the real binary", () => {
  it(
    "sends a coordinator that claims success back with the evidence; it fixes the file and ends done after round 2",
    async () => {
      current = await rig({ policy: (request) => claimingPolicy(current!.workspace, 2)(request) });
      const rt = current.runtime({ workbench: true });
      const result = await rt.run("fix status", lead(), "Make status.txt say fixed.", {
        goal: { checks: [statusCheck, { command: "true" }] },
      });

      expect(result.status).toBe("done");
      expect(readFileSync(join(current.workspace, "status.txt"), "utf8")).toBe("fixed\n");
      const guard = result.guard!;
      expect(guard.rounds).toBe(2);
      expect(guard.outcome).toBe("passed");
      expect(guard.passedChecks).toEqual(["grep -q fixed status.txt", "true"]);
      expect(guard.checkRuns.map((run) => [run.round, run.passed])).toEqual([
        [0, false],
        [1, false],
        [2, true],
      ]);
      // One log per run: the first run's evidence is still there after the last run passed.
      const logs = join(current.workspace, ".flower", "artifacts");
      const logPath = join(logs, "goal-check-1.run-1.log");
      expect(guard.checkRuns[0]!.results[0]).toMatchObject({ exitCode: 2, passed: false, logPath });
      expect(guard.checkRuns[0]!.results[0]!.durationMs).toBeGreaterThanOrEqual(0);
      expect(readFileSync(logPath, "utf8")).toMatch(/No such file[\s\S]*# end: exit 2/);
      expect(guard.checkRuns[2]!.results[0]!.logPath).toBe(join(logs, "goal-check-1.run-3.log"));
      expect(readFileSync(join(logs, "goal-check-1.run-3.log"), "utf8")).toContain("# end: exit 0");

      // The guard message reached the model: the same session, with the command, exit code, log and last lines.
      const main = mainExchanges(current);
      const sentBack = main.find((e) => e.request.lastUserText().includes(`${GUARD_MESSAGE} 1 of 3`))!;
      const message = sentBack.request.lastUserText();
      expect(message).toContain("1 of 2 checks failed");
      expect(message).toContain("`grep -q fixed status.txt`");
      expect(message).toContain("exit 2 (expected 0)");
      expect(message).toContain(`log: ${logPath}`);
      expect(message).toContain("No such file");
      expect(new Set(main.map((e) => e.request.sessionId))).toEqual(new Set([result.sessionId]));
      const second = main.find((e) => e.request.lastUserText().includes(`${GUARD_MESSAGE} 2 of 3`))!;
      expect(second.request.lastUserText()).toContain(`log: ${join(logs, "goal-check-1.run-2.log")}`);
      expect(main.some((e) => e.request.lastUserText().includes(`${GUARD_MESSAGE} 3 of 3`))).toBe(false);

      const rounds = current.events.filter((e): e is GuardRoundEvent => e.type === "guard-round");
      expect(rounds.map((e) => [e.round, e.rounds, e.failing, e.total, e.cause])).toEqual([
        [1, 3, 1, 2, "checks"],
        [2, 3, 1, 2, "checks"],
      ]);
      expect(current.events.filter((e) => e.type === "goal-checks")).toHaveLength(3);
      const manifest = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8"));
      expect(manifest.steps["fix status"].status).toBe("done");
      expect(manifest.steps["fix status"].guard.rounds).toBe(2);
      current.model.assertNoErrors();
    },
    TIMEOUT,
  );

  it(
    "one that never fixes it ends goal-not-met after 3 rounds, with the evidence in the record and the logs on disk",
    async () => {
      current = await rig({ policy: (request) => claimingPolicy(current!.workspace, Infinity)(request) });
      const rt = current.runtime();
      const result = await rt.run("never", lead(), "Make status.txt say fixed.", {
        goal: { checks: [statusCheck] },
      });

      expect(result.status).toBe("goal-not-met");
      const guard = result.guard!;
      expect(guard.rounds).toBe(3);
      expect(guard.outcome).toBe("goal-not-met");
      expect(guard.checkRuns).toHaveLength(4);
      expect(guard.checkRuns.every((run) => !run.passed)).toBe(true);
      expect(guard.why).toContain("after 3 guard rounds a check still fails: grep -q fixed status.txt");
      expect(result.errors).toContain(guard.why);
      // Without a workbench the logs go to the run directory, one folder per step.
      const logPath = join(current.runDir, "goal-checks", "never", "goal-check-1.run-4.log");
      expect(guard.checkRuns[3]!.results[0]!.logPath).toBe(logPath);
      expect(readFileSync(logPath, "utf8")).toMatch(/No such file[\s\S]*# end: exit 2/);
      const last = mainExchanges(current).find((e) =>
        e.request.lastUserText().includes(`${GUARD_MESSAGE} 3 of 3`),
      )!;
      expect(last.request.lastUserText()).toContain("This is the last round");
      const end = current.events.find((e) => e.type === "step-end");
      expect(end).toMatchObject({ status: "goal-not-met", ok: false });
      expect(rt.records.get("never")!.status).toBe("goal-not-met");
      current.model.assertNoErrors();
    },
    TIMEOUT,
  );

  it(
    "a hanging check is killed at its timeout and a missing command fails clearly; neither hangs the run",
    async () => {
      current = await rig({ policy: () => text("All done.") });
      const rt = current.runtime();
      const result = await rt.run("hang", lead(), "Do it.", {
        goal: {
          checks: [
            // Killed at its timeout, not waited out: run to its end, it would touch the file.
            { command: "sleep 60; touch slept", timeoutMs: 1_000 },
            { command: "no-such-command-flower-test --version" },
          ],
          guardRounds: 1,
        },
      });
      expect(existsSync(join(current.workspace, "slept"))).toBe(false);
      expect(result.status).toBe("goal-not-met");
      const [hung, missing] = result.guard!.checkRuns[0]!.results;
      expect(hung).toMatchObject({
        passed: false,
        timedOut: true,
        exitCode: null,
        reason: "timed out after 1 s",
      });
      expect(missing).toMatchObject({ passed: false, notFound: true, exitCode: 127 });
      expect(missing!.reason).toContain("command not found: no-such-command-flower-test");
      const message = mainExchanges(current)[1]!.request.lastUserText();
      expect(message).toContain("timed out after 1 s");
      expect(message).toContain("command not found (exit 127)");
      expect(result.guard!.checkRuns).toHaveLength(2);
    },
    TIMEOUT,
  );

  it(
    "flags a worker's claim without evidence to the coordinator, and not a report that names its command",
    async () => {
      const reports = ["All done, everything works now.", "Ran `npm test`: 12 passed, 0 failed."];
      current = await rig({
        policy: (request) => {
          if (request.isSubagent)
            return text(request.firstUserText().includes("FIRST") ? reports[0]! : reports[1]!);
          const done = request.countToolResults("Agent");
          if (done < 2)
            return toolUse("Agent", {
              description: "work",
              prompt: done === 0 ? "FIRST task." : "SECOND task.",
              subagent_type: "fixer",
            });
          return text("Finished.");
        },
      });
      const rt = current.runtime();
      const result = await rt.run("claims", lead(), "Do two things.", {
        goal: { checks: [{ command: "true" }] },
      });

      expect(result.status).toBe("done");
      expect(result.guard!.claimsFlagged).toBe(1);
      expect(result.guard!.claims[0]).toMatchObject({ agent: "fixer", excerpt: reports[0] });
      const flagged = current.events.filter((e) => e.type === "claim-flagged");
      expect(flagged).toEqual([expect.objectContaining({ agent: "fixer", excerpt: reports[0] })]);
      const main = mainExchanges(current);
      const line = "claims success but names no command it ran and no file it wrote";
      // The line is in the coordinator's request right after the flagged report, and only once.
      expect(main[1]!.request.allText()).toContain(line);
      expect(main[2]!.request.allText().split(line)).toHaveLength(2);
      current.model.assertNoErrors();
    },
    TIMEOUT,
  );
});

describe("goal guard reviewer through the real binary", () => {
  const requirementsText =
    "# Requirements\n\n## Acceptance\n- status.txt says fixed\n- README mentions the fix\n";
  const goalText = "# Goal\n\n## Checks\n- `grep -q fixed status.txt` exits 0\n";

  /** The coordinator claims; the reviewer (its own fresh session) answers from `verdicts`, in order. */
  function reviewedPolicy(verdicts: string[]) {
    let reviews = 0;
    return (request: ModelRequest) => {
      if (request.firstUserText().includes(REVIEW_SIGNATURE))
        return text(verdicts[reviews++] ?? "verdict: ?");
      return text("All done.");
    };
  }

  async function reviewRun(verdicts: string[]) {
    current = await rig({ policy: reviewedPolicy(verdicts) });
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(current.workspace, "status.txt"), "fixed\n");
    const rt = current.runtime();
    const result = await rt.run("reviewed", lead(), "Make status.txt say fixed.", {
      goal: { checks: [statusCheck], requirementsText, goalText, review: true },
    });
    const reviewer = current.model.exchanges.filter((e) =>
      e.request.firstUserText().includes(REVIEW_SIGNATURE),
    );
    return { result, reviewer };
  }

  it(
    "met: the reviewer, in a fresh read-only session with only the frozen documents, passes the step",
    async () => {
      const { result, reviewer } = await reviewRun([
        "- status.txt says fixed — met — evidence: status.txt holds `fixed`\n- README mentions the fix — cannot tell — evidence: there is no README\nverdict: met",
      ]);
      expect(result.status).toBe("done");
      expect(result.guard!.reviews).toHaveLength(1);
      expect(result.guard!.reviews[0]).toMatchObject({ outcome: "met", round: 0 });
      expect(result.guard!.reviews[0]!.criteria.map((c) => c.verdict)).toEqual(["met", "cannot-tell"]);
      expect(existsSync(result.guard!.reviews[0]!.answerPath!)).toBe(true);
      expect(reviewer).toHaveLength(1);
      const request = reviewer[0]!.request;
      expect(request.sessionId).not.toBe(result.sessionId);
      // Read-only: the CLI adds only its deferred-tool placeholder to the three.
      expect(request.toolNames.filter((name) => name !== "DeferredToolPlaceholder").sort()).toEqual([
        "Glob",
        "Grep",
        "Read",
      ]);
      expect(request.firstUserText()).toContain("README mentions the fix");
      expect(request.firstUserText()).toContain("grep -q fixed status.txt");
      // Only the frozen documents: not the coordinator's conversation.
      expect(request.allText()).not.toContain("All done.");
      expect(current!.events.filter((e) => e.type === "review")).toHaveLength(1);
    },
    TIMEOUT,
  );
});
