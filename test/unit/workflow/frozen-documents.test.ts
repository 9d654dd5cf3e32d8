/**
 * Once a step has begun with a frozen document, that text is used (issue 22): through the library's
 * workflow on the Runtime's `_internal` seam (no binary). The requirements edited after the goal step
 * began do not reach the work step; the goal file rewritten during the work does not reach its guard,
 * on `continueWorkflow` either; both are reported; `rereadGoal: true` switches to the file as it is.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import {
  continueWorkflow,
  coordinator,
  GOAL,
  REQUIREMENTS,
  Runtime,
  runWorkflow,
  subagent,
  type FlowerEvent,
} from "../../../src/index.js";
import { type DocumentChangedEvent } from "../../../src/runtime/events.js";
import { type StepRecord } from "../../../src/public/stores.js";
import { documentAgent } from "../../../src/workflow/document-agent.js";
import { goalOption } from "../../../src/workflow/default-workflow.js";
import { defineWorkflow } from "../../../src/workflow/workflow.js";
import { init, response, result, scriptedQuery, type ScriptedSession } from "../../support/scripted-query.js";
import { ASSUMPTION, requirementsAnswer } from "../../e2e/cli/workflow-answers.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const EDITED = "- The flaky test is test/timer.test.js (edited while the goal step ran).";
const GOAL_ANSWER = "## Goal\nok.txt exists.\n\n## Checks\n- `test -f ok.txt` exits 0\n";

const lead = coordinator("lead", "Goal: make ok.txt.", { fixer: subagent("Fixes.", "Fix it.") });
/** The default workflow's three steps, with one guard round so each goal-not-met run is two sessions. */
const workflow = defineWorkflow([
  { name: "requirements", agent: (locale) => documentAgent(REQUIREMENTS, locale), freeze: REQUIREMENTS },
  { name: "goal", agent: (locale) => documentAgent(GOAL, locale), freeze: GOAL },
  {
    name: "work",
    agent: lead,
    options: (input) => {
      const { goal } = goalOption(input);
      return goal ? { goal: { ...goal, guardRounds: 1 } } : {};
    },
  },
]);

it("a document is used as the step that began with it read it; rereadGoal takes the goal file as it is", async () => {
  const root = mkdtempSync(join(tmpdir(), "flower-frozen-docs-"));
  dirs.push(root);
  const workspace = join(root, "workspace");
  mkdirSync(workspace);
  const notes = join(workspace, ".flower", "notes");
  const requirementsFile = join(notes, "requirements-r1.md");
  const goalFile = join(notes, "goal-r1.md");
  const answer =
    (text: string, before?: (prompt: string) => void): ScriptedSession =>
    ({ prompt }) => {
      before?.(prompt);
      return [
        init(`s-${text.length}`),
        ...response(`s-${text.length}`, 5_000),
        result(`s-${text.length}`, { text }),
      ];
    };
  const work =
    (text: string, before?: (prompt: string) => void): ScriptedSession =>
    ({ prompt }) => {
      before?.(prompt);
      return [init("work"), ...response("work", 5_000), result("work", { text })];
    };
  let workPrompt = "";
  const scripted = scriptedQuery([
    answer(requirementsAnswer()),
    // A person edits the requirements while the goal step runs: the goal was made from the old ones.
    answer(GOAL_ANSWER, () => {
      writeFileSync(requirementsFile, readFileSync(requirementsFile, "utf8").replace(ASSUMPTION, EDITED));
    }),
    // The work rewrites the goal's check.
    work("Done.", (prompt) => {
      workPrompt = prompt;
      writeFileSync(goalFile, readFileSync(goalFile, "utf8").replace("test -f ok.txt", "true"));
    }),
    work("Done, I said."),
    work("Done again."),
    work("Still done."),
    work("Done, with the goal as it is now."),
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
  const changed = () =>
    events.filter((event): event is DocumentChangedEvent => event.type === "document-changed");
  const workRecord = (rt: Runtime): StepRecord => rt.records.get("r1/work")!;

  const first = make();
  try {
    const outcome = await runWorkflow(first, workflow, "Make ok.txt.", { run: "r1", pauseAfter: false });
    expect(outcome.status).toBe("stopped");
    expect(workRecord(first).status).toBe("goal-not-met");
    // The work step got the requirements the goal was made from, not the edit.
    expect(workPrompt).toContain(ASSUMPTION);
    expect(workPrompt).not.toContain(EDITED);
    expect(changed().map(({ step, kind, since, used }) => ({ step, kind, since, used }))).toEqual([
      { step: "r1/work", kind: "requirements", since: "goal", used: false },
    ]);
    const read = workRecord(first).workflow!.read!;
    expect(read.map((entry) => entry.kind)).toEqual(["requirements", "goal"]);
    expect(read[0]!.text).toContain(ASSUMPTION);
    expect(workRecord(first).guard!.goal!.requirementsText).toContain(ASSUMPTION);
  } finally {
    first.close();
  }

  events.length = 0;
  const second = make();
  try {
    await continueWorkflow(second, workflow, "r1", { pauseAfter: false });
    const record = workRecord(second);
    expect(record.status).toBe("goal-not-met");
    expect(record.guard!.goal!.checks.map((check) => check.command)).toEqual(["test -f ok.txt"]);
    expect(record.guard!.checkRuns.map((run) => run.results[0]!.command)).toEqual(
      Array(4).fill("test -f ok.txt"),
    );
    expect(record.guard!.goalSwitches).toBeUndefined();
    expect(changed().map(({ kind, since, used, path }) => ({ kind, since, used, path }))).toEqual([
      { kind: "requirements", since: "goal", used: false, path: requirementsFile },
      { kind: "goal", since: "work", used: false, path: goalFile },
    ]);
    // No goal offered differently to the runtime: the workflow passed the recorded one.
    expect(events.some((event) => event.type === "goal-change")).toBe(false);
    await expect(continueWorkflow(second, workflow, "r1", { rereadGoal: "yes" as never })).rejects.toThrow(
      /rereadGoal: got "yes"/,
    );
  } finally {
    second.close();
  }

  events.length = 0;
  const third = make();
  try {
    const outcome = await continueWorkflow(third, workflow, "r1", { pauseAfter: false, rereadGoal: true });
    expect(outcome.status).toBe("done");
    const record = workRecord(third);
    expect(record.guard!.goal!.checks.map((check) => check.command)).toEqual(["true"]);
    const [change] = record.guard!.goalSwitches!;
    expect(change).toMatchObject({ path: goalFile });
    expect(change!.from.checks.map((check) => check.command)).toEqual(["test -f ok.txt"]);
    expect(change!.to.checks.map((check) => check.command)).toEqual(["true"]);
    expect(change!.from.goalText).toContain("`test -f ok.txt`");
    // Only the goal is re-read: the requirements stay as the goal step read them.
    expect(change!.to.requirementsText).toContain(ASSUMPTION);
    expect(changed().map(({ kind, since, used }) => ({ kind, since, used }))).toEqual([
      { kind: "requirements", since: "goal", used: false },
      { kind: "goal", since: "work", used: true },
    ]);
    const read = record.workflow!.read!;
    expect(read.find((entry) => entry.kind === "goal")!.text).toContain("`true`");
    expect(read.find((entry) => entry.kind === "requirements")!.text).toContain(ASSUMPTION);
  } finally {
    third.close();
  }
  scripted.assertComplete();
});
