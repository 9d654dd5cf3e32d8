/**
 * The goal option through Runtime (the `_internal` seam, no binary): validated before anything runs,
 * kept in the record, and reused by `continue` so a guarded step stays guarded.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { ConfigurationError, coordinator, Runtime, subagent } from "../../../src/index.js";
import { init, response, result, scriptedQuery, type ScriptedSession } from "../../support/scripted-query.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setUp(sessions: ScriptedSession[]) {
  const root = mkdtempSync(join(tmpdir(), "flower-goal-rt-"));
  dirs.push(root);
  const workspace = join(root, "workspace");
  mkdirSync(workspace);
  const scripted = scriptedQuery(sessions);
  const make = () =>
    new Runtime({
      workspace,
      runDir: join(root, "runs"),
      locale: "en",
      _internal: { query: scripted.query },
    });
  return { workspace, scripted, make };
}

const lead = coordinator("lead", "Goal: make ok.txt.", { fixer: subagent("Fixes.", "Fix it.") });

it("refuses a bad goal before any session starts, naming the field", async () => {
  const { scripted, make } = setUp([]);
  const rt = make();
  try {
    await expect(rt.run("bad", lead, "Do it.", { goal: { checks: [{ command: "" }] } })).rejects.toThrow(
      /Invalid option goal\.checks\[0\]\.command/,
    );
    await expect(rt.run("bad", lead, "Do it.", { goal: { checks: [] } })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
    await expect(
      rt.run("bad", lead, "Do it.", { goal: { checks: [{ command: "true" }], guardRounds: 0 } }),
    ).rejects.toThrow(/goal\.guardRounds: got 0/);
    expect(scripted.calls).toHaveLength(0);
  } finally {
    rt.close();
  }
});

it("continue keeps guarding a step that ran with a goal, with fresh rounds after goal-not-met", async () => {
  let workspace = "";
  const { scripted, make, ...rest } = setUp([
    () => [init("s1"), ...response("s1", 5_000), result("s1", { text: "Done." })],
    () => [init("s1"), ...response("s1", 5_500), result("s1", { text: "Done, I promise." })],
    // `continue` (another runtime, no goal given) resumes s1; this time the file is there.
    () => {
      writeFileSync(join(workspace, "ok.txt"), "ok");
      return [init("s1"), ...response("s1", 6_000), result("s1", { text: "Really done." })];
    },
  ]);
  workspace = rest.workspace;
  const first = make();
  try {
    const step = await first.run("guarded", lead, "Make ok.txt.", {
      goal: { checks: [{ command: "test -f ok.txt" }], guardRounds: 1 },
    });
    expect(step).toMatchObject({ status: "goal-not-met", guard: { rounds: 1, outcome: "goal-not-met" } });
    expect(scripted.calls[1]!.prompt).toContain("[flower goal guard] Round 1 of 1");
  } finally {
    first.close();
  }
  const second = make();
  try {
    const step = await second.continue("guarded", lead);
    expect(step.status).toBe("done");
    expect(scripted.calls[2]!.options?.resume).toBe("s1");
    expect(step.guard).toMatchObject({
      rounds: 0,
      maxRounds: 1,
      outcome: "passed",
      passedChecks: ["test -f ok.txt"],
    });
    expect(step.guard!.checkRuns.map((run) => run.passed)).toEqual([false, false, true]);
    // The rounds start again after goal-not-met, the runs do not: each run's log is its own file.
    const logs = join(rest.workspace, "..", "runs", "goal-checks", "guarded");
    expect(step.guard!.checkRuns.map((run) => run.results[0]!.logPath)).toEqual(
      [1, 2, 3].map((run) => join(logs, `goal-check-1.run-${run}.log`)),
    );
    expect(readFileSync(join(logs, "goal-check-1.run-1.log"), "utf8")).toContain("failed: exit code 1");
    expect(readFileSync(join(logs, "goal-check-1.run-3.log"), "utf8")).toContain("; passed\n");
    expect(step.guard!.goal).toEqual({
      checks: [{ command: "test -f ok.txt" }],
      guardRounds: 1,
      review: false,
    });
  } finally {
    second.close();
  }
  scripted.assertComplete();
});
