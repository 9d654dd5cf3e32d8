/**
 * People in the fleet's loop, through the built `flower`, the real `claude` binary, the offline kit and
 * a real PostgreSQL server, each command as a user types it:
 * - `flower submit` without --yes: the run pauses after its requirements and waits as `paused` (no
 *   worker touches it) until `flower approve`; then a worker takes it through goal and work;
 * - `flower cancel` of a run a worker drives: it stops at its next message boundary on that worker and
 *   ends `cancelled`; the worker goes on taking runs; `flower forget` refuses the run while it runs and
 *   forgets a done one whole, its fleet row too;
 * - a worker stopped with SIGTERM stops its run at a boundary, gives it back to the queue, releases the
 *   step's lease and exits 0; the next worker continues the step in its very session;
 * - a worker SIGKILLed between the requirements step's end and the run's row saying `paused`: the next
 *   worker pauses the run without asking the model anything, and `flower approve` goes on from there.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runWorkspacePath } from "../../../src/checkpoints/run-workspace.js";
import { describe, expect, it } from "vitest";
import { text, toolUse, type FakeModel, type ModelRequest } from "../../../src/testing/index.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import { fleetProject, fleetRows, query, startWorker, submitRun, until, workerOf } from "./fleet-helpers.js";
import { cleanEnv, runFlower, runFlowerOk, useCliTest } from "./helpers.js";
import { goalAnswer, isDocumentStep, isGoalStep, requirementsAnswer } from "./workflow-answers.js";

const { temp, startModel } = useCliTest();
const server = usePostgresServer();

const SLOW = "Read every note slowly";
const FAST = "Fix the flaky test";
/**
 * A turn of the slow task: longer than the worker's poll of the store (1 s), so a cancel is seen during
 * the turn it was asked in and acted on at the boundary that ends it.
 */
const TURN_MS = 1_500;

/** Document steps answer at once; the slow task reads a note per turn until stopped; the rest finish. */
async function model(): Promise<FakeModel> {
  return startModel({
    policy: (request: ModelRequest) => {
      if (request.kind === "title" || request.kind === "compact") return undefined;
      if (isGoalStep(request)) return text(goalAnswer(request));
      if (isDocumentStep(request)) return text(requirementsAnswer());
      if (request.isSubagent) return text("unused");
      if (request.firstUserText().includes(SLOW)) {
        const read = request.countToolResults("Read");
        return { ...toolUse("Read", { file_path: `note-${(read % 60) + 1}.md` }), delayMs: TURN_MS };
      }
      return text("WORK-DONE: the flaky test is fixed.");
    },
  });
}

/** What each test starts from: its model, its own schema of the store, and a project for the workers. */
async function setting(): Promise<{ kit: FakeModel; url: string; schema: string; workspace: string }> {
  const kit = await model();
  const schema = freshSchema("people");
  return { kit, url: `${server().url}?schema=${schema}`, schema, workspace: fleetProject(temp) };
}

async function runs(url: string): Promise<string> {
  return (await runFlowerOk(["runs", "--store", url], { env: cleanEnv() })).stdout;
}

