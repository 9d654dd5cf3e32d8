/**
 * The default run through the built `flower` binary, the real `claude` binary and the offline kit:
 * requirements → (pause) → goal → work. Pause, edit and `flower continue` in separate processes (the
 * edit fills in the section the degraded requirements lacked, leaving flower's degraded line in the
 * file: the next steps are handed the complete document without that line, and the end of the run and
 * `flower show` say it was filled in);
 * `--yes` straight through (with a degraded requirements answer, which the run survives and reports);
 * `flower runs` grouping the steps by run; `flower show` of a run and of a frozen document; a crash at
 * a step boundary, then `flower continue` at the right step without redoing the frozen one (twice: the
 * continue itself is killed at the next boundary); a kill between the requirements step's end and the
 * pause (FLOWER_TEST_PAUSE_AT, src/fs/checkpoint.ts): the run stands paused and the printed continue
 * line goes on.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ManifestFile, StepRecord } from "../../../src/public/stores.js";
import { text, toolUse, type ModelRequest } from "../../../src/testing/index.js";
import {
  cleanEnv,
  killGroup,
  runFlower,
  runFlowerOk,
  spawnFlower,
  type Spawned,
  useCliTest,
} from "./helpers.js";
import {
  ASSUMPTION,
  goalAnswer,
  isDocumentStep,
  isGoalStep,
  requirementsAnswer,
} from "./workflow-answers.js";

const { temp, startModel } = useCliTest();

/** In the workspace's README only: it reaches the requirements conversation, never the next step. */
const README_MARKER = "README-MARKER-42";
const EDITED = "- The flaky test is test/timer.test.js (a person corrected this line).";
/** The acceptance a person writes into the degraded requirements, where the file says `(empty)`. */
const FILLED_ACCEPTANCE = "- `npm test` passes ten times in a row.";

/** requirements: one Read of the README, then the document; goal: the document; work: one answer. */
function workflowPolicy(
  workspace: string,
  options: { acceptance?: boolean; onRequest?: (request: ModelRequest) => void } = {},
) {
  return (request: ModelRequest) => {
    if (request.kind === "title" || request.kind === "compact") return undefined;
    options.onRequest?.(request);
    if (isDocumentStep(request)) {
      if (isGoalStep(request)) return text(goalAnswer(request));
      if (request.countToolResults("Read") === 0)
        return toolUse("Read", { file_path: join(workspace, "README.md") });
      return text(requirementsAnswer(options.acceptance ?? true));
    }
    if (request.isSubagent) return text("unused");
    return text("WORK-DONE: the flaky test is fixed.");
  };
}

function setUp() {
  const root = temp.make("flower-workflow-");
  const workspace = join(root, "ws");
  mkdirSync(workspace);
  writeFileSync(join(workspace, "README.md"), `# Clock\n\n${README_MARKER}: the clock library.\n`);
  return { root, workspace, runDir: join(root, "runs") };
}

function records(runDir: string): Record<string, StepRecord> {
  return (JSON.parse(readFileSync(join(runDir, "manifest.json"), "utf8")) as ManifestFile).steps;
}

/** The arguments of the printed `Go on with: flower continue …` line. */
function goOnArgs(stdout: string): string[] {
  const line = /^Go on with: flower (continue .*)$/m.exec(stdout)?.[1];
  expect(line, stdout).toBeDefined();
  return line!.trim().split(/\s+/);
}

