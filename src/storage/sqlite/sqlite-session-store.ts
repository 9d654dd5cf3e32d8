/**
 * The embedded session store: an SDK `SessionStore` on one SQLite file (better-sqlite3, WAL).
 *
 * - One transaction per `append` batch, taken with `BEGIN IMMEDIATE`: two processes on the same file
 *   queue on the write lock (busy timeout) instead of failing a deferred transaction's lock upgrade.
 * - Idempotent: an entry with a `uuid` is stored once per transcript (the SDK retries failed appends and
 *   `importSessionToStore()` replays whole sessions). An entry without one (`cost-state`, `last-prompt`,
 *   `mode`, …) is keyed on its content, anchored to the nearest preceding uuid in the same batch plus its
 *   occurrence there: a retried or replayed batch adds nothing, while the same marker written again after
 *   new conversation (e.g. `mode` switching back) is a new row, so order-sensitive markers keep their
 *   meaning. Leading uuid-less entries of a batch have no anchor; an identical one in a later batch is
 *   taken as a replay (for the entries seen so far, `cost-state` and `last-prompt`, a lost duplicate is
 *   harmless, a duplicated one only noise).
 * - Entries go in as `JSON.stringify` and come out as `JSON.parse`: deep-equal, in commit order.
 * - Rows are never updated. The rewrite layers (trimming-store.ts) rewrite what `load()` returns, never what is stored.
 */
