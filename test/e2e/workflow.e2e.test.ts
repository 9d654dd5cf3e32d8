/**
 * Workflows through the real binary and the offline model (SPEC §7): requirements → goal → work, each a
 * new session whose prompt is built from the frozen files as they are on disk; the pause, a person's
 * edit and continue across two runtimes; the degraded path and a crash at a step boundary, and another
 * at the next boundary of the driver that continued it, on one run.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  continueWorkflow,
  coordinator,
  defaultWorkflow,
  runWorkflow,
  subagent,
  workflowPosition,
  type FlowerEvent,
} from "../../src/index.js";
import { type StepRecord } from "../../src/public/stores.js";
import { text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { READ_ONLY_DENIAL } from "../../src/guards/guard-text.js";
import { fixtureEnv, rig, type Rig } from "./runtime-helpers.js";

let current: Rig | undefined;

const TASK = "Add a --json flag to the report command.";

const REQUIREMENTS_ANSWER = [
  "I looked at the workspace; here is the confirmation.",
  "",
  "## Task",
  "Add a --json flag to the report command so that scripts can read its output.",
  "## In scope",
  "- the report command",
  "## Out of scope",
  "- the other commands",
  "## Acceptance",
  "- `node report.js --json` prints valid JSON",
  "- ACCEPTANCE-LINE-TO-EDIT: the JSON has a `total` field",
  "## Assumptions",
  "- field names in English",
  "## Open questions",
  "- Should the old text output stay the default?",
].join("\n");

const GOAL_ANSWER = [
  "## Goal",
  "The report command prints its result as JSON when given --json.",
  "## Checks",
  '- `node -e "process.exit(0)"` exits 0',
  "## Constraints",
  "- no new dependencies",
  "## Non-goals",
  "- changing the text output",
].join("\n");

const WORK = coordinator("lead", "Do the work.", {
  helper: subagent("Runs commands.", "Run what you are asked.", { tools: ["Bash"] }),
});

type Step = "requirements" | "goal" | "work";

/** Which step a main-thread request belongs to: a document step's system prompt carries its kind. */
function stepOf(request: ModelRequest): Step {
  const kind = request.documentKind;
  return kind === "requirements" || kind === "goal" ? kind : "work";
}

interface Answers {
  requirements?: string;
  goal?: string;
  /** The requirements agent first tries to change the workspace (it must be denied). */
  tryToWrite?: boolean;
}

/**
 * The scripted model: the requirements agent first reads a file (so its conversation holds something
 * only it saw), then answers with its document; the goal agent answers with its document; the
 * coordinator says it is done.
 */
function policy(answers: Answers = {}) {
  return (request: ModelRequest) => {
    if (!request.isMainThread) return text("ok");
    switch (stepOf(request)) {
      case "requirements":
        if (answers.tryToWrite && request.countToolResults("Bash") === 0)
          return toolUse("Bash", { command: "touch created-by-the-requirements-agent.txt" });
        return request.countToolResults("Read") === 0
          ? toolUse("Read", { file_path: "notes-only-the-requirements-agent-read.txt" })
          : text(answers.requirements ?? REQUIREMENTS_ANSWER);
      case "goal":
        return text(answers.goal ?? GOAL_ANSWER);
      case "work":
        return text("WORK-DONE: the flag is there.");
    }
  };
}

function requestsOf(model: Rig["model"], step: Step): ModelRequest[] {
  return model.requests.filter((request) => request.isMainThread && stepOf(request) === step);
}

function recordOf(rig: Rig, step: string): StepRecord {
  const manifest = JSON.parse(readFileSync(join(rig.runDir, "manifest.json"), "utf8")) as {
    steps: Record<string, StepRecord>;
  };
  return manifest.steps[step]!;
}

async function setUp(answers: Answers = {}): Promise<Rig> {
  current = await rig({ policy: policy(answers) });
  writeFileSync(
    join(current.workspace, "notes-only-the-requirements-agent-read.txt"),
    "SEEN-ONLY-BY-REQUIREMENTS: the report module is report.js",
  );
  return current;
}