describe('flower "<task>": requirements, the pause, an edit, flower continue', () => {
  it("pauses with the degraded file, its open questions and the continue line; the goal step reads the edited file, and the end of the run says the missing section was filled in", async () => {
    const { root, workspace, runDir } = setUp();
    // The requirements answer lacks acceptance: frozen degraded, and the person fills it in at the pause.
    const model = await startModel({ policy: workflowPolicy(workspace, { acceptance: false }) });
    const env = cleanEnv(model.env());
    const first = await runFlowerOk(["--workspace", "ws", "Fix the flaky test"], {
      env,
      cwd: root,
      timeoutMs: 90_000,
    });
    const file = join(workspace, ".flower", "notes", "requirements-fix-the-flaky-test.md");
    expect(first.stdout).toContain("== step 1/3 · requirements");
    expect(first.stdout).toContain(`<- Requirements confirmation frozen to:\n   ${file}\n`);
    expect(first.stdout).toContain(
      "!! Requirements confirmation degraded (missing: acceptance) — an incomplete one was frozen; the run goes on\n",
    );
    expect(first.stdout).toMatch(/^ {2}- Acceptance {6}\(empty\)$/m);
    expect(first.stdout).toContain("Paused after the requirements step.");
    expect(first.stdout).toContain(`  file  ${file}`);
    expect(first.stdout).toContain("    - May the test's timeout be raised?");
    expect(goOnArgs(first.stdout)).toEqual(["continue", "fix-the-flaky-test", "--workspace", "ws"]);
    expect(first.stdout).not.toContain("step 2/3");
    expect(model.requests.some(isGoalStep)).toBe(false);
    const paused = records(runDir);
    expect(Object.keys(paused)).toEqual(["fix-the-flaky-test/requirements"]);
    expect(paused["fix-the-flaky-test/requirements"]).toMatchObject({
      status: "done",
      run: "fix-the-flaky-test",
      frozen: { kind: "requirements", path: file, degraded: true, missing: ["acceptance"] },
    });

    // Without a key: the pause is visible to `flower runs` and to bare `flower`.
    const plain = { cwd: root, timeoutMs: 15_000 };
    const runsPaused = await runFlower(["runs"], plain);
    expect(runsPaused.stdout).toMatch(/^fix-the-flaky-test\s+paused\s/m);
    expect(runsPaused.stdout).toContain(
      "\npaused: waiting for you to read its frozen document; flower continue goes on\n",
    );
    const bare = await runFlower(["--workspace", "ws"], plain);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toContain("Continue it with: flower continue fix-the-flaky-test --workspace ws");
    // The file it waits on, for a person whose terminal is gone since the pause.
    expect(bare.stdout).toContain(
      `Read its frozen document first (change a line there if it is wrong): ${join(root, "ws", ".flower", "notes", "requirements-fix-the-flaky-test.md")}\n`,
    );

    // The person changes one line of the frozen file and fills in the missing section (the degraded
    // line under the title stays: flower's own note, dropped when the file is read again).
    const frozen = readFileSync(file, "utf8");
    expect(frozen).toContain(ASSUMPTION);
    expect(frozen).toContain("> [degraded: missing: acceptance]\n");
    expect(frozen).toContain("## Acceptance\n(empty)\n");
    writeFileSync(
      file,
      frozen
        .replace(ASSUMPTION, EDITED)
        .replace("## Acceptance\n(empty)\n", `## Acceptance\n${FILLED_ACCEPTANCE}\n`),
    );
    const before = model.requests.length;
    const requirementsSession = paused["fix-the-flaky-test/requirements"]!.sessionId;

    const second = await runFlower(goOnArgs(first.stdout), { env, cwd: root, timeoutMs: 90_000 });
    expect(second.stderr).toBe("");
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("== step 1/3 · requirements · already done, not redone");
    expect(second.stdout).toContain("== step 2/3 · goal");
    expect(second.stdout).toContain("== step 3/3 · work");
    expect(second.stdout).toContain("WORK-DONE: the flaky test is fixed.");
    expect(second.stdout).toMatch(
      /^ {2}- Constraints {2}From the requirements: The flaky test is test\/timer\.test\.js/m,
    );
    // The end of the run: the document the next steps used is complete, and the terminal says what
    // happened to it — not that the run went on with a degraded one.
    expect(second.stdout).toContain(
      `\nthe requirements document was degraded at freeze (missing: acceptance) and filled in since: ${file}\n`,
    );
    expect(second.stdout).not.toContain("is degraded");

    const after = model.requests.slice(before).filter((request) => request.kind === "main");
    // Nothing of the requirements step ran again.
    expect(after.some((request) => isDocumentStep(request) && !isGoalStep(request))).toBe(false);
    const goalFirst = after.find(isGoalStep)!;
    // A new conversation whose prompt is the file as it was on disk: the edit is there, the previous
    // step's conversation (the README it read) is not.
    expect(goalFirst.sessionId).not.toBe(requirementsSession);
    expect(goalFirst.firstUserText()).toContain(EDITED);
    expect(goalFirst.firstUserText()).not.toContain(ASSUMPTION);
    expect(goalFirst.firstUserText()).toContain(FILLED_ACCEPTANCE);
    expect(goalFirst.firstUserText()).not.toContain("(Note: this document is degraded");
    // The file still has flower's degraded line (the person left it); the complete document the goal
    // and work steps are handed must not carry it.
    expect(readFileSync(file, "utf8")).toContain("> [degraded: missing: acceptance]\n");
    expect(goalFirst.firstUserText()).not.toContain("[degraded:");
    expect(goalFirst.allText()).not.toContain(README_MARKER);
    const workFirst = after.find((request) => !isDocumentStep(request) && !request.isSubagent)!;
    expect(workFirst.firstUserText()).toContain(EDITED);
    expect(workFirst.firstUserText()).toContain("`true` exits 0");
    expect(workFirst.firstUserText()).not.toContain("[degraded:");

    const done = records(runDir);
    expect(Object.keys(done).sort()).toEqual([
      "fix-the-flaky-test/goal",
      "fix-the-flaky-test/requirements",
      "fix-the-flaky-test/work",
    ]);
    for (const record of Object.values(done)) expect(record.status).toBe("done");
    expect(done["fix-the-flaky-test/goal"]!.frozen?.path).toBe(
      join(workspace, ".flower", "notes", "goal-fix-the-flaky-test.md"),
    );

    // `flower runs`: the run's line, then its steps under it, in workflow order.
    const runs = await runFlower(["runs"], plain);
    expect(runs.code).toBe(0);
    const lines = runs.stdout.split("\n");
    const at = lines.findIndex((line) => /^fix-the-flaky-test\s+done\s/.test(line));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(/^ {2}requirements\s+done\s+1\s+\$\d+\.\d{4}\s+\d+\s/);
    expect(lines[at + 2]).toMatch(/^ {2}goal\s+done\s+1\s/);
    expect(lines[at + 3]).toMatch(/^ {2}work\s+done\s+1\s/);

    // `flower show <run>`: its steps and both documents' sections, read from the files as they are.
    const show = await runFlower(["show", "fix-the-flaky-test"], plain);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/^run {9}fix-the-flaky-test$/m);
    expect(show.stdout).toMatch(/^ {2}1 {2}requirements {2}done · /m);
    // Its header names the file and says what became of it: degraded at freeze, filled in at the pause,
    // changed before the goal step read it — not DEGRADED, and not "the next step reads it" once the
    // run is done.
    const header = show.stdout.split("\n").find((line) => line.startsWith("frozen Requirements"));
    expect(header).toBe(
      `frozen Requirements confirmation  ${file} · degraded at freeze (missing: acceptance), filled in since · changed on disk after it was frozen, before the goal step began (it read it as it is now)`,
    );
    expect(header).not.toContain("DEGRADED");
    expect(header).not.toContain("the next step reads it");
    expect(show.stdout).toMatch(/^ {2}- Assumptions {5}The flaky test is test\/timer\.test\.js/m);
    expect(show.stdout).toMatch(/^ {2}- Acceptance {6}`npm test` passes ten times in a row\.$/m);
    expect(show.stdout).toMatch(/^ {2}- Checks {7}`true` exits 0$/m);
    expect(show.stdout).toContain("one step in detail: flower show fix-the-flaky-test/work");

    // `flower show <run>/<step>`: the step as before, with its frozen document at the end.
    const step = await runFlower(["show", "fix-the-flaky-test/goal"], plain);
    expect(step.code).toBe(0);
    expect(step.stdout).toMatch(/^step {8}fix-the-flaky-test\/goal$/m);
    expect(step.stdout).toContain(
      `frozen Goal  ${join(workspace, ".flower", "notes", "goal-fix-the-flaky-test.md")}`,
    );
    expect(step.stdout).toMatch(/^ {2}- Goal {9}The flaky test passes every time\.$/m);
    model.assertNoErrors();
  }, 240_000);
});