import { createHash } from "node:crypto";
import { createPrivateFile, makePrivateDirectory } from "../../fs/private-files.js";
import { dirname, resolve } from "node:path";
import type Database from "better-sqlite3";
import type { SessionKey, SessionStore, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { ConfigurationError, StoreError, refuseUnknownOptions } from "../../errors.js";
import { openWal } from "./open-wal.js";
import { checkSessionKey, MAIN_SUBPATH, subpathOf } from "../../session-layers/session-key.js";

export interface SqliteSessionStoreOptions {
  /** The SQLite file; it and its parent folder are created when missing. */
  path: string;
  /**
   * How long a writer waits for another process holding the lock, in ms.
   * @default 10000
   */
  busyTimeoutMs?: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS transcripts (
  id INTEGER PRIMARY KEY,
  project_key TEXT NOT NULL,
  session_id TEXT NOT NULL,
  subpath TEXT NOT NULL,
  mtime INTEGER NOT NULL,
  UNIQUE (project_key, session_id, subpath)
);
CREATE TABLE IF NOT EXISTS entries (
  seq INTEGER PRIMARY KEY,
  transcript_id INTEGER NOT NULL,
  dedup_key TEXT NOT NULL,
  body TEXT NOT NULL,
  UNIQUE (transcript_id, dedup_key)
);
`;
// No separate (transcript_id, seq) index: load() takes a transcript's seqs from the unique index, which
// holds them in order, and reads each body by seq (no sort); appends gain ~25% without a second index.

export class SqliteSessionStore implements SessionStore {
  /** Absolute path of the SQLite file. */
  readonly path: string;
  readonly #db: Database.Database;
  readonly #appendBatch: (key: SessionKey, entries: readonly SessionStoreEntry[]) => void;
  readonly #statements: {
    transcriptId: Database.Statement<[string, string, string], { id: number }>;
    insertTranscript: Database.Statement<[string, string, string, number]>;
    touch: Database.Statement<[number, number]>;
    insertEntry: Database.Statement<[number, string, string]>;
    /** Plucked: each row is its body text, no row object per entry. */
    load: Database.Statement<[number], string>;
    sessions: Database.Statement<[string, string], { session_id: string; mtime: number }>;
    subkeys: Database.Statement<[string, string, string], { subpath: string }>;
  };
  #lastMtime = 0;
  #closed = false;

  constructor(options: SqliteSessionStoreOptions) {
    if (typeof options !== "object" || options === null)
      throw new ConfigurationError("options", options, "an options object");
    refuseUnknownOptions(options, { path: true, busyTimeoutMs: true } satisfies Record<
      keyof SqliteSessionStoreOptions,
      true
    >);
    const { path, busyTimeoutMs = 10_000 } = options;
    if (typeof path !== "string" || path.trim() === "")
      throw new ConfigurationError("path", path, "a file path");
    if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0)
      throw new ConfigurationError("busyTimeoutMs", busyTimeoutMs, "a non-negative integer (ms)");
    this.path = resolve(path);
    try {
      makePrivateDirectory(dirname(this.path));
      createPrivateFile(this.path);
      // WAL with synchronous NORMAL: durable against process crashes; the CLI's own JSONL is the primary copy.
      this.#db = openWal(this.path, busyTimeoutMs);
      this.#db.exec(SCHEMA);
    } catch (error) {
      throw new StoreError(`Cannot open session store ${this.path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const db = this.#db;
    this.#statements = {
      transcriptId: db.prepare(
        "SELECT id FROM transcripts WHERE project_key = ? AND session_id = ? AND subpath = ?",
      ),
      insertTranscript: db.prepare(
        "INSERT INTO transcripts (project_key, session_id, subpath, mtime) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
      ),
      touch: db.prepare("UPDATE transcripts SET mtime = max(mtime, ?) WHERE id = ?"),
      insertEntry: db.prepare(
        "INSERT OR IGNORE INTO entries (transcript_id, dedup_key, body) VALUES (?, ?, ?)",
      ),
      load: db
        // The seqs come from the unique index alone (it covers transcript_id and the rowid), already in
        // order, and each body is then read by rowid: SQLite sorts nothing. Selecting the bodies directly
        // made it sort them in a temp b-tree, which spills to disk past the page cache: at 100k entries
        // (78 MB of text) the query took 2-3x as long as this one, per entry 1.4x as long as at 20k.
        .prepare<[number], string>(
          "SELECT body FROM entries WHERE seq IN (SELECT seq FROM entries WHERE transcript_id = ?) ORDER BY seq",
        )
        .pluck(),
      sessions: db.prepare("SELECT session_id, mtime FROM transcripts WHERE project_key = ? AND subpath = ?"),
      subkeys: db.prepare(
        "SELECT t.subpath FROM transcripts t WHERE t.project_key = ? AND t.session_id = ? AND t.subpath != ? ORDER BY t.id",
      ),
    };
    const statements = this.#statements;
    const batch = db.transaction((key: SessionKey, entries: readonly SessionStoreEntry[]) => {
      const subpath = subpathOf(key);
      const mtime = this.#nextMtime();
      statements.insertTranscript.run(key.projectKey, key.sessionId, subpath, mtime);
      const row = statements.transcriptId.get(key.projectKey, key.sessionId, subpath);
      if (row === undefined) throw new Error("transcript row vanished inside its own transaction");
      statements.touch.run(mtime, row.id);
      for (const [dedupKey, body] of dedupKeys(entries)) statements.insertEntry.run(row.id, dedupKey, body);
    });
    this.#appendBatch = (key, entries) => batch.immediate(key, entries);
  }

  async append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    this.#check(key);
    if (!Array.isArray(entries))
      throw new StoreError(`append() needs an array of entries, got ${typeof entries}`);
    // An empty batch must not create a transcript: load() has to keep answering null for it.
    if (entries.length === 0) return;
    this.#run("append", () => this.#appendBatch(key, entries));
  }

  async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    this.#check(key);
    return this.#run("load", () => {
      const row = this.#statements.transcriptId.get(key.projectKey, key.sessionId, subpathOf(key));
      if (row === undefined) return null;
      // Row by row, so each body text dies right after its parse: with all() every text of the session
      // (half the bytes a load allocates) lived until the end and was copied by the young-generation GC.
      const entries: SessionStoreEntry[] = [];
      for (const body of this.#statements.load.iterate(row.id))
        entries.push(JSON.parse(body) as SessionStoreEntry);
      return entries;
    });
  }

  /** Main transcripts of a project with their last append time (ms). */
  async listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>> {
    this.#check({ projectKey, sessionId: "-" });
    return this.#run("listSessions", () =>
      this.#statements.sessions
        .all(projectKey, MAIN_SUBPATH)
        .map((row) => ({ sessionId: row.session_id, mtime: row.mtime })),
    );
  }

  /** Subagent transcripts (their subpaths) of a session, in the order they were first written. */
  async listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    this.#check(key);
    return this.#run("listSubkeys", () =>
      this.#statements.subkeys.all(key.projectKey, key.sessionId, MAIN_SUBPATH).map((row) => row.subpath),
    );
  }

  /** Deletes one transcript; deleting a main transcript deletes its subagent transcripts too (as the SDK's in-memory store does). */
  async delete(key: SessionKey): Promise<void> {
    this.#check(key);
    this.#run("delete", () => {
      const where =
        key.subpath === undefined
          ? "project_key = ? AND session_id = ?"
          : "project_key = ? AND session_id = ? AND subpath = ?";
      const params =
        key.subpath === undefined
          ? [key.projectKey, key.sessionId]
          : [key.projectKey, key.sessionId, key.subpath];
      this.#db
        .transaction(() => {
          this.#db
            .prepare(`DELETE FROM entries WHERE transcript_id IN (SELECT id FROM transcripts WHERE ${where})`)
            .run(...params);
          this.#db.prepare(`DELETE FROM transcripts WHERE ${where}`).run(...params);
        })
        .immediate();
    });
  }

  /** The project keys a session was stored under (normally one: the sanitised cwd of the run). */
  projectKeysOf(sessionId: string): string[] {
    this.#check({ projectKey: "-", sessionId });
    return this.#run("projectKeysOf", () =>
      this.#db
        .prepare("SELECT DISTINCT project_key FROM transcripts WHERE session_id = ? ORDER BY project_key")
        .all(sessionId)
        .map((row) => (row as { project_key: string }).project_key),
    );
  }

  /** Closes the database. Idempotent; any later call throws a StoreError. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }

  /** Strictly increasing per store, like the SDK's in-memory store, so two appends in one ms still order. */
  #nextMtime(): number {
    this.#lastMtime = Math.max(Date.now(), this.#lastMtime + 1);
    return this.#lastMtime;
  }

  #check(key: { projectKey: string; sessionId: string; subpath?: string }): void {
    if (this.#closed) throw new StoreError(`Session store ${this.path} is closed`);
    checkSessionKey(key);
  }

  #run<T>(operation: string, work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError(`Session store ${operation} failed (${this.path}): ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

/** [dedup key, serialized entry] for each entry of one batch; see the module comment for the rule. */
export function dedupKeys(entries: readonly SessionStoreEntry[]): Array<[string, string]> {
  const keys: Array<[string, string]> = [];
  let anchor = "";
  const occurrences = new Map<string, number>();
  for (const entry of entries) {
    const body = JSON.stringify(entry);
    if (body === undefined) throw new StoreError("An entry is not JSON-serializable");
    if (typeof entry.uuid === "string" && entry.uuid !== "") {
      keys.push([`u:${entry.uuid}`, body]);
      anchor = entry.uuid;
      occurrences.clear();
      continue;
    }
    const hash = createHash("sha256").update(body).digest("base64url").slice(0, 22);
    const seen = occurrences.get(hash) ?? 0;
    occurrences.set(hash, seen + 1);
    keys.push([`h:${anchor}:${hash}:${seen}`, body]);
  }
  return keys;
}