describe("people in the fleet's loop", () => {
  it("a paused run waits until approve; a cancelled run stops at a boundary on the worker that holds it", async () => {
    const { kit, url, schema, workspace } = await setting();
    const paused = await submitRun(url, FAST);
    expect(paused).toBe("fix-the-flaky-test");
    // Submitted, no step begun: only the fleet knows it, on a line of its own.
    const queued = await runs(url);
    expect(queued).toMatch(/^fix-the-flaky-test\s+queued\s+0\s+\$0\.0000\s+0\s.*-$/m);
    expect(queued).toContain("\nqueued: waiting for a worker: flower worker --store … takes it\n");
    const worker = startWorker(kit, temp, { name: "w1", url, workspace, concurrency: 2 });

    await until(async () => (await fleetRows(server().url, schema))[0]?.status === "paused", "the pause");
    const requestsAtPause = kit.requests.length;
    const listedPaused = await runs(url);
    expect(listedPaused).toMatch(/^fix-the-flaky-test\s+paused\s/m);
    // A fleet run goes on with approve, not with continue: the hint under the table says so.
    expect(listedPaused).toContain(
      "paused: waiting for you to read its frozen document; flower approve <run> --store … lets a worker go on\n",
    );
    expect(listedPaused).not.toContain("flower continue");

    // While it waits, the worker drives another run; the paused one is not touched.
    const slow = await submitRun(url, SLOW, ["--direct"]);
    await until(
      () => kit.requests.filter((r) => r.firstUserText().includes(SLOW) && r.kind === "main").length >= 3,
      "the slow run's third turn",
    );
    expect(kit.requests.slice(requestsAtPause).every((r) => !r.firstUserText().includes("flaky"))).toBe(true);
    expect((await fleetRows(server().url, schema))[0]!.status).toBe("paused");
    expect(await runs(url)).toMatch(new RegExp(`^${slow}\\s+running\\s.*pid ${worker.child.pid}@`, "m"));
    // forget stops nothing: the running run is refused (before its step's lease), naming the way to cancel it.
    const refused = await runFlower(["forget", slow, "--store", url], { env: cleanEnv() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^flower: Run "${slow}" is running in the fleet on pid ${worker.child.pid}@\\S+: cancel it first \\(flower cancel ${slow} --store …\\), then forget it; nothing was deleted\n$`,
      ),
    );

    // Cancel: asked on the command line, acted on by the worker at the next boundary.
    const cancel = await runFlowerOk(["cancel", slow, "--store", url], { env: cleanEnv() });
    expect(cancel.stdout).toMatch(
      new RegExp(`^cancel asked: ${slow} stops at its next message boundary \\(pid ${worker.child.pid}@`),
    );
    const askedAt = kit.requests.length;
    await until(async () => (await fleetRows(server().url, schema))[1]?.status === "cancelled", "the cancel");
    // The turn running when it was asked ends at its boundary; at most one more began meanwhile.
    const slowAfter = kit.requests
      .slice(askedAt)
      .filter((r) => r.kind === "main" && r.firstUserText().includes(SLOW));
    expect(slowAfter.length).toBeLessThanOrEqual(1);
    const [record] = await query<{ record: string }>(
      server().url,
      `SELECT record FROM ${schema}.flower_steps WHERE step = $1`,
      [slow],
    );
    expect(JSON.parse(record!.record).status).toBe("stopped");
    expect(await query(server().url, `SELECT * FROM ${schema}.flower_leases`)).toEqual([]);

    // Approve: the paused run goes on (goal, work) on the worker and ends done.
    const approved = await runFlowerOk(["approve", paused, "--store", url], { env: cleanEnv() });
    expect(approved.stdout).toBe(`approved ${paused}: back in the queue, a worker goes on with it\n`);
    await until(
      async () => (await fleetRows(server().url, schema))[0]?.status === "done",
      "the approved run",
    );
    const listed = await runs(url);
    expect(listed).toMatch(/^fix-the-flaky-test\s+done\s/m);
    expect(listed).toMatch(new RegExp(`^${slow}\\s+cancelled\\s`, "m"));
    const again = await runFlower(["approve", paused, "--store", url], { env: cleanEnv() });
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(
      `flower: Cannot approve run "${paused}": it is done, and only a paused run waits for approval\n`,
    );
    // The done run is forgotten whole, its fleet row too: flower runs no longer lists it; the cancelled one stays.
    const forgotten = await runFlowerOk(["forget", paused, "--store", url], { env: cleanEnv() });
    expect(forgotten.stdout).toMatch(
      new RegExp(
        `^deleted \\d+ sessions, \\d+ files, 3 records, \\d+ checkpoints? and the fleet's run of "${paused}" from `,
      ),
    );
    const after = await runs(url);
    expect(after).not.toMatch(/^fix-the-flaky-test\s/m);
    expect(after).toMatch(new RegExp(`^${slow}\\s+cancelled\\s`, "m"));
    expect((await fleetRows(server().url, schema)).map((row) => row.run)).toEqual([slow]);

    worker.child.kill("SIGTERM");
    const ended = await worker.done;
    expect(ended.code).toBe(0);
    expect(ended.stdout).toContain(
      `${paused}: paused after its requirements; go on with: flower approve ${paused} --store '${url}'`,
    );
    expect(ended.stdout).toContain(`${slow}: cancelled`);
    expect(ended.stdout).toContain(`${paused}: done`);
    kit.assertNoErrors();
  }, 300_000);

  it("a SIGTERMed worker gives its run back at a boundary; the next worker continues the same session", async () => {
    const { kit, url, schema, workspace } = await setting();
    const run = await submitRun(url, SLOW, ["--direct"]);
    const first = startWorker(kit, temp, { name: "w1", url, workspace });
    const mine = () => kit.requests.filter((r) => r.kind === "main" && r.firstUserText().includes(SLOW));
    await until(() => mine().length >= 2, "two turns on the first worker");
    const session = mine()[0]!.sessionId;

    first.child.kill("SIGTERM");
    const ended = await first.done;
    expect(ended.code).toBe(0);
    expect(ended.stdout).toContain(`${run}: given back to the queue`);
    expect((await fleetRows(server().url, schema))[0]).toMatchObject({ status: "queued", pid: null });
    expect(await query(server().url, `SELECT * FROM ${schema}.flower_leases`)).toEqual([]);
    const handedBack = mine().length;

    const second = startWorker(kit, temp, { name: "w2", url, workspace });
    await until(() => mine().length >= handedBack + 2, "two turns on the second worker");
    const resumed = mine().slice(handedBack);
    expect(resumed.every((r) => workerOf(r) === "w2" && r.sessionId === session)).toBe(true);
    expect(resumed[0]!.countToolResults("Read")).toBeGreaterThanOrEqual(handedBack - 1);
    second.child.kill("SIGTERM");
    expect((await second.done).code).toBe(0);
    kit.assertNoErrors();
  }, 240_000);

  it("a worker SIGKILLed between the requirements step's end and the pause: the next worker pauses the run, asking the model nothing; approve goes on with goal and work", async () => {
    const { kit, url, schema, workspace } = await setting();
    const marker = join(temp.make("flower-marker-"), "paused-at");
    const run = await submitRun(url, FAST);
    // Stopped for good where the requirements step is done (record in the store, document frozen,
    // lease released) and the fleet's row still says `running`: then killed, as a crash would.
    const first = startWorker(kit, temp, {
      name: "w1",
      url,
      workspace,
      env: { FLOWER_TEST_PAUSE_AT: "workflow-pause", FLOWER_TEST_PAUSE_FILE: marker },
    });
    await until(() => existsSync(marker), "the end of the requirements step");
    process.kill(first.child.pid!, "SIGKILL");
    expect((await first.done).signal).toBe("SIGKILL");
    expect((await fleetRows(server().url, schema))[0]).toMatchObject({
      status: "running",
      pid: first.child.pid,
    });
    const stepRecord = async (name: string) => {
      const [row] = await query<{ record: string }>(
        server().url,
        `SELECT record FROM ${schema}.flower_steps WHERE step = $1`,
        [`${run}/${name}`],
      );
      return row
        ? (JSON.parse(row.record) as { status: string; sessionId: string; frozen?: { path: string } })
        : undefined;
    };
    const requirements = (await stepRecord("requirements"))!;
    expect(requirements.status).toBe("done");
    // The run works in a worktree of the worker's own checkout (a copy: this workspace is not in git).
    const file = join(
      runWorkspacePath(join(workspace, "runs"), run),
      ".flower",
      "notes",
      `requirements-${run}.md`,
    );
    expect(requirements.frozen?.path).toBe(file);
    const frozenText = readFileSync(file, "utf8");
    expect(await stepRecord("goal")).toBeUndefined();
    // Its worker is gone: the run waits for another one.
    expect(await runs(url)).toMatch(/^fix-the-flaky-test\s+queued\s/m);
    const atKill = kit.requests.length;

    const second = startWorker(kit, temp, { name: "w2", url, workspace });
    // Any status a worker settles on, so a run that went on past the pause fails here at once.
    const settled = async () => (await fleetRows(server().url, schema))[0]!.status;
    await until(async () => !["running", "queued"].includes(await settled()), "the next worker");
    expect(await settled()).toBe("paused");
    // The pause needed nothing of the model: the requirements were not asked for again.
    expect(kit.requests.length).toBe(atKill);
    expect(readFileSync(file, "utf8")).toBe(frozenText);
    expect(await runs(url)).toMatch(/^fix-the-flaky-test\s+paused\s/m);

    await runFlowerOk(["approve", run, "--store", url], { env: cleanEnv() });
    await until(
      async () => (await fleetRows(server().url, schema))[0]?.status === "done",
      "the approved run",
    );
    const after = kit.requests.slice(atKill).filter((request) => request.kind === "main");
    expect(after.some((request) => isDocumentStep(request) && !isGoalStep(request))).toBe(false);
    expect(after.some(isGoalStep)).toBe(true);
    expect(after.every((request) => workerOf(request) === "w2")).toBe(true);
    // The run is over: its worktree is gone from the worker, its notes are in the store, frozen once.
    expect(existsSync(file)).toBe(false);
    const stored = await query<{ path: string; content: Buffer }>(
      server().url,
      `SELECT path, content FROM ${schema}.flower_files WHERE path LIKE '.flower/notes/%requirements%'`,
    );
    expect(stored.map((row) => row.path)).toEqual([`.flower/notes/requirements-${run}.md`]);
    expect(stored[0]!.content.toString("utf8")).toBe(frozenText);
    expect(await stepRecord("requirements")).toEqual(requirements);

    second.child.kill("SIGTERM");
    const ended = await second.done;
    expect(ended.code).toBe(0);
    expect(ended.stdout).toContain(`${run}: its worker pid ${first.child.pid}@`);
    expect(ended.stdout).toContain(
      `${run}: paused after its requirements; go on with: flower approve ${run} --store '${url}'`,
    );
    expect(ended.stdout).toContain(`${run}: done`);
    kit.assertNoErrors();
  }, 240_000);
});
