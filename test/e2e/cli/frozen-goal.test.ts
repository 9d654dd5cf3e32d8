/**
 * The goal stays frozen under the work (issue 22, item 2), through the built `flower` binary, the real
 * `claude` binary and the offline kit. A `--yes` run whose subagent rewrites the frozen goal's check to
 * `true` (and leaves a file next to it) ends goal-not-met; `flower continue <run>`, exactly as printed,
 * still runs the goal recorded when the work began and ends goal-not-met again, and says the file
 * changed; `flower show` says so too. Only `--reread-goal` takes the edited goal, and the record keeps
 * both versions and when it switched.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ManifestFile, StepRecord } from "../../../src/public/stores.js";
import { text, toolUse, type FakeModel, type ModelRequest } from "../../../src/testing/index.js";
import { cleanEnv, runFlower, runFlowerOk, useCliTest } from "./helpers.js";
import { isDocumentStep, isGoalStep, requirementsAnswer } from "./workflow-answers.js";

const { temp, startModel } = useCliTest();
let model: FakeModel | undefined;

/** The check the goal step writes: the file the work must make (nobody makes it). */
const CHECK = "test -f result.txt";
const CHANGED = "changed on disk after the work began — not used";

const GOAL = [
  "## Goal",
  "result.txt exists.",
  "",
  "## Checks",
  `- \`${CHECK}\` exits 0`,
  "",
  "## Constraints",
  "- None.",
  "",
  "## Non-goals",
  "- (empty)",
].join("\n");

/** The frozen goal file of the run (its name carries the run id). */
function goalFile(workspace: string): string {
  const notes = join(workspace, ".flower", "notes");
  const name = readdirSync(notes).find((file) => /^goal-.*\.md$/.test(file));
  expect(name).toBeDefined();
  return join(notes, name!);
}

/**
 * requirements and goal: their documents. work: the coordinator sends the engineer once; the engineer
 * rewrites the goal's check to `true` and leaves a note next to the file, then claims success; the
 * coordinator says it is done, every round.
 */
function tamperPolicy(workspace: string) {
  return (request: ModelRequest) => {
    if (request.kind === "title" || request.kind === "compact") return undefined;
    if (isDocumentStep(request)) return text(isGoalStep(request) ? GOAL : requirementsAnswer());
    if (request.isSubagent) {
      if (request.countToolResults("Bash") === 0) {
        const file = goalFile(workspace);
        return toolUse("Bash", {
          command: `sed -i 's/${CHECK}/true/' '${file}' && echo 'the check is true now' > '${file}.note'`,
          description: "rewrite the goal's check",
        });
      }
      return text("Done: the goal's check passes now.");
    }
    if (request.countToolResults("Agent") === 0)
      return toolUse("Agent", {
        description: "make result.txt",
        prompt: "Make the goal's check pass.",
        subagent_type: "engineer",
      });
    return text("All done: the goal's check passes.");
  };
}

function workRecord(runDir: string): StepRecord {
  const steps = (JSON.parse(readFileSync(join(runDir, "manifest.json"), "utf8")) as ManifestFile).steps;
  const work = Object.values(steps).find((record) => record.workflow?.name === "work");
  expect(work).toBeDefined();
  return work!;
}

/** The arguments of the printed "Try again …: flower continue …" line. */
function tryAgainArgs(stdout: string): string[] {
  const line = /^Try again \(the goal recorded when the work began\): flower (continue .*)$/m.exec(
    stdout,
  )?.[1];
  expect(line, stdout).toBeDefined();
  return line!.trim().split(/\s+/);
}

