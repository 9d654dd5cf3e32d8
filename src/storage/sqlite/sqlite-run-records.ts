/**
 * Step records and leases in SQLite (`<runDir>/records.db`, WAL), changed in transactions, with
 * `manifest.json` rewritten from the database inside the same write transaction. Writers queue on
 * SQLite's write lock, so the file is replaced in commit order and always holds every step as committed:
 * two processes running different steps of one run directory never lose each other's updates (the old
 * read-change-write of the whole file did, in a window that grew with the file).
 */
import { existsSync } from "node:fs";
import { createPrivateFile, makePrivateDirectory } from "../../fs/private-files.js";
import type Database from "better-sqlite3";
import { LeaseLostError, ManifestError, StoreError } from "../../errors.js";
import { RECORDS_FILE, recordsPath } from "../files.js";
import type { LeaseRow } from "../../records/lease.js";
import { manifestPath, readManifestFile, writeManifestFile } from "../../records/manifest-file.js";
import type { AcquireOptions, AcquireResult, RunRecords } from "../../records/run-records.js";
import { daySpends, runOf } from "../../records/run-spend.js";
import type { StepRecord } from "../../records/step-record.js";
import { SqliteHandoffRequests } from "./sqlite-handoff-requests.js";
import { SqlitePersonMessages } from "./sqlite-person-messages.js";
import { openWal } from "./open-wal.js";

const SCHEMA_VERSION = 2;

interface LeaseColumns {
  step: string;
  token: string;
  pid: number;
  host: string;
  start_ticks: number | null;
  started_at: string;
  heartbeat_at: string;
  children: string;
}

function toLease(row: LeaseColumns): LeaseRow {
  return {
    step: row.step,
    token: row.token,
    pid: row.pid,
    host: row.host,
    startTicks: row.start_ticks,
    startedAt: row.started_at,
    heartbeatAt: row.heartbeat_at,
    children: JSON.parse(row.children) as number[],
  };
}

export class SqliteRunRecords implements RunRecords {
  readonly location: string;
  readonly manifestPath: string;
  readonly #db: Database.Database;
  /** `flower handoff`'s channel to the live driver (handoff-requests.ts). */
  readonly requests: SqliteHandoffRequests;
  /** `flower say`'s channel to a run (person-messages.ts). */
  readonly messages: SqlitePersonMessages;

