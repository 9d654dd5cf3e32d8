/**
 * `flower --direct --review` through the built binary, the real `claude` and the offline kit: the reviewer's
 * "not met" sends the coordinator back (a guard round in the live view), an unreadable verdict ends the
 * step goal-not-met with exit code 1, and `flower show` lists the guard's evidence.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

/** Several sessions and check runs each: generous on a loaded 2-core machine. */
const TIMEOUT = 150_000;
import { REVIEW_SIGNATURE } from "../../../src/goal/index.js";
import { text, type ModelRequest } from "../../../src/testing/index.js";
import { cleanEnv, runFlower, useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();

it(
  "--review: not met sends the work back, an unreadable verdict exits 1 with goal-not-met, flower show lists it",
  async () => {
    const verdicts = [
      "- ok.txt exists — not met — evidence: there is no ok.txt in the workspace",
      "I had a look around and it seems fine overall.",
    ];
    let reviews = 0;
    const model = await startModel({
      policy: (request: ModelRequest) =>
        request.firstUserText().includes(REVIEW_SIGNATURE) ? text(verdicts[reviews++]!) : text("All done."),
    });
    const root = temp.make("flower-cli-review-");
    const runDir = join(root, "runs");
    writeFileSync(join(root, ".keep"), "");
    const env = cleanEnv(model.env());
    const run = await runFlower(
      [
        "--direct",
        "--review",
        "--workspace",
        root,
        "--run-dir",
        runDir,
        "--step",
        "reviewed",
        "Create ok.txt",
      ],
      { env, cwd: root, timeoutMs: 60_000 },
    );
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("!! review: met 0 · not met 1 · cannot tell 0");
    expect(run.stdout).toContain("   x ok.txt exists");
    expect(run.stdout).toContain(">> guard round 1/3 — the reviewer found criteria not met; sent back");
    expect(run.stdout).toContain("!! review: the verdict could not be read; it does not count as a pass");
    expect(run.stdout).toMatch(/<= goal-not-met reviewed/);
    // The agent's claim comes before the verdict, never after it: the last lines are the verdict and why.
    const lines = run.stdout.trimEnd().split("\n");
    const answer = lines.lastIndexOf("── answer ──");
    expect(lines[answer + 1]).toBe("All done.");
    expect(lines.slice(answer + 2)).toEqual([
      "",
      "reviewed: GOAL NOT MET (the answer above is the agent's claim, not the verdict)",
      "  every round's evidence: flower show reviewed",
      expect.stringMatching(/^ {2}! .*review/),
    ]);
    expect(reviews).toBe(2);

    const show = await runFlower(["show", "reviewed", "--run-dir", runDir], {
      env,
      cwd: root,
      timeoutMs: 20_000,
    });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain("goal guard: GOAL NOT MET · 1 of 3 guard rounds");
    expect(show.stdout).toContain("review 1 (after the first session): not met");
    expect(show.stdout).toContain("not met: ok.txt exists — there is no ok.txt in the workspace");
    expect(show.stdout).toContain("review 2 (after round 1): could not be read");
    expect(show.stdout).toMatch(/answer: .*goal-review-2\.md/);
  },
  TIMEOUT,
);
