/**
 * The goal guard in the step loop, without the binary: StepRun over an in-process scripted query().
 * The paths the e2e tests cannot reach cheaply: a handoff in the middle of a guard round, a stop while
 * the checks run, a reviewer whose session fails. The checks themselves are real shell commands.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveGoalOption, type GoalOption } from "../../../src/goal/goal-option.js";
import { init, response, result, type ScriptedSession } from "../../support/scripted-query.js";
import { session, stepHarness } from "../../support/step-harness.js";

const HANDOFF_ANSWER = [
  "## doing",
  "Fixing the status file; flower's check `test -f done.txt` failed in guard round 1.",
  "## decided",
  "- write done.txt from a worker",
  "## dead ends",
  "- none",
  "## next",
  "Create done.txt.",
  "## scene",
  "- done.txt (missing)",
].join("\n");

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function harness(sessions: ScriptedSession[], goal: GoalOption, stop = new AbortController()) {
  const h = stepHarness(
    sessions,
    (workspace) => ({
      step: "fix",
      prompt: "Create done.txt.",
      stopSignal: stop.signal,
      goal: { goal: resolveGoalOption(goal), logDir: join(workspace, "logs"), env: process.env },
    }),
    "flower-goal-step-",
  );
  dirs.push(h.workspace);
  return h;
}

describe("the goal guard in the step loop", () => {
  it("a handoff during a guard round: the successor takes over, and its end is judged by the checks", async () => {
    let workspace = "";
    const h = harness(
      [
        session("s1", response("s1", 10_000), result("s1", { text: "All done." })),
        // Guard round 1 resumes s1, which crosses the handoff line while working.
        session("s1", response("s1", 55_000, "tool_use")),
        session("s1", response("s1", 56_000), result("s1", { text: HANDOFF_ANSWER })),
        // The successor fixes it for real.
        () => {
          writeFileSync(join(workspace, "done.txt"), "ok\n");
          return [init("s2"), ...response("s2", 9_000), result("s2", { text: "Created done.txt." })];
        },
      ],
      { checks: [{ command: "test -f done.txt" }] },
    );
    workspace = h.workspace;
    const step = await h.run.run();
    expect(step.status).toBe("done");
    expect(step).toMatchObject({ sessionId: "s2", retired: ["s1"], generations: 2 });
    expect(h.calls[1]!.options?.resume).toBe("s1");
    expect(h.calls[1]!.prompt).toContain("[flower goal guard] Round 1 of 3");
    expect(h.calls[1]!.prompt).toContain("`test -f done.txt` — exit 1 (expected 0)");
    // The message names the log of the run that failed; the next run writes its own.
    const logs = join(workspace, "logs");
    expect(h.calls[1]!.prompt).toContain(`log: ${join(logs, "goal-check-1.run-1.log")}`);
    expect(h.calls[3]!.options?.resume).toBeUndefined();
    expect(h.calls[3]!.prompt).toContain("Create done.txt.");
    expect(step.guard).toMatchObject({ rounds: 1, outcome: "passed", passedChecks: ["test -f done.txt"] });
    expect(step.guard!.checkRuns.map((run) => run.passed)).toEqual([false, true]);
    expect(step.guard!.checkRuns.map((run) => run.results[0]!.logPath)).toEqual([
      join(logs, "goal-check-1.run-1.log"),
      join(logs, "goal-check-1.run-2.log"),
    ]);
    expect(readFileSync(join(logs, "goal-check-1.run-1.log"), "utf8")).toContain("failed: exit code 1");
    // The record and the live view's event keep how it failed as data, for a view in either language.
    const failure = { kind: "exit-code", exitCode: 1, expected: 0 };
    expect(step.guard!.checkRuns[0]!.results[0]!.failure).toEqual(failure);
    const checks = h.events.find((event) => event.type === "goal-checks");
    expect(checks).toMatchObject({ results: [{ reason: "exit code 1, expected 0", failure }] });
    expect(h.events.map((e) => e.type).filter((type) => type !== "context")).toEqual([
      "step-start",
      "goal-checks",
      "guard-round",
      "handoff",
      "handoff",
      "generation-progress",
      "goal-checks",
      "step-end",
    ]);
    // Where the run stood at the handoff: the check run then, still failing; no checkpoints here.
    expect(h.saves.at(-1)!.history[0]!.progress).toEqual({
      passing: [],
      checks: 1,
      newlyPassing: [],
      files: null,
    });
    h.assertComplete();
  });

  it("a stop while the checks run ends the step stopped at once (the runner kills the check)", async () => {
    const stop = new AbortController();
    const h = harness(
      [session("s1", response("s1", 10_000), result("s1", { text: "All done." }))],
      { checks: [{ command: "touch started; sleep 30; touch finished" }] },
      stop,
    );
    const running = h.run.run();
    while (!existsSync(join(h.workspace, "started"))) await new Promise((resolve) => setTimeout(resolve, 20));
    stop.abort();
    const step = await running;
    expect(step.status).toBe("stopped");
    // The check was killed, not waited out: run to its end, it would have touched the file.
    expect(existsSync(join(h.workspace, "finished"))).toBe(false);
    expect(step.guard).toMatchObject({ rounds: 0, outcome: null, checkRuns: [] });
  });

  it("a reviewer session that fails is a degraded verdict: goal-not-met, not a pass", async () => {
    const h = harness(
      [
        session("s1", response("s1", 10_000), result("s1", { text: "All done." })),
        session("r1", result("r1", { subtype: "error_during_execution", isError: true })),
      ],
      { checks: [{ command: "true" }], review: true, goalText: "# Goal\n- it works" },
    );
    const step = await h.run.run();
    expect(step.status).toBe("goal-not-met");
    expect(h.calls[1]!.options?.env).toEqual({ REVIEWER: "true" });
    expect(h.calls[1]!.options?.resume).toBeUndefined();
    expect(h.calls[1]!.prompt).toContain("[flower reviewer]");
    expect(h.calls[1]!.prompt).toContain("- it works");
    expect(step.guard!.reviews[0]).toMatchObject({ outcome: "degraded", sessionId: "r1", answerPath: null });
    expect(step.guard!.reviews[0]!.why).toMatch(/^the reviewer session failed/);
    expect(step.guard!.passedChecks).toEqual(["true"]);
    h.assertComplete();
  });

  it("a goal with only a reviewer (no checks) reviews against the task when no document is given", async () => {
    const h = harness(
      [
        session("s1", response("s1", 10_000), result("s1", { text: "All done." })),
        session("r1", result("r1", { text: "- done.txt exists — not met — evidence: no such file" })),
        session("s1", response("s1", 11_000), result("s1", { text: "Now really done." })),
        session("r2", result("r2", { text: "- done.txt exists — met — evidence: it is there" })),
      ],
      { checks: [], review: true },
    );
    const step = await h.run.run();
    expect(step.status).toBe("done");
    expect(h.calls[1]!.prompt).toContain("Create done.txt.");
    expect(h.calls[2]!.options?.resume).toBe("s1");
    expect(h.calls[2]!.prompt).toContain("found 1 of 1 acceptance criterion not met");
    expect(step.guard!.checkRuns).toEqual([]);
    expect(step.guard!.reviews.map((review) => review.outcome)).toEqual(["not-met", "met"]);
    h.assertComplete();
  });

  describe("a reviewer's verdict (moved from test/e2e/goal-guard.e2e.test.ts; the binary's part, a fresh read-only session, stays there)", () => {
    const review: GoalOption = {
      checks: [{ command: "grep -q fixed status.txt", description: "the status file says fixed" }],
      requirementsText:
        "# Requirements\n\n## Acceptance\n- status.txt says fixed\n- README mentions the fix\n",
      goalText: "# Goal\n\n## Checks\n- `grep -q fixed status.txt` exits 0\n",
      review: true,
    };
    const claimed = (id: string, context: number) =>
      session(id, response(id, context), result(id, { text: "All done." }));

    it("not met: starts a guard round with the reviewer's evidence; met the second time, the step is done", async () => {
      const h = harness(
        [
          claimed("s1", 10_000),
          session(
            "r1",
            result("r1", {
              text: "| criterion | verdict | evidence |\n|---|---|---|\n| status.txt says fixed | met | read it |\n| README mentions the fix | not met | README.md has no word about it |",
            }),
          ),
          claimed("s1", 11_000),
          session(
            "r2",
            result("r2", {
              text: "1. status.txt says fixed: met\n2. README mentions the fix: met — evidence: README.md line 3",
            }),
          ),
        ],
        review,
      );
      writeFileSync(join(h.workspace, "status.txt"), "fixed\n");
      const step = await h.run.run();
      expect(step.status).toBe("done");
      expect(step.guard!.rounds).toBe(1);
      expect(step.guard!.reviews.map((r) => r.outcome)).toEqual(["not-met", "met"]);
      const sentBack = h.calls[2]!;
      expect(sentBack.prompt).toContain("found 1 of 2 acceptance criteria not met");
      expect(sentBack.prompt).toContain("README mentions the fix — evidence: README.md has no word about it");
      expect(sentBack.options?.resume).toBe(step.sessionId);
      const round = h.events.find((e) => e.type === "guard-round");
      expect(round).toMatchObject({ round: 1, cause: "review", notMet: 1, failing: 0 });
      h.assertComplete();
    });

    it("unparseable: a degraded verdict ends the step goal-not-met, never a silent pass", async () => {
      const h = harness(
        [
          claimed("s1", 10_000),
          session("r1", result("r1", { text: "Looks pretty good to me overall, nice work." })),
        ],
        review,
      );
      writeFileSync(join(h.workspace, "status.txt"), "fixed\n");
      const step = await h.run.run();
      expect(step.status).toBe("goal-not-met");
      expect(step.guard!.reviews[0]).toMatchObject({ outcome: "degraded", criteria: [] });
      expect(step.guard!.why).toContain("the reviewer's verdict could not be read");
      expect(step.guard!.rounds).toBe(0);
      h.assertComplete();
    });
  });
});
