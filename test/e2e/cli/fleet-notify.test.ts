/**
 * `--notify` in a fleet (issue 35, item 5), each command as a person types it, through the built
 * `flower`, the real `claude` binary, the offline kit and a real PostgreSQL server: a run submitted
 * with `--notify` and a worker started with `--notify` are both told, by the worker that drives the
 * run, when it waits for `flower approve` (with that very line) and when it is done, each exactly once.
 * A run's notifier that fails is said once on the worker's stderr for that run, though it failed at
 * both events; the run and the worker go on as if it had answered.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Notification } from "../../../src/index.js";
import { text } from "../../../src/testing/index.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import { fleetProject, fleetRows, startWorker, submitRun, until } from "./fleet-helpers.js";
import { cleanEnv, runFlowerOk, useCliTest } from "./helpers.js";
import { goalAnswer, isDocumentStep, isGoalStep, requirementsAnswer } from "./workflow-answers.js";

const { temp, startModel } = useCliTest();
const server = usePostgresServer();

const RECORDER = `
import { appendFileSync, readFileSync } from "node:fs";
appendFileSync(process.argv[2], readFileSync(0, "utf8"));
`;

function events(file: string): Notification[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Notification);
}

describe("a fleet's notifiers", () => {
  it("the run's own and the worker's are told of the wait for approve and of the end, once each", async () => {
    const kit = await startModel({
      policy: (request) => {
        if (request.kind === "title" || request.kind === "compact") return undefined;
        if (isGoalStep(request)) return text(goalAnswer(request));
        if (isDocumentStep(request)) return text(requirementsAnswer());
        if (request.isSubagent) return text("unused");
        return text("WORK-DONE: the flaky test is fixed.");
      },
    });
    const schema = freshSchema("notify");
    const url = `${server().url}?schema=${schema}`;
    const workspace = fleetProject(temp);
    const home = temp.make("flower-notifier-");
    writeFileSync(join(home, "recorder.mjs"), RECORDER);
    writeFileSync(join(home, "fails.mjs"), 'console.error("pager: no such rota"); process.exit(1);\n');
    const own = join(home, "own.jsonl");
    const fleet = join(home, "fleet.jsonl");
    const record = (file: string) => `node ${join(home, "recorder.mjs")} ${file}`;

    const told = await submitRun(url, "Fix the flaky test", ["--notify", record(own)]);
    const loud = await submitRun(url, "Fix the clock", ["--notify", `node ${join(home, "fails.mjs")}`]);
    const worker = startWorker(kit, temp, {
      name: "w1",
      url,
      workspace,
      concurrency: 2,
      flags: ["--notify", record(fleet)],
    });
    const byRun = (file: string, run: string) => events(file).filter((one) => one.run === run);

    await until(
      () =>
        byRun(fleet, told).length === 1 && byRun(fleet, loud).length === 1 && byRun(own, told).length === 1,
      "both runs' pauses told",
    );
    for (const [file, run] of [
      [own, told],
      [fleet, told],
      [fleet, loud],
    ] as const) {
      const [paused] = byRun(file, run);
      expect(paused).toMatchObject({
        event: "approval",
        run,
        step: "requirements",
        status: "paused",
        why: "paused after requirements: read its frozen document, then approve",
      });
      expect(paused!.continue).toMatch(
        new RegExp(`^flower approve ${run} --store '${url.replace(/[?.]/g, "\\$&")}'$`),
      );
    }
    expect((await fleetRows(server().url, schema)).map((row) => row.status)).toEqual(["paused", "paused"]);

    // The person approves each with the line the notification carried.
    for (const run of [told, loud]) {
      const line = byRun(fleet, run)[0]!.continue!;
      const args = line
        .replace(/^flower /, "")
        .replace(/'/g, "")
        .split(" ");
      await runFlowerOk(args, { env: cleanEnv() });
    }
    await until(
      async () => (await fleetRows(server().url, schema)).every((row) => row.status === "done"),
      "both runs done",
    );
    await until(
      () =>
        byRun(fleet, told).length === 2 && byRun(fleet, loud).length === 2 && byRun(own, told).length === 2,
      "both runs' ends told",
    );
    for (const [file, run] of [
      [own, told],
      [fleet, told],
      [fleet, loud],
    ] as const) {
      expect(byRun(file, run).map((one) => one.event)).toEqual(["approval", "done"]);
      expect(byRun(file, run)[1]).toMatchObject({ step: "work", status: "done", continue: null });
    }
    // The run's own notifier reached only its own run.
    expect(events(own).every((one) => one.run === told)).toBe(true);

    worker.child.kill("SIGTERM");
    const ended = await worker.done;
    expect(ended.code).toBe(0);
    // The line a notification carries is the one the worker printed at the pause.
    for (const run of [told, loud])
      expect(ended.stdout).toContain(
        `${run}: paused after its requirements; go on with: ${byRun(fleet, run)[0]!.continue}\n`,
      );
    // The loud run's notifier failed twice (its pause, its end): said once, naming it.
    const said = ended.stderr.split("\n").filter((line) => line.includes("notifying"));
    expect(said).toEqual([
      `flower: notifying node ${join(home, "fails.mjs")} failed (exit code 1: pager: no such rota); the run is not affected`,
    ]);
  }, 240_000);
});