describe("a subagent rewrites the frozen goal's check during the work", () => {
  it("continue keeps the recorded goal and says the file changed; --reread-goal switches, recorded with both", async () => {
    const root = temp.make("flower-frozen-goal-");
    const workspace = join(root, "ws");
    const runDir = join(root, "runs");
    mkdirSync(workspace);
    model = await startModel({ policy: (request) => tamperPolicy(workspace)(request) });
    const env = cleanEnv(model.env());
    const options = { env, cwd: root, timeoutMs: 240_000 };

    const first = await runFlower(["--yes", "--workspace", "ws", "Make the result file"], options);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(1);
    expect(first.stdout).toContain("goal not met");
    const file = goalFile(workspace);
    // The subagent did rewrite the file; the guard ran the check it began with.
    expect(readFileSync(file, "utf8")).toContain("- `true` exits 0");
    expect(existsSync(`${file}.note`)).toBe(true);
    const started = workRecord(runDir);
    expect(started.status).toBe("goal-not-met");
    expect(started.guard!.goal!.checks.map((check) => check.command)).toEqual([CHECK]);
    expect(started.guard!.checkRuns.every((run) => run.results[0]!.command === CHECK)).toBe(true);

    // The line flower printed, as typed.
    const again = await runFlower(tryAgainArgs(first.stdout), options);
    expect(again.stderr).toBe("");
    expect(again.code).toBe(1);
    // The live view: what changed, then the file on a line of its own.
    expect(again.stdout).toMatch(new RegExp(`^!  Goal: ${CHANGED}.*\n {3}${escape(file)}$`, "m"));
    expect(again.stdout).toContain("goal not met");
    expect(existsSync(join(workspace, "result.txt"))).toBe(false);
    const kept = workRecord(runDir);
    expect(kept.status).toBe("goal-not-met");
    expect(kept.guard!.goal!.checks.map((check) => check.command)).toEqual([CHECK]);
    expect(kept.guard!.goalSwitches).toBeUndefined();
    const runs = kept.guard!.checkRuns;
    expect(runs.length).toBeGreaterThan(started.guard!.checkRuns.length);
    expect(runs.every((run) => run.results.map((result) => result.command).join() === CHECK)).toBe(true);
    // What the work step began with stays in its record; the file is not it.
    expect(kept.workflow!.read!.find((read) => read.kind === "goal")!.text).toContain(`\`${CHECK}\``);

    const run = kept.run!;
    const show = await runFlower(["show", run, "--run-dir", runDir], { cwd: root, timeoutMs: 20_000 });
    expect(show.code).toBe(0);
    // The goal as the work runs it, the file's change marked as not used.
    expect(show.stdout).toContain(`frozen Goal  ${file} · ! ${CHANGED}`);
    expect(show.stdout).toMatch(/^ {2}- Checks {7}`test -f result\.txt` exits 0$/m);
    expect(show.stdout).not.toContain("the next step reads it as it is now");
    const showWork = await runFlower(["show", kept.step, "--run-dir", runDir], {
      cwd: root,
      timeoutMs: 20_000,
    });
    expect(showWork.stdout).toContain(`! Goal ${file}: ${CHANGED}`);
    expect(showWork.stdout).toContain(`  goal: \`${CHECK}\``);

    // A person who wants the edited goal says so.
    const before = Date.now();
    const reread = await runFlowerOk([...tryAgainArgs(first.stdout), "--reread-goal"], options);
    expect(reread.stdout).toContain(
      `<- Goal: changed on disk after the work began — used, as asked (--reread-goal)\n   ${file}\n`,
    );
    const switched = workRecord(runDir);
    expect(switched.status).toBe("done");
    expect(switched.guard!.goal!.checks.map((check) => check.command)).toEqual(["true"]);
    const [change, ...more] = switched.guard!.goalSwitches!;
    expect(more).toEqual([]);
    expect(change!.from.checks.map((check) => check.command)).toEqual([CHECK]);
    expect(change!.to.checks.map((check) => check.command)).toEqual(["true"]);
    expect(change!.from.goalText).toContain(`\`${CHECK}\``);
    expect(change!.to.goalText).toContain("- `true` exits 0");
    expect(change!.path).toBe(file);
    expect(Date.parse(change!.at)).toBeGreaterThanOrEqual(before - 1000);
    expect(switched.guard!.checkRuns.at(-1)!.results.map((result) => result.command)).toEqual(["true"]);
    // The file is the text in use now: nothing left to report.
    const showAfter = await runFlower(["show", run, "--run-dir", runDir], { cwd: root, timeoutMs: 20_000 });
    expect(showAfter.stdout).not.toContain(CHANGED);
    const showSwitch = await runFlower(["show", kept.step, "--run-dir", runDir], {
      cwd: root,
      timeoutMs: 20_000,
    });
    expect(showSwitch.stdout).toMatch(
      /goal switched at \S+ \(asked for\): checks `test -f result\.txt` → `true`/,
    );
  }, 600_000); // three flower runs of several sessions each: generous on a loaded 2-core machine
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
