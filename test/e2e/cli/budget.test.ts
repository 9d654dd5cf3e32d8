/**
 * `--budget USD`: one ceiling over everything a run spends, through the built `flower`, the real binary
 * and the offline kit. A coordinator that keeps handing work to engineers (subagents) is stopped by the
 * run's budget at a message boundary: status `budget-reached`, exit 1, the line with the figure and the
 * command that goes on; the record, `flower runs --json` and `flower show` say what the kit served, at
 * the binary's prices; `--notify` is told `budget-reached`; a continue with a budget still below the
 * spend says so and starts nothing; `flower continue --budget <higher>` goes on to done. A bad value is
 * one line naming it, exit 2, nothing written.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ManifestFile, StepRecord } from "../../../src/public/stores.js";
import { text, toolUse, type ModelRequest, type Reply } from "../../../src/testing/index.js";
import { servedCost } from "../../support/served-cost.js";
import { cleanEnv, runFlower, runFlowerOk, useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();

function record(root: string, step: string): StepRecord {
  return (JSON.parse(readFileSync(join(root, "runs", "manifest.json"), "utf8")) as ManifestFile).steps[step]!;
}

/** Delegations the coordinator would make before it says it is finished: far more than the budget buys. */
const PARTS = 20;

/**
 * The coordinator hands one part after another to an engineer, who runs one command and answers; after a
 * continue it says it is finished.
 */
function delegatingPolicy() {
  return (request: ModelRequest): Reply | undefined => {
    if (request.kind === "title" || request.kind === "compact") return undefined;
    if (request.kind === "subagent")
      return request.countToolResults("Bash") === 0
        ? toolUse("Bash", { command: "echo built" })
        : text("Engineer: part built.");
    if (request.lastUserText().includes("Continue the task"))
      return text("Finished after the budget was raised.");
    const done = request.countToolResults("Agent");
    if (done >= PARTS) return text("All parts built.");
    return toolUse("Agent", {
      subagent_type: "engineer",
      description: `Part ${done + 1}`,
      prompt: `Build part ${done + 1}.`,
    });
  };
}

describe("flower --budget", () => {
  it("a coordinator with engineers stops at the run's budget at a boundary; the figures agree with what was served; continue --budget <higher> goes on to done", async () => {
    const root = temp.make("flower-budget-");
    const model = await startModel({ policy: delegatingPolicy() });
    const env = cleanEnv(model.env());
    const notified = join(root, "notified.json");
    const budget = 0.1;
    const run = await runFlower(
      [
        "--direct",
        "--step",
        "b",
        "--budget",
        String(budget),
        "--notify",
        `cat > ${notified}`,
        "Build the parts",
      ],
      { env, cwd: root, timeoutMs: 150_000 },
    );
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const stopped = record(root, "b");
    expect(stopped.status).toBe("budget-reached");
    expect(stopped.settings?.budgetUsd).toBe(budget);
    // Stopped well before the coordinator was finished: the budget, not the work, ended it.
    expect(stopped.result).toBeNull();
    const mainServed = model.exchanges.filter((e) => e.usage && e.kind === "main");
    const workerServed = model.exchanges.filter((e) => e.usage && e.kind === "subagent");
    expect(mainServed.length).toBeLessThan(PARTS);
    expect(workerServed.length).toBeGreaterThan(0);

    // Every response the kit served is in the figure (main thread and engineers), at the binary's prices.
    const served = model.exchanges.filter((exchange) => exchange.usage);
    const cost = servedCost(served);
    expect(Math.abs(stopped.costUsd - cost) / cost).toBeLessThan(0.01);
    expect(stopped.numTurns).toBe(served.length);
    // Reached, and stopped at the next boundary: over the budget by less than the last few responses.
    const largest = Math.max(...served.map((exchange) => servedCost([exchange])));
    expect(stopped.costUsd).toBeGreaterThanOrEqual(budget);
    expect(stopped.costUsd - budget).toBeLessThan(3 * largest);
    expect(stopped.budgetStop).toMatchObject({ by: "run", budgetUsd: budget });
    expect(stopped.budgetStop!.spentUsd).toBeCloseTo(stopped.costUsd, 8);

    const figure = `$${stopped.costUsd.toFixed(4)}`;
    // The live view says the spend of the budget beside the gauge as the run goes.
    expect(run.stdout).toMatch(/^# context .* · spent \$0\.\d{4} of \$0\.1000 budget$/m);
    expect(run.stdout).toContain(`Budget reached: spent ${figure} of $0.1000; flower continue b --budget `);
    const notice = JSON.parse(readFileSync(notified, "utf8")) as Record<string, string>;
    expect(notice).toMatchObject({ event: "budget-reached", run: "b", status: "budget-reached" });
    expect(notice.why).toContain(`spent ${figure} of $0.1000`);
    expect(notice.continue).toMatch(/^flower continue b --budget \d/);

    const runs = await runFlowerOk(["runs"], { env, cwd: root });
    expect(runs.stdout).toContain("budget reached");
    expect(runs.stdout).toContain(`spent ${figure} of $0.1000`);
    const json = JSON.parse(
      (await runFlowerOk(["runs", "--json"], { env, cwd: root })).stdout.trim().split("\n")[0]!,
    );
    // A --direct run's step is its run: named so, as continue, show and diff take it.
    expect(json).toMatchObject({
      step: "b",
      run: "b",
      name: null,
      status: "budget-reached",
      budgetUsd: budget,
    });
    expect(json.costUsd).toBeCloseTo(stopped.costUsd, 10);
    const shown = await runFlowerOk(["show", "b"], { env, cwd: root });
    expect(shown.stdout).toContain("budget reached");
    expect(shown.stdout).toContain(`spent ${figure} of $0.1000`);

    // A budget still below what was spent: one line, nothing started, nothing served.
    const requestsBefore = model.requests.length;
    const below = await runFlower(["continue", "b", "--budget", "0.05"], { env, cwd: root });
    expect(below.code).toBe(2);
    expect(below.stderr.trim()).toMatch(
      new RegExp(
        `^flower: the run has spent \\${figure}, the budget \\$0\\.0500 is already reached; nothing started`,
      ),
    );
    expect(below.stderr.trim().split("\n")).toHaveLength(1);
    expect(model.requests.length).toBe(requestsBefore);
    expect(record(root, "b").status).toBe("budget-reached");

    // A higher budget goes on, in the same session, to done; the record keeps the new budget.
    const higher = (stopped.costUsd + 1).toFixed(2);
    const continued = await runFlower(["continue", "b", "--budget", higher], {
      env,
      cwd: root,
      timeoutMs: 90_000,
    });
    expect(continued.code, continued.stdout + continued.stderr).toBe(0);
    const done = record(root, "b");
    expect(done.status).toBe("done");
    expect(done.result).toBe("Finished after the budget was raised.");
    expect(done.settings?.budgetUsd).toBe(Number(higher));
    expect(done.budgetStop).toBeUndefined();
    expect(done.sessionId).toBe(stopped.sessionId);
    model.assertNoErrors();
  }, 300_000);

  it("a value that is not a positive number of dollars: one line naming it, exit 2, nothing written", async () => {
    const root = temp.make("flower-budget-bad-");
    for (const value of ["0", "-1", "lots", "1e3"]) {
      const run = await runFlower(["--budget", value, "Say hello"], { env: cleanEnv({}), cwd: root });
      expect(run.code).toBe(2);
      expect(run.stderr.trim()).toBe(`flower: --budget must be a positive number of dollars, got "${value}"`);
      expect(run.stdout).toBe("");
    }
    expect(existsSync(join(root, "runs"))).toBe(false);
  });
});
