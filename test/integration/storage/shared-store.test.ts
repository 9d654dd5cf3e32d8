/**
 * The shared store's parts against a real PostgreSQL server: the store URL, run records and leases
 * (fencing, takeover, the server's clock), the write-through records, sessions that roam between
 * checkouts, and the workspace files that follow them. The whole path through the binary is in
 * test/e2e/cli/shared-store.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError, LeaseLostError, StoreError } from "../../../src/errors.js";
import { Runtime } from "../../../src/index.js";
import { PostgresRunRecords } from "../../../src/storage/postgres/postgres-run-records.js";
import { currentProcess, type ProcessIdentity } from "../../../src/records/process-identity.js";
import { SharedRunRecords } from "../../../src/storage/shared-run-records.js";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { newStepRecord } from "../../../src/records/step-record.js";
import { StepLease } from "../../../src/runtime/drive/step-lease.js";
import { WorkspaceSync } from "../../../src/runtime/files/workspace-sync.js";
import { quoteIdentifier } from "../../../src/storage/postgres/migrate.js";
import { PostgresSessionStore } from "../../../src/storage/postgres/postgres-session-store.js";
import { PostgresWorkspaceFiles } from "../../../src/storage/postgres/postgres-workspace-files.js";
import { RoamingSessionStore } from "../../../src/session-layers/roaming-store.js";
import { parseStoreSpec } from "../../../src/storage/store-spec.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";

const postgres = usePostgresServer();
const pools: pg.Pool[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "flower-shared-"));
  dirs.push(dir);
  return dir;
}

/** A migrated schema and the parts over one pool, as backing-store.ts assembles them. */
async function shared(schema = freshSchema()) {
  const pool = new pg.Pool({ connectionString: postgres().url, max: 3 });
  pools.push(pool);
  const sessions = new PostgresSessionStore({ pool, schema });
  await sessions.ready();
  const ready = async () => pool;
  const location = `test schema ${schema}`;
  return {
    pool,
    schema,
    sessions,
    records: new PostgresRunRecords(ready, quoteIdentifier(schema), location),
    files: new PostgresWorkspaceFiles(ready, quoteIdentifier(schema), location),
  };
}

const elsewhere: ProcessIdentity = { pid: 4242, host: "runner-b", startTicks: 1, machine: "other/pid:[1]" };