describe("flower --yes, a crash at a step boundary, then flower continue", () => {
  // One run carries both rules: `--yes` runs straight through, with a degraded requirements answer the
  // run survives and reports; a kill at a step boundary (twice) and `flower continue`.
  it("--yes runs straight through a degraded requirements answer; killed when the goal step starts, then its flower continue killed when the work step starts: each continue resumes there, never redoes a frozen step, and says the run went on degraded", async () => {
    // The flower process now running, killed at the goal step's first request, then (a continue of
    // the same run) at the work step's.
    const boundaries = [
      isGoalStep,
      (request: ModelRequest) => !isDocumentStep(request) && !request.isSubagent,
    ];
    const running: { spawned?: Spawned } = {};
    let killed = 0;
    const { root, workspace, runDir } = setUp();
    const policy = workflowPolicy(workspace, {
      acceptance: false,
      onRequest: (request) => {
        if (running.spawned && boundaries[killed]?.(request)) {
          killed += 1;
          killGroup(running.spawned.child);
          running.spawned = undefined;
        }
      },
    });
    const model = await startModel({ policy });
    const env = cleanEnv(model.env());
    const crash = async (args: string[]) => {
      running.spawned = spawnFlower(args, { env, cwd: root, timeoutMs: 120_000 });
      return running.spawned.done;
    };

    // Straight through: no pause, the requirements frozen degraded; killed when the goal step starts.
    const crashed = await crash(["--yes", "--workspace", "ws", "--step", "crashy", "Fix the flaky test"]);
    expect(killed).toBe(1);
    expect(crashed.signal).toBe("SIGKILL");
    expect(crashed.stdout).not.toContain("Paused");
    expect(crashed.stdout).toMatch(
      /^!! Requirements confirmation degraded \(.*acceptance.*\) — an incomplete one was frozen; the run goes on$/m,
    );
    const atGoal = records(runDir);
    expect(atGoal["crashy/requirements"]!.status).toBe("done");
    expect(atGoal["crashy/requirements"]!.frozen).toMatchObject({ degraded: true, missing: ["acceptance"] });
    const requirementsFile = atGoal["crashy/requirements"]!.frozen!.path;
    const requirementsText = readFileSync(requirementsFile, "utf8");
    const beforeGoal = model.requests.length;

    // `flower continue` resumes at the goal step; it is killed when the work step starts.
    const resumedAtGoal = await crash(["continue", "--workspace", "ws"]);
    expect(killed).toBe(2);
    expect(resumedAtGoal.signal).toBe("SIGKILL");
    expect(resumedAtGoal.stdout).toContain("== step 1/3 · requirements · already done, not redone");
    expect(resumedAtGoal.stdout).toContain("== step 2/3 · goal");
    const goalRun = model.requests.slice(beforeGoal).filter((request) => request.kind === "main");
    // The requirements agent was not asked again; the goal's was.
    expect(goalRun.some((request) => isDocumentStep(request) && !isGoalStep(request))).toBe(false);
    expect(goalRun.some(isGoalStep)).toBe(true);
    const atWork = records(runDir);
    expect(atWork["crashy/goal"]!.status).toBe("done");
    const goalText = readFileSync(atWork["crashy/goal"]!.frozen!.path, "utf8");
    const before = model.requests.length;

    // `flower continue` resumes at the work step and ends.
    const resumed = await runFlowerOk(["continue", "--workspace", "ws"], {
      env,
      cwd: root,
      timeoutMs: 120_000,
    });
    expect(resumed.stdout).toContain("== step 1/3 · requirements · already done, not redone");
    expect(resumed.stdout).toContain("== step 2/3 · goal · already done, not redone");
    expect(resumed.stdout).toContain("== step 3/3 · work");
    expect(resumed.stdout).toContain("WORK-DONE: the flaky test is fixed.");
    expect(resumed.stdout).toMatch(
      /^!! the requirements document is degraded \(.*acceptance.*\); the run went on with it: /m,
    );
    const after = model.requests.slice(before).filter((request) => request.kind === "main");
    // The frozen steps' agents were not asked again, and their files were not frozen again.
    expect(after.some((request) => isDocumentStep(request) && !isGoalStep(request))).toBe(false);
    expect(after.some(isGoalStep)).toBe(false);
    expect(readFileSync(requirementsFile, "utf8")).toBe(requirementsText);
    expect(existsSync(join(workspace, ".flower", "notes", "archive", "requirements"))).toBe(false);
    expect(readFileSync(records(runDir)["crashy/goal"]!.frozen!.path, "utf8")).toBe(goalText);
    const steps = records(runDir);
    for (const name of ["requirements", "goal", "work"])
      expect(steps[`crashy/${name}`]!.status, name).toBe("done");
    model.assertNoErrors();
  }, 300_000);
});

