/**
 * The drift watch in a fleet: a run a worker drives that writes plan notes forever pauses for a person
 * after three generations without progress — a pause, not a failure. The worker's log, `flower runs`
 * and the worker's notifier say why and what goes on (`flower approve`); approved, a worker goes on from
 * the handoff it paused at, and the run ends done. The built CLI, the real binary, the kit, PostgreSQL.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse, type ModelRequest, type Reply } from "../../../src/testing/index.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import { fleetRows, startWorker, submitRun, until } from "./fleet-helpers.js";
import { cleanEnv, runFlowerOk, useCliTest } from "./helpers.js";
import { FIXED_FILE_GOAL, isDocumentStep, isGoalStep, requirementsAnswer } from "./workflow-answers.js";

const { temp, startModel } = useCliTest();
const server = usePostgresServer();

const HANDOFF = handoffMarkdown({
  doing: "Planning the fix: one more note on the approach.",
  next: ["Write another plan note."],
});

/** Until approved: every generation sends workers who write plan notes, then fills its context. After: the fix. */
function noteWriter(approved: () => boolean) {
  let notes = 0;
  return (request: ModelRequest): Reply | undefined => {
    if (isDocumentStep(request)) return text(isGoalStep(request) ? FIXED_FILE_GOAL : requirementsAnswer());
    if (request.isHandoffTurn) return text(HANDOFF);
    if (!request.isMainThread) {
      if (request.countToolResults("Write") > 0) return text("Wrote it.");
      if (approved()) return toolUse("Write", { file_path: "fixed.txt", content: "fixed\n" });
      notes += 1;
      return toolUse("Write", { file_path: `.flower/notes/plan-${notes}.md`, content: `Plan ${notes}.` });
    }
    if (request.kind !== "main") return undefined;
    if (approved())
      return request.countToolResults("Agent") === 0
        ? toolUse("Agent", { subagent_type: "engineer", description: "Fix", prompt: "Create fixed.txt." })
        : text("Fixed after the pause.");
    if (request.countToolResults("Agent") === 0)
      return toolUse("Agent", {
        subagent_type: "engineer",
        description: "Plan",
        prompt: "Write a plan note.",
      });
    // A long glance fills the context past the 100k window's line (50k): a handoff.
    return { ...toolUse("Bash", { command: "ls" }), outputTokens: 60_000 };
  };
}

describe("the drift watch in a fleet", () => {
  it("a run that makes no progress for three generations pauses for a person (not failed), says why, and goes on once approved", async () => {
    let approved = false;
    const model = await startModel({ policy: noteWriter(() => approved) });
    // A small project (the fleet tests' notes would put the coordinator's start near the 90k window's line).
    const root = temp.make("flower-fleet-drift-");
    writeFileSync(join(root, "README.md"), "A project with a bug.\n");
    const home = temp.make("flower-fleet-drift-notifier-");
    const notified = join(home, "notified.jsonl");
    writeFileSync(join(home, "record.sh"), `cat >> ${notified}\n`);
    const schema = freshSchema("drift");
    const url = `${server().url}?schema=${schema}`;
    const run = await submitRun(url, "Fix the bug", ["--yes", "--window", "100000"], root);
    const worker = startWorker(model, temp, {
      name: "a",
      url,
      workspace: root,
      timeoutMs: 400_000,
      flags: ["--notify", `sh ${join(home, "record.sh")}`],
    });
    await until(
      async () =>
        (await fleetRows(server().url, schema)).some(
          (row) => row.status !== "queued" && row.status !== "running",
        ),
      "the run to pause",
      300_000,
    );
    expect((await fleetRows(server().url, schema)).map((row) => row.status)).toEqual(["paused"]);

    const why =
      /^paused: generations 1, 2, 3 made no newly passing check and changed no file; read the handoff \S+, add what the next generation should know, then go on$/;
    const env = cleanEnv();
    const runs = await runFlowerOk(["runs", "--store", url], { env, cwd: root });
    const said = runs.stdout.split("\n").find((line) => line.startsWith(`${run}: paused:`));
    expect(said, runs.stdout).toBeDefined();
    // Its own why, not the hint of a run paused after its requirements.
    expect(runs.stdout).not.toContain("read its frozen document");
    expect(said!.slice(`${run}: `.length)).toMatch(
      new RegExp(`${why.source.slice(0, -1)}; go on with: flower approve ${run} --store …$`),
    );
    await until(() => readFileSync(notified, "utf8").trim() !== "", "the notifier", 30_000).catch(
      () => undefined,
    );
    const told = readFileSync(notified, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ event: "drift", run, step: "work", status: "paused" });
    expect(told[0]!.why).toMatch(why);
    expect(told[0]!.continue).toBe(`flower approve ${run} --store '${url}'`);

    approved = true;
    await runFlowerOk(["approve", run, "--store", url], { env, cwd: root });
    await until(
      async () => (await fleetRows(server().url, schema))[0]!.status === "done",
      "the run to end done",
      200_000,
    );
    worker.child.kill("SIGTERM");
    const log = (await worker.done).stdout;
    expect(log).toMatch(new RegExp(`^${run}: paused: generations 1, 2, 3 made no newly passing check`, "m"));
    expect(log).toContain(`go on with: flower approve ${run} --store`);
    expect(log).toMatch(new RegExp(`^${run}: done$`, "m"));
    expect(log).not.toContain("failed");
    model.assertNoErrors();
  }, 600_000);
});