describe("the store option", () => {
  it("accepts the default, postgres URLs with a schema, and SQLite paths", () => {
    expect(parseStoreSpec(undefined)).toEqual({ kind: "sqlite", path: null });
    expect(parseStoreSpec("  ")).toEqual({ kind: "sqlite", path: null });
    expect(parseStoreSpec("sqlite:/tmp/x.db")).toEqual({ kind: "sqlite", path: "/tmp/x.db" });
    expect(parseStoreSpec("postgres://ci:secret@db.internal:5432/flower?schema=team_a")).toEqual({
      kind: "postgres",
      url: "postgres://ci:secret@db.internal:5432/flower",
      schema: "team_a",
      shown: "postgres://ci:***@db.internal:5432/flower?schema=team_a",
    });
  });

  it.each([
    ["postgres:/db.internal/flower", "postgres:/db.internal/flower"],
    ["postgres://ci:secret@:5432/flower", "postgres://ci:***@:5432/flower"],
    ["postgres://ci:secret@db:99999/flower", "postgres://ci:***@db:99999/flower"],
    ["postgresql://ci:secret@db/flower?schema=Bad-Name", "postgresql://ci:***@db/flower?schema=Bad-Name"],
    ["mysql://ci:secret@db/flower", "mysql://ci:***@db/flower"],
  ])("refuses %s, naming it with the password masked", (value, shown) => {
    const error = (() => {
      try {
        parseStoreSpec(value);
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain(JSON.stringify(shown));
    expect((error as Error).message).not.toContain("secret");
  });

  it("Runtime refuses a malformed store before it creates anything", () => {
    const root = tempDir();
    expect(
      () => new Runtime({ workspace: root, runDir: join(root, "runs"), store: "postgres://x:y@" }),
    ).toThrow(ConfigurationError);
    expect(existsSync(join(root, "runs"))).toBe(false);
  });

  it("Runtime.ready() names an unreachable store without its password", async () => {
    const root = tempDir();
    const rt = new Runtime({
      workspace: root,
      runDir: join(root, "runs"),
      store: "postgres://ci:secret@127.0.0.1:1/flower",
    });
    try {
      const failure = await rt.ready().then(
        () => null,
        (error: unknown) => error as Error,
      );
      expect(failure).toBeInstanceOf(StoreError);
      expect(failure!.message).toMatch(
        /^Cannot use the store postgres:\/\/ci:\*\*\*@127\.0\.0\.1:1\/flower \(schema public\): .*ECONNREFUSED/,
      );
      expect(failure!.message).not.toContain("secret");
    } finally {
      rt.close();
    }
  });
});

describe("run records and leases in Postgres", () => {
  it("gives a step to one acquirer, fences writes by the lease, and lets a dead owner's lease be taken over", async () => {
    const { records } = await shared();
    const self = currentProcess();
    const now = new Date();
    const results = await Promise.all(
      ["a", "b", "c", "d"].map((token) => records.acquire("build", { self, now, token })),
    );
    const winners = results.filter((result) => result.kind === "acquired");
    expect(winners).toHaveLength(1);
    const token = winners[0]!.lease.token;
    expect(results.filter((result) => result.kind === "held").map((r) => r.lease.token)).toEqual([
      token,
      token,
      token,
    ]);

    const record = newStepRecord("build", "lead", "Build it.");
    await records.put(record, { lease: token });
    await expect(records.put(record, { lease: "not-the-lease" })).rejects.toBeInstanceOf(LeaseLostError);

    // Another machine takes the lease over (its owner presumed dead): the old holder can no longer write.
    expect(await records.takeOver("build", token, { self: elsewhere, now, token: "successor" })).toBe(true);
    expect(await records.takeOver("build", token, { self, now, token: "late" })).toBe(false);
    await expect(records.put({ ...record, numTurns: 9 }, { lease: token })).rejects.toBeInstanceOf(
      LeaseLostError,
    );
    expect((await records.get("build"))!.numTurns).toBe(0);
    expect(await records.heartbeat("build", token, now)).toBe(false);
    expect(await records.heartbeat("build", "successor", now, [11, 12])).toBe(true);
    const [lease] = await records.leases();
    expect(lease).toMatchObject({ step: "build", token: "successor", host: "runner-b", children: [11, 12] });
    expect(lease!.machine).toBe(elsewhere.machine);
    await records.release("build", "successor");
    expect(await records.leases()).toEqual([]);
    expect(await records.delete("build")).toBe(true);
    expect(await records.list()).toEqual([]);
  });

  it("ages a heartbeat by the server's clock, so a skewed machine still agrees on staleness", async () => {
    const { records, pool, schema } = await shared();
    await records.acquire("build", { self: elsewhere, now: new Date(0), token: "t" });
    await pool.query(
      `UPDATE ${schema}.flower_leases SET heartbeat_at = now() - interval '45 seconds' WHERE step = 'build'`,
    );
    const [lease] = await records.leases();
    const age = Date.now() - Date.parse(lease!.heartbeatAt);
    expect(age).toBeGreaterThan(44_000);
    expect(age).toBeLessThan(50_000);
  });

  it("takes over a runner on another machine only once its heartbeat is older than staleAfterMs", async () => {
    const { records, pool, schema } = await shared();
    await records.acquire("build", { self: elsewhere, now: new Date(), token: "dead" });
    const timing = { heartbeatMs: 1_000, staleAfterMs: 30_000 };
    const driver = new SharedRunRecords(new SqliteRunRecords(join(tempDir(), "runs")), records);
    const acquire = () =>
      StepLease.acquire({ records: driver, step: "build", timing, now: () => new Date() });
    // Its pid means nothing here (another machine): a fresh heartbeat keeps the step held.
    await expect(acquire()).rejects.toThrow(/is being driven by pid 4242 on runner-b/);
    await pool.query(
      `UPDATE ${schema}.flower_leases SET heartbeat_at = now() - interval '31 seconds' WHERE step = 'build'`,
    );
    const lease = await acquire();
    expect((await records.leases())[0]).toMatchObject({ token: lease.token, pid: process.pid });
    await lease.release();
    expect(await records.leases()).toEqual([]);
    driver.close();
  });
});

describe("records written through to the store", () => {
  it("keeps a local copy, writes every put through, and brings records to a fresh run directory", async () => {
    const { records: remote } = await shared();
    const first = new SharedRunRecords(new SqliteRunRecords(join(tempDir(), "runs")), remote);
    const self = currentProcess();
    const acquired = await first.acquire("build", { self, now: new Date(), token: "one" });
    expect(acquired.kind).toBe("acquired");
    const record = newStepRecord("build", "lead", "Build it.");
    for (let turn = 1; turn <= 20; turn += 1) first.put({ ...record, numTurns: turn }, { lease: "one" });
    expect(first.get("build")!.numTurns).toBe(20);
    await first.release("build", "one");
    expect((await remote.get("build"))!.numTurns).toBe(20);

    const freshRunDir = join(tempDir(), "runs");
    const second = new SharedRunRecords(new SqliteRunRecords(freshRunDir), remote);
    expect(second.get("build")).toBeUndefined();
    await second.pull("build");
    expect(second.get("build")).toMatchObject({ numTurns: 20, prompt: "Build it." });
    // The human-readable mirror is written on this machine too.
    expect(readFileSync(join(freshRunDir, "manifest.json"), "utf8")).toContain('"numTurns": 20');
    first.close();
    second.close();
  });

  it("a pull on this machine keeps a record another driver here is writing, and takes it once released", async () => {
    const { records: remote, pool, schema } = await shared();
    // Two runtimes of one machine over one run directory: a worker's two runs, or two workers in one checkout.
    const runDir = join(tempDir(), "runs");
    const driver = new SharedRunRecords(new SqliteRunRecords(runDir), remote);
    const other = new SharedRunRecords(new SqliteRunRecords(runDir), remote);
    const self = currentProcess();
    await driver.acquire("build", { self, now: new Date(), token: "driver" });
    const record = newStepRecord("build", "lead", "Build it.");
    driver.put(record, { lease: "driver" });
    await driver.flush();
    // The step's end is in the local copy, its write to the store still on its way (held here by a lock
    // on the lease row, which every fenced write share-locks).
    const holding = await pool.connect();
    await holding.query("BEGIN");
    await holding.query(
      `SELECT 1 FROM ${quoteIdentifier(schema)}.flower_leases WHERE step = 'build' FOR UPDATE`,
    );
    try {
      driver.put({ ...record, status: "done" }, { lease: "driver" });
      await other.pull();
      expect((await remote.get("build"))!.status).toBe("running");
      expect(other.get("build")!.status).toBe("done");
      expect(driver.get("build")!.status).toBe("done");
    } finally {
      await holding.query("ROLLBACK");
      holding.release();
    }
    await driver.release("build", "driver");
    expect((await remote.get("build"))!.status).toBe("done");
    // Released: what the store has now (changed from another machine since) is what a pull brings.
    await remote.put({ ...record, status: "done", numTurns: 9 }, {});
    await other.pull();
    expect(other.get("build")).toMatchObject({ status: "done", numTurns: 9 });
    driver.close();
    other.close();
  });

  it("under its own lease a driver takes the store's copy of its step over the local one", async () => {
    const { records: remote } = await shared();
    const runDir = join(tempDir(), "runs");
    const here = new SharedRunRecords(new SqliteRunRecords(runDir), remote);
    const record = newStepRecord("build", "lead", "Build it.");
    here.local.put({ ...record, numTurns: 1 });
    // Driven on from another machine meanwhile.
    await remote.put({ ...record, numTurns: 40 }, {});
    await here.acquire("build", { self: currentProcess(), now: new Date(), token: "mine" });
    await here.pull("build");
    expect(here.get("build")!.numTurns).toBe(1);
    await here.pull("build", { lease: "mine" });
    expect(here.get("build")!.numTurns).toBe(40);
    await here.release("build", "mine");
    here.close();
  });

  it("stops a driver whose lease was taken over at its next save, and keeps the store's record", async () => {
    const { records: remote } = await shared();
    const driver = new SharedRunRecords(new SqliteRunRecords(join(tempDir(), "runs")), remote);
    const self = currentProcess();
    await driver.acquire("build", { self, now: new Date(), token: "old" });
    const record = newStepRecord("build", "lead", "Build it.");
    driver.put({ ...record, numTurns: 1 }, { lease: "old" });
    await driver.flush();
    await remote.takeOver("build", "old", { self: elsewhere, now: new Date(), token: "new" });
    await remote.put({ ...record, numTurns: 50 }, { lease: "new" });
    // The heartbeat notices; the next save throws instead of going on.
    expect(await driver.heartbeat("build", "old", new Date())).toBe(false);
    expect(() => driver.put({ ...record, numTurns: 2 }, { lease: "old" })).toThrow(LeaseLostError);
    expect((await remote.get("build"))!.numTurns).toBe(50);
    driver.close();
  });

  it("reports a write that did not reach the store at the flush, and refuses the step's next save", async () => {
    const { pool } = await shared();
    // A schema without flower's tables: every write to it fails in the database.
    const broken = new PostgresRunRecords(async () => pool, quoteIdentifier("no_such_schema"), "broken");
    const driver = new SharedRunRecords(new SqliteRunRecords(join(tempDir(), "runs")), broken);
    const record = newStepRecord("build", "lead", "Build it.");
    driver.put(record);
    expect(driver.get("build")).toMatchObject({ step: "build" });
    await expect(driver.flush("build")).rejects.toThrow(/Run records: cannot write a step in broken/);
    await expect(driver.flush()).rejects.toBeInstanceOf(StoreError);
    expect(() => driver.put(record)).toThrow(StoreError);
    driver.close();
  });
});

describe("sessions that roam between checkouts", () => {
  it("loads and extends a session from another workspace path, with its spill pointers resolving here", async () => {
    const { sessions, files } = await shared();
    const first = join(tempDir(), "checkout-a");
    const second = join(tempDir(), "checkout-b");
    mkdirSync(join(first, ".flower", "spill"), { recursive: true });
    const spillName = "20261130-120000000-0001-abcd1234-Bash-stdout.txt";
    const spillText = "line\n".repeat(2000);
    writeFileSync(join(first, ".flower", "spill", spillName), spillText);
    const syncA = new WorkspaceSync(files, first);
    syncA.saveFile(join(first, ".flower", "spill", spillName), "build");
    await syncA.flush();

    const keyA = { projectKey: first.replaceAll("/", "-"), sessionId: "5e55-1" };
    const keyB = { projectKey: second.replaceAll("/", "-"), sessionId: "5e55-1" };
    const pointer = `[Full text (10000 chars) saved to ${first}/.flower/spill/${spillName}; read it with Read if needed.]`;
    const roamA = new RoamingSessionStore({ inner: sessions, workspace: first, files });
    await roamA.append(keyA, [
      { type: "user", uuid: "u1", cwd: first, message: { role: "user", content: "go" } },
      { type: "user", uuid: "u2", cwd: first, message: { role: "user", content: pointer } },
    ]);

    const roamB = new RoamingSessionStore({ inner: sessions, workspace: second, files });
    const loaded = await roamB.load(keyB);
    expect(loaded).toHaveLength(2);
    const text = JSON.stringify(loaded);
    expect(text).toContain(`${second}/.flower/spill/${spillName}`);
    expect(text).not.toContain(`${first}/.flower/`);
    // cwd itself is history, not a pointer: it stays.
    expect((loaded![0] as unknown as { cwd: string }).cwd).toBe(first);
    expect(readFileSync(join(second, ".flower", "spill", spillName), "utf8")).toBe(spillText);

    // Appends from the second checkout extend the same transcript, under its first project key.
    await roamB.append(keyB, [
      { type: "user", uuid: "u3", cwd: second, message: { role: "user", content: "on" } },
    ]);
    expect(await sessions.load(keyB)).toBeNull();
    expect((await sessions.load(keyA))!.map((entry) => entry.uuid)).toEqual(["u1", "u2", "u3"]);
    expect(await roamA.load(keyA)).toHaveLength(3);
  });

  it("brings frozen notes to a checkout that lacks them or holds an older copy, and leaves equal ones", async () => {
    const { files } = await shared();
    const first = tempDir();
    const second = tempDir();
    const notes = (root: string) => join(root, ".flower", "notes");
    mkdirSync(join(notes(first), "archive", "handoff"), { recursive: true });
    writeFileSync(join(notes(first), "handoff-build.md"), "# Handoff\nnewest\n");
    writeFileSync(join(notes(first), "archive", "handoff", "build-2026.md"), "# Handoff\nolder\n");
    writeFileSync(join(notes(first), "requirements.md"), "# Requirements\n");
    const syncA = new WorkspaceSync(files, first);
    syncA.saveNotes("build");
    await syncA.flush();

    mkdirSync(notes(second), { recursive: true });
    writeFileSync(join(notes(second), "requirements.md"), "# Requirements\n");
    const stale = join(notes(second), "handoff-build.md");
    writeFileSync(stale, "# Handoff\nstale\n");
    const past = new Date(Date.now() - 3_600_000);
    utimesSync(stale, past, past);

    const written = await new WorkspaceSync(files, second).restoreNotes();
    expect(written.sort()).toEqual(
      [
        join(notes(second), "archive", "handoff", "build-2026.md"),
        join(notes(second), "handoff-build.md"),
      ].sort(),
    );
    expect(readFileSync(stale, "utf8")).toBe("# Handoff\nnewest\n");
  });
});

describe("the docs' way to delete a run (docs/shared-store.md)", () => {
  it("deletes the step's sessions (all generations), files, lease and record, and nothing of another step", async () => {
    const { sessions, records, files, pool, schema } = await shared();
    const docs = readFileSync(join(import.meta.dirname, "../../../docs/shared-store.md"), "utf8");
    // The block is indented under a list item there: the SQL is the same once the indent is gone.
    const sql = /```sql\n([\s\S]*?)```/
      .exec(docs)![1]!
      .replace(/^ {2}/gm, "")
      .replaceAll("flower.flower_", `${schema}.flower_`);
    const step = (name: string, sessionId: string, retired: string[]) => ({
      ...newStepRecord(name, "lead", "Work."),
      sessionId,
      retired,
    });
    await records.put(step("upgrade-deps", "s-3", ["s-1", "s-2"]));
    await records.put(step("other", "s-9", []));
    for (const id of ["s-1", "s-2", "s-3", "s-9"]) {
      await sessions.append({ projectKey: "-repo", sessionId: id }, [{ type: "user", uuid: `${id}-u` }]);
      await sessions.append({ projectKey: "-repo", sessionId: id, subpath: "subagents/agent-a" }, [
        { type: "user", uuid: `${id}-sub` },
      ]);
    }
    await files.put(".flower/notes/handoff-upgrade-deps.md", Buffer.from("# Handoff"), "upgrade-deps");
    await files.put(".flower/notes/handoff-other.md", Buffer.from("# Handoff"), "other");
    await records.acquire("upgrade-deps", { self: elsewhere, now: new Date(), token: "t" });

    await pool.query(sql);

    for (const id of ["s-1", "s-2", "s-3"])
      expect(await sessions.load({ projectKey: "-repo", sessionId: id })).toBeNull();
    expect(await sessions.load({ projectKey: "-repo", sessionId: "s-9" })).toHaveLength(1);
    const { rows } = await pool.query<{ count: string }>(`SELECT count(*) FROM ${schema}.flower_entries`);
    expect(Number(rows[0]!.count)).toBe(2);
    expect((await files.list(".flower/notes/")).map((file) => file.path)).toEqual([
      ".flower/notes/handoff-other.md",
    ]);
    expect(await records.leases()).toEqual([]);
    expect((await records.list()).map((record) => record.step)).toEqual(["other"]);
  });
});

describe("the default stays SQLite", () => {
  it("opens records.db and sessions.db in the run directory without a store", () => {
    const root = tempDir();
    const rt = new Runtime({ workspace: root, runDir: join(root, "runs") });
    try {
      expect(rt.records).toBeInstanceOf(SqliteRunRecords);
      expect(existsSync(join(root, "runs", "records.db"))).toBe(true);
      expect(existsSync(join(root, "runs", "sessions.db"))).toBe(true);
    } finally {
      rt.close();
    }
  });
});