describe("flower killed between the requirements step's end and the pause", () => {
  // The worst moment for the pause: the step is done (record written, document frozen, lease released)
  // and nothing of the pause is printed yet. The pause is the records' state, not a line on the
  // terminal, so the user who lost the terminal asks flower where the run stands and types what it says.
  it("the run is paused as it stands: flower runs and bare flower say so, and the continue line they print goes on with the goal and work steps, the requirements neither redone nor frozen again", async () => {
    const { root, workspace, runDir } = setUp();
    const marker = join(root, "paused-at");
    const model = await startModel({ policy: workflowPolicy(workspace) });
    const env = cleanEnv(model.env());
    const spawned = spawnFlower(["--workspace", "ws", "Fix the flaky test"], {
      env: { ...env, FLOWER_TEST_PAUSE_AT: "workflow-pause", FLOWER_TEST_PAUSE_FILE: marker },
      cwd: root,
      timeoutMs: 90_000,
    });
    const deadline = Date.now() + 80_000;
    while (!existsSync(marker) && Date.now() < deadline && spawned.child.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(marker), "flower never reached the pause").toBe(true);
    // The flower process only, as a crash would (its `claude` child ended with the step).
    process.kill(spawned.child.pid!, "SIGKILL");
    const killed = await spawned.done;
    expect(killed.signal).toBe("SIGKILL");
    const file = join(workspace, ".flower", "notes", "requirements-fix-the-flaky-test.md");
    expect(killed.stdout).toContain(`<- Requirements confirmation frozen to:\n   ${file}\n`);
    expect(killed.stdout).not.toContain("Paused after");
    expect(killed.stdout).not.toContain("Go on with");
    const atKill = records(runDir);
    expect(Object.keys(atKill)).toEqual(["fix-the-flaky-test/requirements"]);
    const requirements = atKill["fix-the-flaky-test/requirements"]!;
    expect(requirements).toMatchObject({ status: "done", generations: 1, frozen: { path: file } });
    const frozenText = readFileSync(file, "utf8");
    const before = model.requests.length;

    // Without a key: where the run stands, and the line that goes on.
    const plain = { cwd: root, timeoutMs: 15_000 };
    const runs = await runFlower(["runs"], plain);
    expect(runs.stdout).toMatch(/^fix-the-flaky-test\s+paused\s/m);
    const bare = await runFlower(["--workspace", "ws"], plain);
    expect(bare.code).toBe(0);
    const line = /is paused\. Continue it with: flower (continue .*)$/m.exec(bare.stdout)?.[1];
    expect(line, bare.stdout).toBe("continue fix-the-flaky-test --workspace ws");

    const resumed = await runFlower(line!.split(" "), { env, cwd: root, timeoutMs: 120_000 });
    expect(resumed.stderr).toBe("");
    expect(resumed.code, resumed.stdout).toBe(0);
    expect(resumed.stdout).toContain("== step 1/3 · requirements · already done, not redone");
    expect(resumed.stdout).toContain("== step 2/3 · goal");
    expect(resumed.stdout).toContain("== step 3/3 · work");
    expect(resumed.stdout).toContain("WORK-DONE: the flaky test is fixed.");
    expect(resumed.stdout).not.toContain("Paused after");
    const after = model.requests.slice(before).filter((request) => request.kind === "main");
    // The requirements agent was not asked again; its file was not frozen again.
    expect(after.some((request) => isDocumentStep(request) && !isGoalStep(request))).toBe(false);
    expect(after.find(isGoalStep)!.firstUserText()).toContain(ASSUMPTION);
    expect(readFileSync(file, "utf8")).toBe(frozenText);
    expect(existsSync(join(workspace, ".flower", "notes", "archive", "requirements"))).toBe(false);
    const done = records(runDir);
    expect(done["fix-the-flaky-test/requirements"]).toEqual(requirements);
    for (const name of ["requirements", "goal", "work"])
      expect(done[`fix-the-flaky-test/${name}`]!.status, name).toBe("done");
    model.assertNoErrors();
  }, 240_000);
});
