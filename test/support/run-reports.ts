/**
 * Recorded workflow runs, made the way a user makes them: a `--yes` run whose goal check never passes
 * (goal-not-met) against a scripted model, at the CLI's default window (test/e2e/cli/goal-not-met.test.ts),
 * and `flower report <run>` of such a run or of the demo (the demo itself is recorded once per test run:
 * test/support/shared-demo.ts).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { startFakeModel, text, type FakeModel, type Policy } from "../../src/testing/index.js";
import { cleanEnv, runFlower, type Finished } from "../e2e/cli/helpers.js";
import { goalDocument, isDocumentStep, isGoalStep, requirementsAnswer } from "../e2e/cli/workflow-answers.js";

/** The goal-not-met run's task, as a person types it: two lines, kept as two lines on the page. */
export const GNM_TASK = "Write out.txt\nwith one line: hello";
export const GNM_CHECK = "test -f out.txt";

export interface RecordedRun {
  run: string;
  runDir: string;
  workspace: string;
}

/**
 * The model of a run whose goal is `out.txt exists` (checked by `test -f out.txt`) and whose work
 * step claims "Done: wrote out.txt." without writing it: the checks contradict the claim every round.
 */
export function goalNotMetPolicy(): Policy {
  return (request) => {
    if (request.kind === "title" || request.kind === "compact") return undefined;
    if (isGoalStep(request)) return text(goalDocument("out.txt exists.", [GNM_CHECK]));
    if (isDocumentStep(request)) return text(requirementsAnswer());
    if (request.isSubagent) return text("unused");
    return text("Done: wrote out.txt.");
  };
}

/**
 * A workflow run named `gnm` whose check `test -f out.txt` fails every round: nothing writes the file.
 * `finished` is what the terminal showed.
 */
export async function recordGoalNotMet(root: string): Promise<RecordedRun & { finished: Finished }> {
  mkdirSync(root, { recursive: true });
  let model: FakeModel | undefined;
  try {
    model = await startFakeModel({
      policy: goalNotMetPolicy(),
    });
    const done = await runFlower(["--yes", "--step", "gnm", GNM_TASK], {
      env: cleanEnv(model.env()),
      cwd: root,
      timeoutMs: 150_000,
    });
    if (done.code !== 1) throw new Error(`the gnm run ended ${done.code}: ${done.stdout}\n${done.stderr}`);
    model.assertNoErrors();
    return { run: "gnm", runDir: join(root, "runs"), workspace: root, finished: done };
  } finally {
    await model?.close();
  }
}

/** `flower report <run>` in a language; returns the file it wrote. */
export async function reportOf(recorded: RecordedRun, lang: string): Promise<string> {
  const out = join(recorded.runDir, `report-${recorded.run}.${lang}.html`);
  const done = await runFlower(
    ["report", recorded.run, "--run-dir", recorded.runDir, "--lang", lang, "--out", out],
    { env: cleanEnv(), cwd: recorded.workspace, timeoutMs: 30_000 },
  );
  if (done.code !== 0) throw new Error(`flower report failed (${done.code}): ${done.stderr}`);
  return done.stdout.trim();
}
