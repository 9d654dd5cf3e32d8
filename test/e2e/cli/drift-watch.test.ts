/**
 * The drift watch (issue: a night you can trust), as a user meets it: the built CLI, the real `claude`
 * binary and the offline kit. A scripted model that writes plan notes forever and never touches what the
 * goal's check looks for: at each handoff flower runs the check and counts the files, shows where the
 * run stands, and after three generations without progress pauses at the handoff with that evidence
 * (exit 0), and `--notify` is told so (event `drift`, with the handoff and the line that goes on). The
 * person adds a line to the handoff; `flower continue` starts the successor from it.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { ManifestFile, StepRecord } from "../../../src/public/stores.js";
import { text, toolUse, type ModelRequest, type Reply } from "../../../src/testing/index.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { cleanEnv, runFlower, useCliTest } from "./helpers.js";
import { FIXED_FILE_GOAL, isDocumentStep, isGoalStep, requirementsAnswer } from "./workflow-answers.js";

const { temp, startModel } = useCliTest();

/** Two real sessions per generation (the work and its writing turn), three generations, then a continue. */
const TIMEOUT = 240_000;

function manifest(root: string): ManifestFile {
  return JSON.parse(readFileSync(join(root, "runs", "manifest.json"), "utf8")) as ManifestFile;
}

const HANDOFF = handoffMarkdown({
  doing: "Planning the fix: one more note on the approach.",
  decided: ["Write the plan down before touching code."],
  next: ["Write another plan note."],
});

/** The note-writer: every generation sends three subagents who each write a plan note, then fills its context. */
function noteWriter(person: string) {
  let notes = 0;
  return (request: ModelRequest): Reply | undefined => {
    if (isDocumentStep(request)) return text(isGoalStep(request) ? FIXED_FILE_GOAL : requirementsAnswer());
    if (request.isHandoffTurn) return text(HANDOFF);
    if (!request.isMainThread) {
      if (request.countToolResults("Write") > 0) return text("Wrote another plan note.");
      notes += 1;
      return toolUse("Write", {
        file_path: `.flower/notes/plan-${notes}.md`,
        content: `Plan, take ${notes}.`,
      });
    }
    if (request.kind !== "main") return undefined;
    // After the pause: the person's line in the handoff is what this generation acts on.
    if (request.firstUserText().includes(person)) {
      if (request.countToolResults("Agent") === 0)
        return toolUse("Agent", {
          subagent_type: "engineer",
          description: "Fix",
          prompt: "Create fixed.txt.",
        });
      return text("Fixed after the pause.");
    }
    if (request.countToolResults("Agent") < 3)
      return toolUse("Agent", {
        subagent_type: "engineer",
        description: "Plan",
        prompt: "Write a plan note.",
      });
    // A long glance fills the context past the 90k window's line (40k): a handoff.
    return { ...toolUse("Bash", { command: "ls" }), outputTokens: 60_000 };
  };
}

