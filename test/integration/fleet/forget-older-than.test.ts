/**
 * `flower forget --older-than <duration> --store postgres://…`, through the built CLI and a real
 * PostgreSQL server: retention for a shared store, whose runs' checkpoints (flower_work) went only with
 * a `flower forget` of each run by name. Every run last written longer ago goes, all it left (sessions,
 * records, checkpoints); a recent one stays; an old one a live driver holds is kept and named; a value
 * that is not a duration is refused naming it, nothing deleted.
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { currentProcess } from "../../../src/records/process-identity.js";
import { newStepRecord } from "../../../src/records/step-record.js";
import { quoteIdentifier } from "../../../src/storage/postgres/migrate.js";
import { PostgresRunRecords } from "../../../src/storage/postgres/postgres-run-records.js";
import { PostgresSessionStore } from "../../../src/storage/postgres/postgres-session-store.js";
import { PostgresWorkLog } from "../../../src/storage/postgres/work-log.js";
import { freshSchema, queryOnce, usePostgresServer } from "../../support/postgres-server.js";
import { cleanEnv, killAll, runFlower } from "../../e2e/cli/helpers.js";

const postgres = usePostgresServer();
const pools: pg.Pool[] = [];

afterEach(async () => {
  killAll();
  for (const pool of pools.splice(0)) await pool.end();
});

const DAY = 24 * 60 * 60 * 1000;

describe("flower forget --older-than", () => {
  it("forgets every run last written longer ago, its checkpoints with it, keeps the recent and the held", async () => {
    const schema = freshSchema("retain");
    const url = `${postgres().url}?schema=${schema}`;
    const pool = new pg.Pool({ connectionString: postgres().url, max: 2 });
    pools.push(pool);
    const sessions = new PostgresSessionStore({ pool, schema });
    await sessions.ready();
    const ready = async () => pool;
    const records = new PostgresRunRecords(ready, quoteIdentifier(schema), schema);
    const work = new PostgresWorkLog(ready, quoteIdentifier(schema), schema);
    const step = async (run: string, name: string, daysAgo: number) => {
      const at = new Date(Date.now() - daysAgo * DAY);
      const record = {
        ...newStepRecord(`${run}/${name}`, "lead", "Work.", at),
        run,
        status: "done" as const,
      };
      record.updatedAt = at.toISOString();
      record.sessionId = `session-${run}-${name}`;
      await records.put(record);
      await sessions.append({ projectKey: "-repo", sessionId: record.sessionId }, [
        { type: "user", uuid: `${run}-${name}` },
      ]);
      for (let seq = 0; seq < 3; seq++)
        await work.append(run, {
          commit: `${run}-${name}-${seq}`.padEnd(40, "0"),
          parent: null,
          step: record.step,
          kind: "call",
          bundle: Buffer.alloc(100, seq),
        });
    };
    await step("old", "requirements", 45);
    await step("old", "work", 40);
    await step("partly-old", "requirements", 45);
    await step("partly-old", "work", 1);
    await step("recent", "work", 0);
    await step("held", "work", 60);
    await records.acquire("held/work", { self: currentProcess(), now: new Date(), token: "live" });
    const workRows = async () =>
      (
        await queryOnce<{ run: string; rows: string }>(
          postgres().url,
          `SELECT run, count(*)::text AS rows FROM ${schema}.flower_work GROUP BY run ORDER BY run`,
        )
      ).map((row) => `${row.run}:${row.rows}`);
    expect(await workRows()).toEqual(["held:3", "old:6", "partly-old:6", "recent:3"]);

    const refused = await runFlower(["forget", "--older-than", "30x", "--store", url], { env: cleanEnv() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      '--older-than must be a duration: a whole number and d, h or w (30d, 12h, 2w), got "30x"',
    );
    const both = await runFlower(["forget", "old", "--older-than", "30d", "--store", url], {
      env: cleanEnv(),
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("name a step or run, or give --older-than, not both");
    expect(await workRows()).toEqual(["held:3", "old:6", "partly-old:6", "recent:3"]);

    const forgotten = await runFlower(["forget", "--older-than", "30d", "--store", url], { env: cleanEnv() });
    expect(forgotten.stderr).toBe("");
    expect(forgotten.code).toBe(0);
    const lines = forgotten.stdout.trim().split("\n");
    expect(lines[0]).toMatch(
      /^deleted 1 run last written over 30d ago from postgres:\/\/.+: 2 sessions, 0 files, 2 records and 6 checkpoints$/,
    );
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^kept "held": step "held\/work" is driven by pid \d+ on /),
    ]);
    expect(await workRows()).toEqual(["held:3", "partly-old:6", "recent:3"]);
    const steps = await queryOnce<{ step: string }>(
      postgres().url,
      `SELECT step FROM ${schema}.flower_steps ORDER BY step`,
    );
    expect(steps.map((row) => row.step)).toEqual([
      "held/work",
      "partly-old/requirements",
      "partly-old/work",
      "recent/work",
    ]);

    // Nothing more is that old (the held one aside): said, nothing deleted.
    await records.release("held/work", "live");
    const again = await runFlower(["forget", "--older-than", "50d", "--store", url], { env: cleanEnv() });
    expect(again.stdout).toMatch(
      /^deleted 1 run last written over 50d ago from .*: 1 session, 0 files, 1 record and 3 checkpoints\n$/,
    );
    const none = await runFlower(["forget", "--older-than", "50d", "--store", url], { env: cleanEnv() });
    expect(none.stdout).toMatch(/^nothing in postgres:\/\/.+ was last written over 50d ago\n$/);
  }, 120_000);
});
