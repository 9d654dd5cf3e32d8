/**
 * A fleet's budgets on a real PostgreSQL store, through the built CLI, the real binary and the kit: a
 * worker started with `--budget-per-run` and `--budget-per-day`. A run submitted without a budget runs
 * under the worker's per-run one and stops at a boundary as `budget-reached` (the worker's log, `flower
 * runs` and its notifier say the figure and the command that goes on); a run submitted with its own
 * budget is held to that one and crosses the day's, so it stops too; once the day's spend has reached
 * the day budget, a third run is not started — it stays queued, and the worker says why once.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse, type ModelRequest, type Reply } from "../../../src/testing/index.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import { fleetRows, startWorker, submitRun, until } from "./fleet-helpers.js";
import { cleanEnv, runFlowerOk, useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();
const server = usePostgresServer();

/** The coordinator hands part after part to an engineer: far more than any budget here buys. */
function delegating(request: ModelRequest): Reply | undefined {
  if (request.kind === "title" || request.kind === "compact") return undefined;
  if (request.kind === "subagent")
    return request.countToolResults("Bash") === 0
      ? toolUse("Bash", { command: "echo built" })
      : text("Engineer: part built.");
  const done = request.countToolResults("Agent");
  if (done >= 40) return text("All parts built.");
  return toolUse("Agent", {
    subagent_type: "engineer",
    description: `Part ${done + 1}`,
    prompt: `Build part ${done + 1}.`,
  });
}

describe("a fleet's budgets", () => {
  it("a run stops at the worker's per-run budget, another crosses the day's, and then no run starts until the next day", async () => {
    const model = await startModel({ policy: delegating });
    const root = temp.make("flower-fleet-budget-");
    writeFileSync(join(root, "README.md"), "A project.\n");
    const home = temp.make("flower-fleet-budget-notifier-");
    const notified = join(home, "notified.jsonl");
    writeFileSync(join(home, "record.sh"), `cat >> ${notified}\n`);
    const schema = freshSchema("budget");
    const url = `${server().url}?schema=${schema}`;
    const env = cleanEnv();
    const perRun = await submitRun(url, "Build the parts", ["--direct"], root);
    const worker = startWorker(model, temp, {
      name: "a",
      url,
      workspace: root,
      timeoutMs: 300_000,
      flags: [
        "--budget-per-run",
        "0.1",
        "--budget-per-day",
        "0.25",
        "--notify",
        `sh ${join(home, "record.sh")}`,
      ],
    });
    const status = async (run: string) =>
      (await fleetRows(server().url, schema)).find((row) => row.run === run)?.status;
    await until(
      async () => (await status(perRun)) === "budget-reached",
      "the first run to reach its budget",
      200_000,
    );

    // Its own budget (more than the day's): the day's is what stops it.
    const own = await submitRun(url, "Build more parts", ["--direct", "--budget", "5"], root);
    await until(
      async () => (await status(own)) === "budget-reached",
      "the second run to cross the day's budget",
      200_000,
    );
    const held = await submitRun(url, "Build the last parts", ["--direct"], root);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(await status(held)).toBe("queued");

    const runs = await runFlowerOk(["runs", "--store", url, "--json"], { env, cwd: root });
    // One JSON line per step (a --direct run's step is named as the run), then the runs with no step yet.
    const lines = runs.stdout
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as {
            run?: string;
            step?: string;
            status?: string;
            costUsd: number;
            budgetUsd?: number;
            fleet?: { status: string };
          },
      );
    const byName = new Map(lines.map((row) => [row.step ?? row.run!, row] as const));
    expect(byName.get(held)?.fleet?.status).toBe("queued");
    const first = byName.get(perRun)!;
    expect(first.status).toBe("budget-reached");
    expect(first.budgetUsd).toBe(0.1);
    expect(first.costUsd).toBeGreaterThanOrEqual(0.1);
    // Stopped at a boundary: over by less than a few responses, not by the forty parts.
    expect(first.costUsd).toBeLessThan(0.2);
    const second = byName.get(own)!;
    expect(second.budgetUsd).toBe(5);
    expect(first.costUsd + second.costUsd).toBeGreaterThanOrEqual(0.25);
    expect(first.costUsd + second.costUsd).toBeLessThan(0.35);

    worker.child.kill("SIGTERM");
    const log = (await worker.done).stdout;
    expect(log).toMatch(
      new RegExp(
        `^${perRun}: budget reached \\(stopped at its budget: spent \\$0\\.1\\d{3} of \\$0\\.1000\\)$`,
        "m",
      ),
    );
    expect(log).toMatch(
      new RegExp(
        `^${own}: budget reached \\(stopped at its budget: spent \\$0\\.\\d{4} of \\$0\\.2500 \\(the fleet's budget for today, UTC\\)\\)$`,
        "m",
      ),
    );
    const day = new Date().toISOString().slice(0, 10);
    const said = log
      .split("\n")
      .filter((line) => line.startsWith(`the fleet's budget for ${day} (UTC) is spent:`));
    expect(said).toHaveLength(1);
    expect(log).not.toContain(`${held}: taken`);

    const told = readFileSync(notified, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(told.map((one) => [one.run, one.event])).toEqual([
      [perRun, "budget-reached"],
      [own, "budget-reached"],
    ]);
    expect(told[0]!.continue).toMatch(
      new RegExp(`^flower continue ${perRun} --store '.*' --budget 0\\.\\d+$`),
    );
    model.assertNoErrors();
  }, 600_000);
});