describe("the default workflow through the real binary", () => {
  it("pauses after the requirements; an edit of the file is what the goal step reads, in a new conversation, in another runtime", async () => {
    const r = await setUp();
    const workflow = defaultWorkflow({ work: WORK });

    const first = r.runtime({ workbench: true });
    const paused = await runWorkflow(first, workflow, TASK, { run: "r1" });
    first.close();
    expect(paused.status).toBe("paused");
    expect(paused.paused?.after).toBe("requirements");
    expect(paused.paused?.next).toBe("goal");
    expect(paused.paused?.openQuestions).toBe("- Should the old text output stay the default?");
    const path = join(r.workspace, ".flower", "notes", "requirements-r1.md");
    expect(paused.paused?.document?.path).toBe(path);
    expect(requestsOf(r.model, "goal")).toHaveLength(0);

    // The frozen file has the §7 sections, in order.
    const frozen = readFileSync(path, "utf8");
    const headings = frozen.split("\n").filter((line) => line.startsWith("## "));
    expect(headings).toEqual([
      "## Task",
      "## In scope",
      "## Out of scope",
      "## Acceptance",
      "## Assumptions",
      "## Open questions",
      "## Other notes",
    ]);
    // The requirements agent worked read-only and asked nobody: its tools are the looking ones.
    const requirementsRequest = requestsOf(r.model, "requirements")[0]!;
    expect(requirementsRequest.toolNames).toEqual(expect.arrayContaining(["Bash", "Glob", "Grep", "Read"]));
    for (const tool of ["Write", "Edit", "NotebookEdit", "AskUserQuestion", "Agent", "Task"])
      expect(requirementsRequest.toolNames).not.toContain(tool);

    // A person edits one line while the run is paused.
    writeFileSync(
      path,
      frozen.replace(
        "- ACCEPTANCE-LINE-TO-EDIT: the JSON has a `total` field",
        "- EDITED-BY-A-PERSON: the JSON has `total` and `items` fields",
      ),
    );

    const second = r.runtime({ workbench: true });
    expect(workflowPosition(second, workflow, "r1").next).toMatchObject({ name: "goal", how: "start" });
    const done = await continueWorkflow(second, workflow, "r1");
    expect(done.status).toBe("done");
    expect(done.steps.map((step) => [step.name, step.how])).toEqual([
      ["requirements", "skipped"],
      ["goal", "ran"],
      ["work", "ran"],
    ]);
    expect(done.degraded).toEqual([]);

    // The goal step's first request: a new conversation whose prompt holds the file as it is on disk.
    const goalFirst = requestsOf(r.model, "goal")[0]!;
    // (The binary sends one user message plus its environment block as a system message.)
    expect(goalFirst.messages.filter((message) => message.role !== "system").map((m) => m.role)).toEqual([
      "user",
    ]);
    expect(goalFirst.firstUserText()).toContain(readFileSync(path, "utf8").trimEnd());
    expect(goalFirst.firstUserText()).toContain("EDITED-BY-A-PERSON");
    expect(goalFirst.allText()).not.toContain("ACCEPTANCE-LINE-TO-EDIT");
    // ... and nothing of the requirements step's conversation.
    expect(goalFirst.allText()).not.toContain("SEEN-ONLY-BY-REQUIREMENTS");
    expect(goalFirst.sessionId).not.toBe(requirementsRequest.sessionId);
    // The requirements step was not redone.
    expect(requestsOf(r.model, "requirements")).toHaveLength(2);

    // The work step reads both documents as on disk.
    const workFirst = requestsOf(r.model, "work")[0]!;
    expect(workFirst.messages.filter((message) => message.role !== "system").map((m) => m.role)).toEqual([
      "user",
    ]);
    expect(workFirst.firstUserText()).toContain("EDITED-BY-A-PERSON");
    expect(workFirst.firstUserText()).toContain(
      readFileSync(join(r.workspace, ".flower", "notes", "goal-r1.md"), "utf8").trimEnd(),
    );

    // Each step is an ordinary step in the run record, plus run and frozen.
    const goalRecord = recordOf(r, "r1/goal");
    expect(goalRecord).toMatchObject({ status: "done", run: "r1", generations: 1 });
    expect(goalRecord.frozen).toMatchObject({ kind: "goal", degraded: false, why: null, missing: [] });
    expect(goalRecord.frozen!.path).toBe(join(r.workspace, ".flower", "notes", "goal-r1.md"));
    expect(goalRecord.numTurns).toBeGreaterThan(0);
    expect(recordOf(r, "r1/requirements").frozen).toMatchObject({
      kind: "requirements",
      path,
      degraded: false,
    });
    expect(recordOf(r, "r1/work")).toMatchObject({
      status: "done",
      run: "r1",
      result: "WORK-DONE: the flag is there.",
    });
    expect(recordOf(r, "r1/work").frozen).toBeUndefined();
    const goalHeadings = readFileSync(goalRecord.frozen!.path, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("## "));
    expect(goalHeadings).toEqual(["## Goal", "## Checks", "## Constraints", "## Non-goals"]);

    const kinds = r.events.flatMap((event: FlowerEvent) =>
      event.type === "workflow-step" ? [`${event.name}:${event.phase}`] : [],
    );
    expect(kinds).toEqual([
      "requirements:start",
      "requirements:done",
      "requirements:paused",
      "requirements:skip",
      "goal:start",
      "goal:done",
      "work:start",
      "work:done",
    ]);
    r.model.assertNoErrors();
  }, 240_000);

  // One chain carries two rules: degraded documents (an answer without acceptance, a goal without a
  // runnable check) are frozen with the reason and the run goes on; a driver killed at a step boundary
  // (twice: the driver that continues is killed at the next one) is continued at the cut step.
  it("degraded documents are frozen with the reason and the run goes on; a driver killed at the goal step's first request, then its continuing driver killed at the work step's: each continue resumes the cut step, the frozen steps are not redone", async () => {
    // Which step's first main-thread request kills the driver now running: goal for the first
    // driver, work for the second (which continues the first's run); then nothing more.
    const boundaries: Step[] = ["goal", "work"];
    const counts: Record<Step, number>[] = [];
    const running: { pid?: number } = {};
    const countNow = () => ({
      requirements: requestsOf(current!.model, "requirements").length,
      goal: requestsOf(current!.model, "goal").length,
      work: requestsOf(current!.model, "work").length,
    });
    const degraded = policy({
      requirements: "## Task\nAdd a --json flag.\n## Open questions\n- none",
      goal: "## Goal\nJSON output.\n## Checks\n- the output looks right",
      tryToWrite: true,
    });
    current = await rig({
      policy: (request) => {
        const boundary = boundaries[counts.length];
        if (boundary && request.isMainThread && stepOf(request) === boundary) {
          counts.push(countNow());
          if (running.pid) process.kill(running.pid, "SIGKILL");
          return text("never delivered", { delayMs: 3_000 });
        }
        return degraded(request);
      },
    });
    const r = current;
    writeFileSync(
      join(r.workspace, "notes-only-the-requirements-agent-read.txt"),
      "SEEN-ONLY-BY-REQUIREMENTS",
    );
    const eventLog = join(r.root, "driver-events.jsonl");
    const drive = async (mode: "run" | "continue") => {
      const child = spawn(process.execPath, [join(import.meta.dirname, "fixtures", "workflow-driver.mjs")], {
        env: {
          ...fixtureEnv(r),
          FLOWER_TEST_TASK: TASK,
          FLOWER_TEST_MODE: mode,
          FLOWER_TEST_LOCALE: "zh",
          FLOWER_TEST_EVENTS: eventLog,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      running.pid = child.pid;
      let err = "";
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("exit", (exit) => resolve(exit)));
      expect(code, `the ${mode} driver was expected to be killed: ${err}`).toBeNull();
    };
    const workflow = defaultWorkflow({ work: WORK });

    // The first driver is killed at the goal boundary: requirements done and frozen, goal cut off.
    await drive("run");
    expect(counts).toHaveLength(1);
    const atGoal = workflowPosition(r.runtime({ workbench: true, locale: "zh" }), workflow, "crashed");
    expect(atGoal.done).toEqual(["requirements"]);
    expect(atGoal.next?.name).toBe("goal");
    expect(recordOf(r, "crashed/goal").status).toBe("running");

    // A driver continues the run and is killed at the work boundary: it resumed the goal step (done,
    // frozen) and did not redo the requirements.
    await drive("continue");
    expect(counts).toHaveLength(2);
    expect(counts[1]!.requirements).toBe(counts[0]!.requirements);
    expect(counts[1]!.goal).toBeGreaterThan(counts[0]!.goal);
    const goalAfterFirstCrash = recordOf(r, "crashed/goal");
    expect(goalAfterFirstCrash.status).toBe("done");
    expect(goalAfterFirstCrash.generations).toBe(goalAfterFirstCrash.history.length);
    expect(recordOf(r, "crashed/requirements").earlierRuns).toBeUndefined();
    const rt = r.runtime({ workbench: true, locale: "zh" });
    const atWork = workflowPosition(rt, workflow, "crashed");
    expect(atWork.done).toEqual(["requirements", "goal"]);
    expect(atWork.next?.name).toBe("work");
    expect(recordOf(r, "crashed/work").status).toBe("running");

    // Continue in this process: only the work step runs; the run went on with both degraded documents.
    const result = await continueWorkflow(rt, workflow, "crashed", { wait: 30_000 });
    expect(result.status).toBe("done");
    expect(result.steps.map((step) => [step.name, step.how])).toEqual([
      ["requirements", "skipped"],
      ["goal", "skipped"],
      ["work", "ran"],
    ]);
    expect(result.degraded.map((entry) => [entry.name, entry.why])).toEqual([
      ["requirements", "missing: acceptance"],
      ["goal", "no runnable check in the checks section"],
    ]);
    // No frozen step was redone: no further request for it, and its record holds one run.
    expect(requestsOf(r.model, "requirements")).toHaveLength(counts[1]!.requirements);
    expect(requestsOf(r.model, "goal")).toHaveLength(counts[1]!.goal);
    for (const name of ["requirements", "goal"])
      expect(recordOf(r, `crashed/${name}`).earlierRuns).toBeUndefined();
    const step = recordOf(r, "crashed/work");
    expect(step.status).toBe("done");
    expect(step.generations).toBe(step.history.length);
    expect(step).toMatchObject({ status: "done", result: "WORK-DONE: the flag is there." });

    // The degraded documents: frozen with the reason, in the run's language, and said so.
    const requirements = recordOf(r, "crashed/requirements");
    expect(requirements.frozen).toMatchObject({
      kind: "requirements",
      degraded: true,
      why: "missing: acceptance",
      missing: ["acceptance"],
    });
    expect(requirements.errors).toContain("需求确认书降级(missing: acceptance)");
    expect(requirements.frozen!.path).toBe(join(r.workspace, ".flower", "notes", "需求-crashed.md"));
    expect(readFileSync(requirements.frozen!.path, "utf8")).toContain("> [降级:missing: acceptance]");
    const goal = recordOf(r, "crashed/goal");
    expect(goal.frozen).toMatchObject({
      kind: "goal",
      degraded: true,
      why: "no runnable check in the checks section",
    });
    expect(goal.frozen!.path).toBe(join(r.workspace, ".flower", "notes", "目标-crashed.md"));
    expect(existsSync(goal.frozen!.path)).toBe(true);
    // The requirements agent is read-only: its attempt to change the workspace was denied.
    expect(existsSync(join(r.workspace, "created-by-the-requirements-agent.txt"))).toBe(false);
    const denied = requestsOf(r.model, "requirements")
      .flatMap((request) => request.toolResults())
      .find((result) => result.name === "Bash");
    expect(denied?.text).toContain(READ_ONLY_DENIAL.zh);
    // The goal step was told the requirements are degraded.
    expect(requestsOf(r.model, "goal")[0]!.firstUserText()).toContain("降级件");
    // The drivers said so as each document froze (their events, as written while they ran).
    const driverEvents = readFileSync(eventLog, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as FlowerEvent);
    const frozenEvents = [...driverEvents, ...r.events].filter((event) => event.type === "document-frozen");
    expect(frozenEvents.map((event) => [event.kind, event.degraded, event.why])).toEqual([
      ["requirements", true, "missing: acceptance"],
      ["goal", true, "no runnable check in the checks section"],
    ]);
    r.model.assertNoErrors();
  }, 300_000);
});
