/**
 * What the records spent per UTC day and per run, as the stores keep it beside the records (PostgreSQL's
 * flower_step_spend, SQLite's step_spend): always the sum `daySpent`/`runSpent` make over the records
 * themselves — after writes, overwrites and deletes, and for records written before the sums existed
 * (migration 6, records.db schema 2). And a fleet worker with a day budget reads that sum on every idle
 * tick, never the records (before: every record, every tick).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { Worker } from "../../../src/index.js";
import { daySpent, runSpent } from "../../../src/records/run-spend.js";
import { newStepRecord, type GenerationRecord, type StepRecord } from "../../../src/records/step-record.js";
import { migrate, quoteIdentifier } from "../../../src/storage/postgres/migrate.js";
import { POSTGRES_MIGRATIONS } from "../../../src/storage/postgres/migrations.js";
import { PostgresRunRecords } from "../../../src/storage/postgres/postgres-run-records.js";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { freshSchema, migratedRunRecords, usePostgresServer } from "../../support/postgres-server.js";

const postgres = usePostgresServer();
const pools: pg.Pool[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const DAYS = ["2026-12-01", "2026-12-02", "2026-12-03"];

function generation(n: number, day: string, costUsd: number): GenerationRecord {
  return {
    generation: n,
    sessionId: `s-${n}-${day}`,
    startedAt: `${day}T23:59:00.000Z`,
    endedAt: null,
    costUsd,
    numTurns: 1,
    context: 1000,
    handoff: null,
  };
}

/** Records over three days: generations, a rewound one, an earlier run of the name, cost outside them. */
function records(): StepRecord[] {
  const a = newStepRecord("build", "agent", "task", new Date(`${DAYS[0]}T08:00:00Z`));
  a.run = "run-1";
  a.history = [generation(1, DAYS[0]!, 1.25), generation(2, DAYS[1]!, 2)];
  a.costUsd = 3.75;
  a.updatedAt = `${DAYS[2]}T09:00:00.000Z`;
  const b = newStepRecord("review", "agent", "task", new Date(`${DAYS[1]}T08:00:00Z`));
  b.run = "run-1";
  b.history = [generation(1, DAYS[1]!, 0.5)];
  b.rewound = [
    {
      at: `${DAYS[2]}T10:00:00.000Z`,
      to: 1,
      commit: "c",
      from: "f",
      generations: [generation(2, DAYS[2]!, 0.25)],
      handoffs: [],
      retired: [],
    },
  ];
  b.costUsd = 0.75;
  b.updatedAt = `${DAYS[2]}T10:00:00.000Z`;
  const c = newStepRecord("direct", "agent", "task", new Date(`${DAYS[0]}T08:00:00Z`));
  c.history = [generation(1, DAYS[2]!, 0.125)];
  c.costUsd = 0.125;
  c.updatedAt = `${DAYS[2]}T11:00:00.000Z`;
  const { earlierRuns: _none, ...earlier } = structuredClone(a);
  void _none;
  c.earlierRuns = [{ ...earlier, step: "direct", run: undefined }];
  return [a, b, c];
}

async function postgresRecords(
  schema = freshSchema(),
): Promise<{ records: PostgresRunRecords; pool: pg.Pool }> {
  const { records, pool } = await migratedRunRecords(postgres().url, schema);
  pools.push(pool);
  return { records, pool };
}

function sqliteRecords(): SqliteRunRecords {
  const dir = mkdtempSync(join(tmpdir(), "flower-day-spend-"));
  dirs.push(dir);
  return new SqliteRunRecords(dir);
}

/** Every day and run the records touch, with the sum over the records and the store's own. */
async function compare(
  list: StepRecord[],
  store: { daySpent(day: string): number | Promise<number>; runSpent(run: string): number | Promise<number> },
): Promise<void> {
  const days = new Set([...DAYS, "2026-11-30", new Date().toISOString().slice(0, 10)]);
  for (const day of days) expect(await store.daySpent(day)).toBeCloseTo(daySpent(list, day), 9);
  for (const run of ["run-1", "direct", "build", "nothing"])
    expect(await store.runSpent(run)).toBeCloseTo(runSpent(list, run), 9);
}