describe("the drift watch", () => {
  it(
    "three generations with no newly passing check and no changed file: paused at the handoff with the evidence; continue goes on",
    async () => {
      const person = "PERSON: stop planning, create fixed.txt now.";
      const writer = noteWriter(person);
      let fixing = false;
      const model = await startModel({
        policy: (request) => {
          // The subagent the fixing generation sends writes the file the check looks for.
          if (fixing && !request.isMainThread && !isDocumentStep(request) && !request.isHandoffTurn) {
            if (request.countToolResults("Write") > 0) return text("Created fixed.txt.");
            return toolUse("Write", { file_path: "fixed.txt", content: "fixed\n" });
          }
          return writer(request);
        },
      });
      const root = temp.make("flower-drift-");
      writeFileSync(join(root, "README.md"), "A project with a bug.\n");
      // The person's notifier, outside the checkout: each payload it gets, one line.
      const home = temp.make("flower-drift-notifier-");
      const notified = join(home, "notified.jsonl");
      writeFileSync(join(home, "record.sh"), `cat >> ${notified}\n`);
      const env = cleanEnv(model.env());
      const notify = ["--notify", `sh ${join(home, "record.sh")}`];
      const first = await runFlower(["--yes", "--window", "90000", ...notify, "Fix the bug"], {
        env,
        cwd: root,
        timeoutMs: TIMEOUT,
      });
      expect(first.code, first.stdout + first.stderr).toBe(0);
      const out = first.stdout;
      // Where the run stood at each handoff, as it came.
      expect(out).toContain("at generation 1's handoff: 0/1 checks pass (none newly) · 0 files changed");
      const lines = out.split("\n");
      const pauseAt = lines.indexOf(
        "!! 3 generations in a row made no newly passing check and changed no file: paused at this handoff for a person, the next session not started.",
      );
      expect(pauseAt, out).toBeGreaterThan(-1);
      // One truth at the pause: the handoff is written for the next session, and no line says that
      // session starts (generations 2 and 3 did start, each said once).
      expect(lines.filter((line) => line.startsWith("<- new session starts from the handoff"))).toHaveLength(
        2,
      );
      const sincePause = lines.slice(lines.lastIndexOf("<- handoff written to:"), pauseAt);
      expect(sincePause.filter((line) => /new session|successor/.test(line))).toEqual([]);
      expect(out).not.toContain("new session next");
      const handoffLine = /the handoff \(edit it before you continue\): (\S+)/.exec(out);
      expect(handoffLine, out).not.toBeNull();
      const goOn = /Paused for a person: .*then: (flower continue\S*(?: \S+)*)\.$/m.exec(out)?.[1];
      expect(goOn, out).toBeDefined();

      const told = readFileSync(notified, "utf8").trim().split("\n");
      expect(told).toHaveLength(1);
      expect(JSON.parse(told[0]!)).toMatchObject({
        event: "drift",
        step: "work",
        status: "paused",
        why: `paused: generations 1, 2, 3 made no newly passing check and changed no file; read the handoff ${handoffLine![1]}, add what the next generation should know, then go on`,
        continue: goOn,
      });

      const work = Object.values(manifest(root).steps).find(
        (step) => step.workflow?.name === "work",
      ) as StepRecord;
      expect(work.status).toBe("stopped");
      expect(work.generations).toBe(3);
      expect(work.drift?.generations).toEqual([1, 2, 3]);
      expect(work.pendingHandoff).not.toBeNull();
      for (const generation of work.history)
        expect(generation.progress).toMatchObject({ passing: [], checks: 1, newlyPassing: [], files: 0 });

      // Paused, as the notifier said: the run and its step, in the table and in --json.
      const runs = await runFlower(["runs"], { env, cwd: root });
      const rows = runs.stdout.split("\n");
      expect(rows.find((row) => row.startsWith("fix-the-bug "))).toMatch(/^fix-the-bug\s+paused\s/);
      expect(rows.find((row) => row.startsWith("  work "))).toMatch(/^ {2}work\s+paused\s/);
      expect(runs.stdout).not.toMatch(/\bstopped\b/);
      const json = (await runFlower(["runs", "--json"], { env, cwd: root })).stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { name: string; status: string });
      expect(json.find((row) => row.name === "work")?.status).toBe("paused");

      const shown = await runFlower(["show", work.step], { env, cwd: root });
      expect(shown.stdout).toContain("generations 1, 2, 3 made no newly passing check and changed no file");
      expect(shown.stdout).toContain("0/1 checks pass (none newly)");

      // The person reads the handoff, adds a line, and goes on with the printed command.
      appendFileSync(resolve(root, handoffLine![1]!), `\n\n${person}\n`);
      fixing = true;
      const [command, ...args] = goOn!.split(" ");
      expect(command).toBe("flower");
      const resumed = await runFlower(args, { env, cwd: root, timeoutMs: TIMEOUT });
      expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain("Fixed after the pause.");
      const after = Object.values(manifest(root).steps).find((step) => step.workflow?.name === "work")!;
      expect(after.status).toBe("done");
      expect(after.generations).toBe(4);
      // The continue was typed without --notify: the target given at the start is told again.
      const toldAfter = readFileSync(notified, "utf8").trim().split("\n");
      expect(toldAfter).toHaveLength(2);
      expect(JSON.parse(toldAfter[1]!)).toMatchObject({ event: "done", status: "done" });
      model.assertNoErrors();
    },
    TIMEOUT * 2,
  );

  it("a --drift-after that is not a whole number: one line naming it, exit 2", async () => {
    const root = temp.make("flower-drift-bad-");
    const bad = await runFlower(["--drift-after", "three", "Fix the bug"], { env: cleanEnv({}), cwd: root });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(
      'flower: --drift-after must be a whole number of generations (0 turns the drift watch off), got "three"',
    );
  });
});