  constructor(runDir: string, options: { busyTimeoutMs?: number } = {}) {
    makePrivateDirectory(runDir);
    this.location = recordsPath(runDir);
    this.manifestPath = manifestPath(runDir);
    // Fail at construction on a corrupt or foreign manifest.json, before any step spends money, and never
    // overwrite it: it may be somebody else's file.
    const legacy = readManifestFile(this.manifestPath);
    const fresh = !existsSync(this.location);
    try {
      createPrivateFile(this.location);
      this.#db = openWal(this.location, options.busyTimeoutMs ?? 10_000);
      this.#migrate();
      this.requests = new SqliteHandoffRequests(this.#db);
      this.messages = new SqlitePersonMessages(this.#db);
    } catch (error) {
      throw new StoreError(`Cannot open the run records at ${this.location}: ${String(error)}`, {
        cause: error,
      });
    }
    if (fresh && legacy && Object.keys(legacy.steps).length > 0)
      this.#importLegacy(Object.values(legacy.steps));
  }

  #migrate(): void {
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS steps (
        step TEXT PRIMARY KEY,
        record TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS leases (
        step TEXT PRIMARY KEY,
        token TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        start_ticks INTEGER,
        started_at TEXT NOT NULL,
        heartbeat_at TEXT NOT NULL,
        children TEXT NOT NULL DEFAULT '[]'
      );
    `);
    const row = this.#db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as
      { value: string } | undefined;
    const version = row ? Number(row.value) : 0;
    if (version > SCHEMA_VERSION)
      throw new Error(
        `${RECORDS_FILE} has schema ${version}, newer than this flower-agent understands (${SCHEMA_VERSION})`,
      );
    if (version < SCHEMA_VERSION)
      this.#db
        .transaction(() => {
          // Schema 2: what each step spent per UTC day, and its run and cost beside the record, kept by
          // every write of the record (#writeRecords): the day's spend and a run's are one aggregate.
          if (version < 2) this.#addSpend();
          this.#db
            .prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)")
            .run(String(SCHEMA_VERSION));
        })
        .immediate();
  }

  /** Schema 2, and the sums of the records already there (a new file has none). */
  #addSpend(): void {
    const columns = (this.#db.prepare("PRAGMA table_info(steps)").all() as Array<{ name: string }>).map(
      (column) => column.name,
    );
    if (!columns.includes("run")) this.#db.exec("ALTER TABLE steps ADD COLUMN run TEXT");
    if (!columns.includes("cost_usd")) this.#db.exec("ALTER TABLE steps ADD COLUMN cost_usd REAL");
    this.#db.exec(`
      CREATE INDEX IF NOT EXISTS steps_run ON steps (run);
      CREATE TABLE IF NOT EXISTS step_spend (
        step TEXT NOT NULL,
        day TEXT NOT NULL,
        usd REAL NOT NULL,
        PRIMARY KEY (step, day)
      );
      CREATE INDEX IF NOT EXISTS step_spend_day ON step_spend (day);
    `);
    for (const record of this.list()) this.#writeSpend(record);
  }

  /** Inside the record's write transaction: its run, its cost and its spend per day, beside it. */
  #writeSpend(record: StepRecord): void {
    this.#db
      .prepare("UPDATE steps SET run = ?, cost_usd = ? WHERE step = ?")
      .run(runOf(record), record.costUsd, record.step);
    this.#db.prepare("DELETE FROM step_spend WHERE step = ?").run(record.step);
    const insert = this.#db.prepare("INSERT INTO step_spend (step, day, usd) VALUES (?, ?, ?)");
    for (const [day, usd] of daySpends(record)) insert.run(record.step, day, usd);
  }

  /** What every record spent on a UTC day (`YYYY-MM-DD`): daySpent over them all, as one sum. */
  daySpent(day: string): number {
    const row = this.#db.prepare("SELECT total(usd) AS usd FROM step_spend WHERE day = ?").get(day) as {
      usd: number;
    };
    return row.usd;
  }

  /** A run's spent figure (runSpent over its records), as one sum. */
  runSpent(run: string): number {
    const row = this.#db.prepare("SELECT total(cost_usd) AS usd FROM steps WHERE run = ?").get(run) as {
      usd: number;
    };
    return row.usd;
  }

  /** An older run directory kept its records only in manifest.json: they move into the database once. */
  #importLegacy(records: StepRecord[]): void {
    const insert = this.#db.prepare(
      "INSERT OR IGNORE INTO steps (step, record, updated_at) VALUES (?, ?, ?)",
    );
    this.#db
      .transaction(() => {
        for (const record of records) {
          insert.run(record.step, JSON.stringify(record), record.updatedAt);
          this.#writeSpend(record);
        }
      })
      .immediate();
  }

  get(step: string): StepRecord | undefined {
    const row = this.#db.prepare("SELECT record FROM steps WHERE step = ?").get(step) as
      { record: string } | undefined;
    return row ? (JSON.parse(row.record) as StepRecord) : undefined;
  }

  list(): StepRecord[] {
    const rows = this.#db.prepare("SELECT record FROM steps ORDER BY updated_at, step").all() as Array<{
      record: string;
    }>;
    return rows.map((row) => JSON.parse(row.record) as StepRecord);
  }

  put(record: StepRecord, options: { lease?: string } = {}): void {
    this.#writeRecords([{ ...record, updatedAt: new Date().toISOString() }], options.lease);
  }

  /**
   * Copies of records from a shared store, each keeping the time it was last changed there: one
   * transaction and one manifest write for all of them (a fleet's checkout holds hundreds of records,
   * and every run a worker starts pulls them all).
   */
  putCopies(records: readonly StepRecord[]): void {
    if (records.length > 0) this.#writeRecords(records);
  }

  /** Writes the records as they are in one transaction, fenced by `lease` when given, and mirrors them. */
  #writeRecords(records: readonly StepRecord[], lease?: string): void {
    this.#db
      .transaction(() => {
        for (const record of records) {
          if (lease !== undefined) {
            const holder = this.#db.prepare("SELECT token FROM leases WHERE step = ?").get(record.step) as
              { token: string } | undefined;
            if (holder?.token !== lease) throw new LeaseLostError(record.step);
          }
          this.#db
            .prepare(
              "INSERT INTO steps (step, record, updated_at) VALUES (?, ?, ?) ON CONFLICT(step) DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at",
            )
            .run(record.step, JSON.stringify(record), record.updatedAt);
          this.#writeSpend(record);
        }
        this.#mirror();
      })
      .immediate();
  }

  /** Inside the write transaction: the file follows the commit order of the database. */
  #mirror(): void {
    try {
      writeManifestFile(this.manifestPath, this.list());
    } catch (error) {
      throw new ManifestError(this.manifestPath, "Cannot write the manifest; the change was not saved", {
        cause: error,
      });
    }
  }

  delete(step: string): boolean {
    let deleted = false;
    this.#db
      .transaction(() => {
        deleted = this.#db.prepare("DELETE FROM steps WHERE step = ?").run(step).changes > 0;
        this.#db.prepare("DELETE FROM step_spend WHERE step = ?").run(step);
        this.#db.prepare("DELETE FROM leases WHERE step = ?").run(step);
        this.requests.deleteStep(step);
        this.messages.deleteStep(step);
        this.#mirror();
      })
      .immediate();
    return deleted;
  }

  acquire(step: string, options: AcquireOptions & { token: string }): AcquireResult {
    return this.#db
      .transaction((): AcquireResult => {
        const current = this.#lease(step);
        if (current && current.token !== options.token) {
          return { kind: "held", lease: current };
        }
        const lease = this.#write(step, options);
        return { kind: "acquired", lease };
      })
      .immediate();
  }

  takeOver(step: string, deadToken: string, options: AcquireOptions & { token: string }): boolean {
    return this.#db
      .transaction(() => {
        const current = this.#lease(step);
        if (current && current.token !== deadToken) return false;
        this.#write(step, options);
        return true;
      })
      .immediate();
  }

  #lease(step: string): LeaseRow | undefined {
    const row = this.#db.prepare("SELECT * FROM leases WHERE step = ?").get(step) as LeaseColumns | undefined;
    return row ? toLease(row) : undefined;
  }

  #write(step: string, { self, now, token }: AcquireOptions & { token: string }): LeaseRow {
    const at = now.toISOString();
    this.#db
      .prepare(
        "INSERT OR REPLACE INTO leases (step, token, pid, host, start_ticks, started_at, heartbeat_at, children) VALUES (?, ?, ?, ?, ?, ?, ?, '[]')",
      )
      .run(step, token, self.pid, self.host, self.startTicks, at, at);
    return {
      step,
      token,
      pid: self.pid,
      host: self.host,
      startTicks: self.startTicks,
      startedAt: at,
      heartbeatAt: at,
      children: [],
    };
  }

  heartbeat(step: string, token: string, now: Date, children?: number[]): boolean {
    const result =
      children === undefined
        ? this.#db
            .prepare("UPDATE leases SET heartbeat_at = ? WHERE step = ? AND token = ?")
            .run(now.toISOString(), step, token)
        : this.#db
            .prepare("UPDATE leases SET heartbeat_at = ?, children = ? WHERE step = ? AND token = ?")
            .run(now.toISOString(), JSON.stringify(children), step, token);
    return result.changes > 0;
  }

  release(step: string, token: string): void {
    this.#db.prepare("DELETE FROM leases WHERE step = ? AND token = ?").run(step, token);
  }

  leases(): LeaseRow[] {
    return (this.#db.prepare("SELECT * FROM leases ORDER BY step").all() as LeaseColumns[]).map(toLease);
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