describe("the spend kept beside the records", () => {
  it("PostgreSQL: equals the sum over the records after writes, an overwrite and a delete", async () => {
    const { records: store } = await postgresRecords();
    for (const record of records()) await store.put(record);
    await compare(await store.list(), store);
    expect(await store.daySpent(DAYS[1]!)).toBeCloseTo(2 + 0.5 + 2, 9);

    // The step goes on: a third generation on another day, and cost outside any generation.
    const build = (await store.get("build"))!;
    build.history.push(generation(3, "2026-12-04", 1));
    build.costUsd += 1.5;
    build.updatedAt = "2026-12-05T00:00:00.000Z";
    await store.put(build);
    await compare(await store.list(), store);
    expect(await store.daySpent("2026-12-05")).toBeCloseTo(0.5 + 0.5, 9);

    await store.delete("review");
    await compare(await store.list(), store);
  });

  it("SQLite: equals the sum over the records after writes, an overwrite and a delete", async () => {
    const store = sqliteRecords();
    for (const record of records()) store.put(record);
    await compare(store.list(), store);
    const build = store.get("build")!;
    build.history.push(generation(3, "2026-12-04", 1));
    build.costUsd += 1.5;
    store.put(build);
    await compare(store.list(), store);
    store.delete("review");
    await compare(store.list(), store);
  });

  it("PostgreSQL: migration 6 sums the records written before it", async () => {
    const schema = freshSchema();
    const pool = new pg.Pool({ connectionString: postgres().url, max: 2 });
    pools.push(pool);
    const client = await pool.connect();
    try {
      await migrate(client, schema, POSTGRES_MIGRATIONS.slice(0, 5));
      for (const record of records())
        await client.query(
          `INSERT INTO ${quoteIdentifier(schema)}.flower_steps (step, record) VALUES ($1, $2)`,
          [record.step, JSON.stringify(record)],
        );
      expect(await migrate(client, schema, POSTGRES_MIGRATIONS)).toBe(5);
    } finally {
      client.release();
    }
    const store = new PostgresRunRecords(async () => pool, quoteIdentifier(schema), schema);
    await compare(await store.list(), store);
    expect(await store.daySpent(DAYS[0]!)).toBeGreaterThan(0);
  });

  it("SQLite: a records.db of schema 1 gets the sums of its records when opened", async () => {
    const dir = mkdtempSync(join(tmpdir(), "flower-day-spend-"));
    dirs.push(dir);
    const db = new Database(join(dir, "records.db"));
    db.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE steps (step TEXT PRIMARY KEY, record TEXT NOT NULL, updated_at TEXT NOT NULL);
      CREATE TABLE leases (step TEXT PRIMARY KEY, token TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL,
        start_ticks INTEGER, started_at TEXT NOT NULL, heartbeat_at TEXT NOT NULL, children TEXT NOT NULL DEFAULT '[]');
      INSERT INTO meta (key, value) VALUES ('schema', '1');
    `);
    const insert = db.prepare("INSERT INTO steps (step, record, updated_at) VALUES (?, ?, ?)");
    for (const record of records()) insert.run(record.step, JSON.stringify(record), record.updatedAt);
    db.close();
    const store = new SqliteRunRecords(dir);
    try {
      await compare(store.list(), store);
      expect(store.daySpent(DAYS[2]!)).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });
});

describe("a fleet worker with a day budget, idle", () => {
  it("reads the day's sum on every tick and never the records", async () => {
    const schema = freshSchema();
    const { records: store, pool: writer } = await postgresRecords(schema);
    const count = 200;
    const today = new Date().toISOString().slice(0, 10);
    for (let index = 0; index < count; index++) {
      const record = newStepRecord(`step-${index}`, "agent", "task", new Date());
      record.history = [generation(1, today, 0.01)];
      record.costUsd = 0.01;
      await store.put(record);
    }
    // The writers' connections go, so what they read is counted before the worker starts.
    pools.splice(pools.indexOf(writer), 1);
    await writer.end();
    const statistics = new pg.Client({ connectionString: postgres().url });
    await statistics.connect();
    const reads = async () => {
      const { rows } = await statistics.query<{ relname: string; rows: string; scans: string }>(
        `SELECT relname, (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text AS rows,
           (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::text AS scans
         FROM pg_stat_user_tables WHERE schemaname = $1 AND relname IN ('flower_steps', 'flower_step_spend')`,
        [schema],
      );
      const of = (name: string) => rows.find((row) => row.relname === name);
      return {
        steps: Number(of("flower_steps")?.rows ?? 0),
        spendScans: Number(of("flower_step_spend")?.scans ?? 0),
      };
    };
    const settled = async () => {
      let last = await reads();
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        const now = await reads();
        if (now.steps === last.steps && now.spendScans === last.spendScans) return now;
        last = now;
      }
    };
    try {
      const before = await settled();
      const url = new URL(postgres().url);
      url.searchParams.set("schema", schema);
      const workspace = mkdtempSync(join(tmpdir(), "flower-day-spend-ws-"));
      dirs.push(workspace);
      const worker = new Worker({
        store: url.toString(),
        runtime: { workspace },
        pollMs: 50,
        budgetPerDay: 100,
      });
      await worker.start();
      // Idle ticks until the server's statistics show twenty reads of the day's sum.
      let during = await reads();
      for (let wait = 0; wait < 300 && during.spendScans - before.spendScans < 20; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        during = await reads();
      }
      await worker.stop();
      const after = await settled();
      expect(after.spendScans - before.spendScans).toBeGreaterThanOrEqual(20);
      // Twenty ticks and more read not one record each (before: every record, every tick).
      expect(after.steps - before.steps).toBeLessThan(count);
    } finally {
      await statistics.end();
    }
  }, 120_000);
});
