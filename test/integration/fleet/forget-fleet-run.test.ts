/**
 * `flower forget <run> --store postgres://…` on a store that holds a fleet, through the built CLI and a
 * real PostgreSQL server, no `claude`: the worker's part is played through the fleet's library face
 * (claim, step records, finish), as test/integration/fleet/fleet-runs.test.ts does.
 * - a finished run is forgotten whole: its steps (sessions, files, records), its fleet row and its
 *   finished queue job, so neither `flower runs` nor the live page's list (listFleetRuns) shows it; a
 *   run cancelled before it started (a fleet row and no step) is forgotten too;
 * - a run that can still move (queued, paused, running) is refused, naming how to cancel it, and
 *   nothing is deleted, the same for one of its steps;
 * - the SQL by hand in docs/shared-store.md ("Deleting a run") does the fleet's part the same way.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { listFleetRuns, openFleet } from "../../../src/index.js";
import { currentProcess } from "../../../src/records/process-identity.js";
import { newStepRecord } from "../../../src/records/step-record.js";
import { quoteIdentifier } from "../../../src/storage/postgres/migrate.js";
import { PostgresRunRecords } from "../../../src/storage/postgres/postgres-run-records.js";
import { PostgresSessionStore } from "../../../src/storage/postgres/postgres-session-store.js";
import { PostgresWorkspaceFiles } from "../../../src/storage/postgres/postgres-workspace-files.js";
import { freshSchema, queryOnce, usePostgresServer } from "../../support/postgres-server.js";
import { fleetRows, submitRun } from "../../e2e/cli/fleet-helpers.js";
import { cleanEnv, killAll, runFlower, runFlowerOk } from "../../e2e/cli/helpers.js";

const postgres = usePostgresServer();
const pools: pg.Pool[] = [];

afterEach(async () => {
  killAll();
  for (const pool of pools.splice(0)) await pool.end();
});

function store(): { url: string; schema: string } {
  const schema = freshSchema("forget");
  return { url: `${postgres().url}?schema=${schema}`, schema };
}

/** The tables a worker's runtime writes (step records, sessions, files), over a pool of the test's. */
async function stepTables(schema: string) {
  const pool = new pg.Pool({ connectionString: postgres().url, max: 2 });
  pools.push(pool);
  const sessions = new PostgresSessionStore({ pool, schema });
  await sessions.ready();
  const ready = async () => pool;
  return {
    sessions,
    records: new PostgresRunRecords(ready, quoteIdentifier(schema), schema),
    files: new PostgresWorkspaceFiles(ready, quoteIdentifier(schema), schema),
  };
}

/** A step of `run` as the workflow records it, with one session and one saved file. */
async function recordStep(tables: Awaited<ReturnType<typeof stepTables>>, run: string, name: string) {
  const step = `${run}/${name}`;
  await tables.records.put({
    ...newStepRecord(step, "lead", "Work."),
    run,
    status: "done",
    sessionId: `session-${step}`,
  });
  await tables.sessions.append({ projectKey: "-repo", sessionId: `session-${step}` }, [
    { type: "user", uuid: `${step}-u` },
  ]);
  await tables.files.put(`.flower/notes/${run}-${name}.md`, Buffer.from(`# ${name}`), step);
}

async function jobStates(schema: string, run: string): Promise<string[]> {
  const rows = await queryOnce<{ state: string }>(
    postgres().url,
    `SELECT state FROM ${schema}_queue.job WHERE data->>'run' = $1
     UNION ALL SELECT state FROM ${schema}_queue.archive WHERE data->>'run' = $1`,
    [run],
  );
  return rows.map((row) => row.state).sort();
}

async function stepNames(schema: string): Promise<string[]> {
  const rows = await queryOnce<{ step: string }>(
    postgres().url,
    `SELECT step FROM ${schema}.flower_steps ORDER BY step`,
  );
  return rows.map((row) => row.step);
}

