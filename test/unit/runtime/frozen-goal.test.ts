/**
 * The goal stays frozen under the work (issue 22): a continue keeps the goal recorded when the work
 * began, whatever goal it is given, unless told to replace it — the decision alone, and through Runtime
 * (the `_internal` seam, no binary), where the record keeps the ignored goal or both sides of a switch.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { coordinator, Runtime, subagent, type FlowerEvent } from "../../../src/index.js";
import { resolveGoalOption } from "../../../src/goal/goal-option.js";
import { decideGoal, storedGoal } from "../../../src/runtime/judge/frozen-goal.js";
import { init, response, result, scriptedQuery, type ScriptedSession } from "../../support/scripted-query.js";

const recorded = storedGoal(resolveGoalOption({ checks: [{ command: "test -f ok.txt" }], goalText: "v1" }));
const edited = resolveGoalOption({ checks: [{ command: "true" }], goalText: "v2" });

describe("decideGoal", () => {
  it("without a recorded goal, the given one runs (or none)", () => {
    expect(decideGoal(edited, undefined, false, null)).toEqual({ goal: edited, change: null });
    expect(decideGoal(undefined, undefined, false, null)).toEqual({ goal: undefined, change: null });
  });

  it("the recorded goal runs when none or the same one is given", () => {
    const same = resolveGoalOption(recorded);
    expect(decideGoal(undefined, recorded, false, null)).toEqual({ goal: same, change: null });
    expect(decideGoal(same, recorded, true, "/g.md")).toEqual({ goal: same, change: null });
  });

  it("a different goal is not used unless replace says so; either way the change is returned", () => {
    expect(decideGoal(edited, recorded, false, "/g.md")).toEqual({
      goal: resolveGoalOption(recorded),
      change: { kind: "ignored", offered: storedGoal(edited), path: "/g.md" },
    });
    expect(decideGoal(edited, recorded, true, "/g.md")).toEqual({
      goal: edited,
      change: { kind: "switched", from: recorded, path: "/g.md" },
    });
  });
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const lead = coordinator("lead", "Goal: make ok.txt.", { fixer: subagent("Fixes.", "Fix it.") });
const done =
  (text: string): ScriptedSession =>
  () => [init("s1"), ...response("s1", 5_000), result("s1", { text })];

describe("Runtime.continue with another goal", () => {
  it("keeps the recorded goal and records the offered one as ignored; replaceGoal switches, both kept", async () => {
    const root = mkdtempSync(join(tmpdir(), "flower-frozen-goal-"));
    dirs.push(root);
    const workspace = join(root, "workspace");
    mkdirSync(workspace);
    // One guard round: a session and the round it is sent back in, per run that ends goal-not-met.
    const scripted = scriptedQuery([
      done("Done."),
      done("Done, I said."),
      done("Done again."),
      done("Still done."),
      done("Done, with the new goal."),
    ]);
    const events: FlowerEvent[] = [];
    const make = () =>
      new Runtime({
        workspace,
        runDir: join(root, "runs"),
        locale: "en",
        onEvent: (event) => events.push(event),
        _internal: { query: scripted.query },
      });
    const goal = { checks: [{ command: "test -f ok.txt" }], guardRounds: 1, goalText: "v1" };
    const other = { checks: [{ command: "true" }], guardRounds: 1, goalText: "v2" };

    const first = make();
    try {
      expect((await first.run("w", lead, "Make ok.txt.", { goal })).status).toBe("goal-not-met");
      // A bad value is named before anything runs.
      await expect(first.continue("w", lead, { replaceGoal: "yes" as never })).rejects.toThrow(
        /replaceGoal: got "yes"/,
      );
    } finally {
      first.close();
    }
    // Fresh rounds after goal-not-met: the check it began with still fails.
    const second = make();
    try {
      const step = await second.continue("w", lead, { goal: other, goalFile: "/notes/goal-w.md" });
      expect(step.status).toBe("goal-not-met");
      expect(step.guard!.goal!.checks).toEqual([{ command: "test -f ok.txt" }]);
      expect(step.guard!.checkRuns.at(-1)!.results.map((r) => r.command)).toEqual(["test -f ok.txt"]);
      expect(step.guard!.ignoredGoal).toMatchObject({
        path: "/notes/goal-w.md",
        goal: { checks: [{ command: "true" }], goalText: "v2" },
      });
      expect(step.guard!.goalSwitches).toBeUndefined();
      expect(events.filter((event) => event.type === "goal-change")).toEqual([
        {
          type: "goal-change",
          step: "w",
          phase: "ignored",
          path: "/notes/goal-w.md",
          checks: { recorded: ["test -f ok.txt"], offered: ["true"] },
        },
      ]);
    } finally {
      second.close();
    }
    const third = make();
    try {
      const step = await third.continue("w", lead, { goal: other, replaceGoal: true });
      expect(step.status).toBe("done");
      expect(step.guard!.goal).toMatchObject({ checks: [{ command: "true" }], goalText: "v2" });
      const switches = step.guard!.goalSwitches!;
      expect(switches).toHaveLength(1);
      expect(switches[0]).toMatchObject({
        path: null,
        from: { checks: [{ command: "test -f ok.txt" }], goalText: "v1" },
        to: { checks: [{ command: "true" }], goalText: "v2" },
      });
      expect(switches[0]!.at >= step.guard!.ignoredGoal!.at).toBe(true);
      expect(events.filter((event) => event.type === "goal-change").at(-1)).toMatchObject({
        phase: "switched",
        checks: { recorded: ["test -f ok.txt"], offered: ["true"] },
      });
    } finally {
      third.close();
    }
    scripted.assertComplete();
  });
});
