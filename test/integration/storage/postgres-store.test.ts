/**
 * What only the Postgres store has to prove (the shared contract is in session-store-conformance.test.ts,
 * the rewrite layers in pruning-store.test.ts): migrations, concurrency between connections, exact
 * round-trips, idempotent replays, errors that name the store without leaking its password.
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { ConfigurationError, StoreError } from "../../../src/errors.js";
import { blobAddress } from "../../../src/session-layers/blob-store.js";
import { POSTGRES_MIGRATIONS } from "../../../src/storage/postgres/migrations.js";
import { PostgresSessionStore, redact } from "../../../src/storage/postgres/postgres-session-store.js";
import { freshSchema, usePostgresServer, queryOnce } from "../../support/postgres-server.js";
import {
  sampleTranscript,
  repeatedMarkers,
  type Entry,
} from "../../unit/session-layers/transcript-fixtures.js";

const main = { projectKey: "-repo", sessionId: "s-1" };
const postgres = usePostgresServer();
const open: PostgresSessionStore[] = [];

function store(schema = freshSchema(), extra: { maxConnections?: number } = {}): PostgresSessionStore {
  const created = new PostgresSessionStore({ url: postgres().url, schema, maxConnections: 2, ...extra });
  open.push(created);
  return created;
}

function query<Row extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<Row[]> {
  return queryOnce<Row>(postgres().url, sql, values);
}

afterEach(async () => {
  for (const created of open.splice(0)) await created.close();
});

describe("PostgresSessionStore schema", () => {
  it("creates its tables on first use and records the version once, with two starting at once", async () => {
    const schema = freshSchema();
    const racers = [store(schema), store(schema), store(schema), store(schema)];
    await Promise.all(racers.map((racer) => racer.ready()));
    const versions = await query<{ version: number }>(`SELECT version FROM ${schema}.flower_schema_version`);
    expect(versions).toEqual(POSTGRES_MIGRATIONS.map((migration) => ({ version: migration.version })));
    const tables = await query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
      [schema],
    );
    expect(tables.map((row) => row.table_name)).toEqual([
      "flower_blobs",
      "flower_entries",
      "flower_files",
      "flower_fleet_runs",
      "flower_handoff_requests",
      "flower_leases",
      "flower_person_messages",
      "flower_schema_version",
      "flower_step_spend",
      "flower_steps",
      "flower_transcripts",
      "flower_work",
    ]);
    // A later start finds the schema current and changes nothing.
    await store(schema).ready();
    expect(await query(`SELECT version FROM ${schema}.flower_schema_version`)).toHaveLength(
      POSTGRES_MIGRATIONS.length,
    );
  });

  it("refuses a schema written by a newer flower, naming both versions", async () => {
    const schema = freshSchema();
    await store(schema).ready();
    await query(`INSERT INTO ${schema}.flower_schema_version (version, description) VALUES (99, 'future')`);
    const late = store(schema);
    await expect(late.load(main)).rejects.toThrow(
      new RegExp(`version 99, newer than this flower knows \\(${POSTGRES_MIGRATIONS.length}\\)`),
    );
  });
});

describe("PostgresSessionStore with a runner's role", () => {
  it("works on a schema an administrator migrated, with DML rights only", async () => {
    const schema = freshSchema();
    await store(schema).ready();
    const role = `runner_${process.pid}`;
    await query(`CREATE ROLE ${role} LOGIN`);
    await query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
    await query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
    await query(`GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`);
    const runner = new PostgresSessionStore({ url: postgres().url.replace("flower@", `${role}@`), schema });
    open.push(runner);
    await runner.append(main, sampleTranscript());
    expect(await runner.load(main)).toEqual(sampleTranscript());
    // Creating tables is what it may not do: a fresh schema needs the administrator.
    const fresh = new PostgresSessionStore({
      url: postgres().url.replace("flower@", `${role}@`),
      schema: freshSchema(),
    });
    open.push(fresh);
    await expect(fresh.ready()).rejects.toThrow(/permission denied/);
  });
});

describe("PostgresSessionStore", () => {
  it("round-trips entries exactly: key order, unicode, NUL escapes", async () => {
    const entries: SessionStoreEntry[] = [
      { type: "user", uuid: "u1", zeta: 1, alpha: { b: 2, a: [1, "x"] }, text: "nul \u0000 and 🌸 世界" },
      { type: "assistant", uuid: "u2", n: 1.5e-7, big: 12345678901234 },
    ];
    const created = store();
    await created.append(main, entries);
    expect(JSON.stringify(await created.load(main))).toBe(JSON.stringify(entries));
  });

  it("adds nothing when a batch is replayed or retried, uuid or not", async () => {
    const created = store();
    const entries = sampleTranscript();
    await created.append(main, entries);
    await created.append(main, entries);
    await created.append(main, entries.slice(2, 5));
    expect(await created.load(main)).toEqual(entries);
    const batch = repeatedMarkers();
    const key = { ...main, sessionId: "s-markers" };
    await created.append(key, batch);
    await created.append(key, batch);
    expect(await created.load(key)).toEqual(batch);
  });

  it("keeps every batch whole and in order when two connections append to one transcript", async () => {
    const schema = freshSchema();
    const [first, second] = [store(schema), store(schema)];
    const batch = (writer: string, index: number): Entry[] =>
      [0, 1, 2].map((position) => ({ type: "user", uuid: `${writer}-${index}-${position}` }));
    await Promise.all(
      [first, second].map(async (writer, w) => {
        for (let index = 0; index < 40; index += 1) await writer.append(main, batch(`w${w}`, index));
      }),
    );
    const loaded = ((await first.load(main)) ?? []).map((entry) => String(entry.uuid));
    expect(loaded).toHaveLength(2 * 40 * 3);
    expect(new Set(loaded).size).toBe(loaded.length);
    for (let i = 0; i < loaded.length; i += 3) {
      const [writer, index] = (loaded[i] as string).split("-");
      expect(loaded.slice(i, i + 3)).toEqual([0, 1, 2].map((p) => `${writer}-${index}-${p}`));
    }
    for (const writer of ["w0", "w1"]) {
      const order = loaded.filter((uuid) => uuid.startsWith(`${writer}-`) && uuid.endsWith("-0"));
      expect(order).toEqual(Array.from({ length: 40 }, (_, index) => `${writer}-${index}-0`));
    }
  });

  it("lists sessions with increasing mtimes, subagents in first-written order, and project keys", async () => {
    const created = store();
    await created.append(main, sampleTranscript());
    await created.append(main, sampleTranscript().slice(0, 1));
    await created.append({ ...main, sessionId: "s-2" }, sampleTranscript());
    await created.append({ ...main, subpath: "subagents/agent-b" }, sampleTranscript());
    await created.append({ ...main, subpath: "subagents/agent-a" }, sampleTranscript());
    await created.append({ projectKey: "-elsewhere", sessionId: "s-1" }, sampleTranscript());
    const sessions = await created.listSessions(main.projectKey);
    expect(sessions.map((session) => session.sessionId).sort()).toEqual(["s-1", "s-2"]);
    expect(sessions.every((session) => Number.isInteger(session.mtime) && session.mtime > 1e12)).toBe(true);
    expect(await created.listSubkeys(main)).toEqual(["subagents/agent-b", "subagents/agent-a"]);
    expect(await created.projectKeysOf("s-1")).toEqual(["-elsewhere", "-repo"]);
  });

  it("deletes a main transcript with its subagents and their entry rows", async () => {
    const schema = freshSchema();
    const created = store(schema);
    await created.append(main, sampleTranscript());
    await created.append({ ...main, subpath: "subagents/agent-a" }, sampleTranscript());
    await created.delete(main);
    expect(await created.load({ ...main, subpath: "subagents/agent-a" })).toBeNull();
    expect(await query(`SELECT seq FROM ${schema}.flower_entries`)).toEqual([]);
  });

  it("writes a whole batch or nothing", async () => {
    const created = store();
    const poisoned = [...sampleTranscript().slice(0, 2), { type: "x", bad: 1n } as unknown as Entry];
    await expect(created.append(main, poisoned)).rejects.toThrow(StoreError);
    expect(await created.load(main)).toBeNull();
  });

  it("keeps spill blobs by sha256 and finds them by the spill file's prefix", async () => {
    const created = store();
    const content = "L".repeat(5000);
    const address = await created.blobs.put(content);
    expect(address).toBe(blobAddress(content));
    expect(await created.blobs.put(content)).toBe(address);
    expect(await created.blobs.get(address.slice(0, 20))).toBe(content);
    expect(await created.blobs.get("0123456789abcdef0123")).toBeNull();
    await expect(created.blobs.get("L'; DROP TABLE x; --")).rejects.toThrow(ConfigurationError);
  });

  it("validates options, and names the store in errors without its password", async () => {
    expect(() => new PostgresSessionStore({})).toThrow(/url/);
    expect(() => new PostgresSessionStore({ url: "mysql://x" })).toThrow(/postgres:\/\//);
    expect(() => new PostgresSessionStore({ url: postgres().url, schema: "Bad-Name" })).toThrow(/schema/);
    expect(() => new PostgresSessionStore({ url: postgres().url, maxConnections: 0 })).toThrow(
      /maxConnections/,
    );
    expect(redact("postgres://me:secret@db:5432/x")).toBe("postgres://me:***@db:5432/x");
    // Nothing listens on port 1.
    const unreachable = new PostgresSessionStore({ url: "postgres://me:secret@127.0.0.1:1/x" });
    open.push(unreachable);
    const failure = await unreachable.load(main).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreError);
    expect(String((failure as Error).message)).toContain("127.0.0.1:1");
    expect(String((failure as Error).message)).not.toContain("secret");
  });

  it("leaves a pool it was given open, and refuses calls after close", async () => {
    const pool = new pg.Pool({ connectionString: postgres().url, max: 1 });
    try {
      const created = new PostgresSessionStore({ pool, schema: freshSchema() });
      await created.append(main, sampleTranscript());
      await created.close();
      await created.close();
      await expect(created.load(main)).rejects.toThrow(/closed/);
      expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });
});
