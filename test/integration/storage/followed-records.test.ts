/**
 * A page's copy of a shared store's records (`flower serve --store`), against a real PostgreSQL: after
 * writes, an overwrite and a forget it holds exactly what the store holds, and each read after the first
 * fetches only the records written since (the page read every record every second before).
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { newStepRecord, type StepRecord } from "../../../src/records/step-record.js";
import { FollowedRecords } from "../../../src/storage/followed-records.js";
import { quoteIdentifier } from "../../../src/storage/postgres/migrate.js";
import type { PostgresRunRecords } from "../../../src/storage/postgres/postgres-run-records.js";
import { migratedRunRecords, usePostgresServer } from "../../support/postgres-server.js";

const postgres = usePostgresServer();
const pools: pg.Pool[] = [];

afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end();
});

async function store(): Promise<{ records: PostgresRunRecords; age: () => Promise<void> }> {
  const { records, pool, schema } = await migratedRunRecords(postgres().url);
  pools.push(pool);
  return {
    records,
    // As if every record so far were written an hour ago.
    age: async () => {
      await pool.query(
        `UPDATE ${quoteIdentifier(schema)}.flower_steps SET updated_at = now() - interval '1 hour'`,
      );
    },
  };
}

const names = (records: StepRecord[]) => records.map((record) => `${record.step}:${record.costUsd}`).sort();

describe("a page's copy of the store's records", () => {
  it("holds what the store holds after writes, an overwrite and a forget, reading only what changed", async () => {
    const { records, age } = await store();
    const fetched: number[] = [];
    const followed = new FollowedRecords({
      changes: async (since) => {
        const change = await records.changes(since);
        fetched.push(change.records.length);
        return change;
      },
      names: () => records.names(),
    });
    for (let index = 0; index < 50; index++)
      await records.put(newStepRecord(`s${index}`, "a", "t", new Date()));
    expect(names(await followed.list())).toEqual(names(await records.list()));
    expect(fetched.at(-1)).toBe(50);
    await age();

    const changed = (await records.get("s7"))!;
    changed.costUsd = 1.5;
    await records.put(changed);
    await records.put(newStepRecord("new", "a", "t", new Date()));
    await records.delete("s3");
    expect(names(await followed.list())).toEqual(names(await records.list()));
    // Only the two records written since came (and nothing of the 49 older ones).
    expect(fetched.at(-1)).toBe(2);

    // Nothing older than the last minute comes again, and the copy stays the same.
    await age();
    expect(names(await followed.list())).toEqual(names(await records.list()));
    expect(fetched.at(-1)).toBe(0);
  });
});