const forget = (name: string, url: string) =>
  runFlower(["forget", name, "--store", url], { env: cleanEnv() });

describe("flower forget --store and the fleet", () => {
  it("forgets a finished run whole (steps, fleet row, queue job) and a run cancelled before it started", async () => {
    const { url, schema } = store();
    const run = await submitRun(url, "Fix the flaky test", ["--yes"]);
    const tables = await stepTables(schema);
    const fleet = openFleet(url);
    try {
      // A worker's turn with the run, down to what it writes: claim, two steps, done, the job completed.
      const [job] = await fleet.queue.fetch(1);
      expect(job?.run).toBe(run);
      expect(await fleet.runs.claim(run, "token-1", currentProcess())).not.toBeNull();
      await recordStep(tables, run, "requirements");
      await recordStep(tables, run, "work");
      expect(await fleet.runs.finish(run, "token-1", "done", { job: null })).toBe(true);
      await fleet.queue.complete(job!.id);
    } finally {
      await fleet.close();
    }
    const waiting = await submitRun(url, "Write the docs");
    const cancelled = await submitRun(url, "Tidy the changelog");
    await runFlowerOk(["cancel", cancelled, "--store", url], { env: cleanEnv() });
    expect(await jobStates(schema, run)).toEqual(["completed"]);
    expect(await jobStates(schema, cancelled)).toEqual(["cancelled"]);
    // pg-boss moves an ended job to its archive after a while (12 hours): one is there, as if that time passed.
    await queryOnce(
      postgres().url,
      `WITH moved AS (DELETE FROM ${schema}_queue.job WHERE data->>'run' = $1 RETURNING *)
       INSERT INTO ${schema}_queue.archive SELECT * FROM moved`,
      [cancelled],
    );

    const forgotten = await forget(run, url);
    expect(forgotten.stderr).toBe("");
    expect(forgotten.code).toBe(0);
    expect(forgotten.stdout).toMatch(
      new RegExp(`^deleted 2 sessions, 2 files, 2 records and the fleet's run of "${run}" from postgres://`),
    );
    // Gone from the tables, from flower runs and from the live page's list; the other runs stay as they were.
    expect(await stepNames(schema)).toEqual([]);
    expect(await jobStates(schema, run)).toEqual([]);
    expect((await fleetRows(postgres().url, schema)).map((row) => [row.run, row.status])).toEqual([
      [waiting, "queued"],
      [cancelled, "cancelled"],
    ]);
    const listed = (await runFlowerOk(["runs", "--store", url], { env: cleanEnv() })).stdout;
    expect(listed).not.toMatch(new RegExp(`^${run}\\s`, "m"));
    expect(listed).toMatch(new RegExp(`^${waiting}\\s+queued\\s`, "m"));
    expect((await listFleetRuns(url)).map((view) => view.run)).toEqual([waiting, cancelled]);
    expect(await jobStates(schema, waiting)).toEqual(["created"]);

    // Cancelled while queued: no step was ever recorded, only the fleet knows it.
    const dropped = await forget(cancelled, url);
    expect(dropped.stderr).toBe("");
    expect(dropped.stdout).toMatch(
      new RegExp(`^deleted 0 sessions, 0 files, 0 records and the fleet's run of "${cancelled}" from `),
    );
    expect(await jobStates(schema, cancelled)).toEqual([]);
    expect((await listFleetRuns(url)).map((view) => view.run)).toEqual([waiting]);
  });

  it("refuses a queued, running or paused run, and a step of one, naming how to cancel it; nothing is deleted", async () => {
    const { url, schema } = store();
    const queued = await submitRun(url, "Write the docs");
    const refusedQueued = await forget(queued, url);
    expect(refusedQueued.code).toBe(2);
    expect(refusedQueued.stderr).toBe(
      `flower: Run "${queued}" is queued in the fleet: cancel it first (flower cancel ${queued} --store …), then forget it; nothing was deleted\n`,
    );

    const run = await submitRun(url, "Fix the flaky test", ["--yes"]);
    const tables = await stepTables(schema);
    const self = currentProcess();
    const fleet = openFleet(url);
    try {
      expect(await fleet.runs.claim(run, "token-1", self)).not.toBeNull();
      await recordStep(tables, run, "requirements");
      // Its worker drives the step: the fleet's refusal comes first, it names what the person does.
      await tables.records.acquire(`${run}/requirements`, { self, now: new Date(), token: "lease-1" });
      const before = await fleetRows(postgres().url, schema);
      const holder = `pid ${self.pid}@${self.host}`;

      const refusedRunning = await forget(run, url);
      expect(refusedRunning.code).toBe(2);
      expect(refusedRunning.stderr).toBe(
        `flower: Run "${run}" is running in the fleet on ${holder}: cancel it first (flower cancel ${run} --store …), then forget it; nothing was deleted\n`,
      );
      const refusedStep = await forget(`${run}/requirements`, url);
      expect(refusedStep.code).toBe(2);
      expect(refusedStep.stderr).toBe(
        `flower: Step "${run}/requirements" belongs to run "${run}", which is running in the fleet on ${holder}: cancel it first (flower cancel ${run} --store …), then forget it; nothing was deleted\n`,
      );

      // Cancel asked, not yet acted on: the run still runs, the worker ends it at its next boundary.
      expect(await fleet.runs.requestCancel(run)).toBe(true);
      const refusedCancelling = await forget(run, url);
      expect(refusedCancelling.code).toBe(2);
      expect(refusedCancelling.stderr).toBe(
        `flower: Run "${run}" is running in the fleet on ${holder}: a cancel was asked, and it stops at its next message boundary; forget it once flower runs --store … shows it cancelled; nothing was deleted\n`,
      );

      expect(await fleet.runs.finish(run, "token-1", "paused", { job: null })).toBe(true);
      await tables.records.release(`${run}/requirements`, "lease-1");
      const refusedPaused = await forget(run, url);
      expect(refusedPaused.code).toBe(2);
      expect(refusedPaused.stderr).toBe(
        `flower: Run "${run}" is paused in the fleet, waiting for flower approve ${run} --store …: cancel it first (flower cancel ${run} --store …), then forget it; nothing was deleted\n`,
      );

      expect(await stepNames(schema)).toEqual([`${run}/requirements`]);
      expect((await fleetRows(postgres().url, schema)).map((row) => row.run)).toEqual(
        before.map((row) => row.run),
      );
      expect(await jobStates(schema, queued)).toEqual(["created"]);
    } finally {
      await fleet.close();
    }
  });

  it("the docs' SQL for a fleet run deletes an ended run's row and jobs, and leaves a queued one", async () => {
    const { url, schema } = store();
    const ended = await submitRun(url, "Tidy the changelog");
    await runFlowerOk(["cancel", ended, "--store", url], { env: cleanEnv() });
    const queued = await submitRun(url, "Write the docs");
    const docs = readFileSync(join(import.meta.dirname, "../../../docs/shared-store.md"), "utf8");
    // The second block of the section, indented under its list item there.
    const block = [...docs.matchAll(/```sql\n([\s\S]*?)```/g)][1]![1]!
      .replace(/^ {2}/gm, "")
      .replaceAll("flower.flower_", `${schema}.flower_`)
      .replaceAll("flower_queue.", `${schema}_queue.`);
    for (const run of [ended, queued]) await queryOnce(postgres().url, block.replaceAll("upgrade-deps", run));

    expect((await fleetRows(postgres().url, schema)).map((row) => [row.run, row.status])).toEqual([
      [queued, "queued"],
    ]);
    expect(await jobStates(schema, ended)).toEqual([]);
    expect(await jobStates(schema, queued)).toEqual(["created"]);
  });
});
