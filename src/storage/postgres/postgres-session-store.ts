/**
 * A session store in PostgreSQL (docs/shared-store.md): the same contract and the same rows as
 * SqliteSessionStore, so many machines can share transcripts (a step started on one is continued on another).
 *
 * - Schema: created and migrated by flower on first use (migrate.ts, migrations.ts), in `schema`.
 * - One statement per `append` batch: the transcript row is upserted (which locks it until the statement
 *   ends) and the entries are inserted in batch order. Appends to one transcript therefore serialise, and
 *   `seq` (a sequence) is allocated in commit order, which is the order `load()` returns.
 * - Idempotent exactly like SQLite: the same `dedupKeys()` (uuid, else content anchored to the preceding
 *   uuid) with `ON CONFLICT DO NOTHING`, so an SDK retry or `importSessionToStore()` replay adds nothing.
 * - Entries are stored as `JSON.stringify` text and returned with `JSON.parse` (see migrations.ts: TEXT).
 * - Spill blobs live in the same schema (`blobs`); the rewrite layer finds them there.
 */
import pg, { type ClientBase, type Pool } from "pg";
import type { SessionKey, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { ConfigurationError, StoreError, refuseUnknownOptions } from "../../errors.js";
import type { FlowerSessionStore } from "../../session-layers/flower-store.js";
import { checkSessionKey, MAIN_SUBPATH, subpathOf } from "../../session-layers/session-key.js";
import { dedupKeys } from "../sqlite/sqlite-session-store.js";
import { PostgresBlobStore } from "./postgres-blob-store.js";
import { isSchemaName, migrate, quoteIdentifier } from "./migrate.js";
import { POSTGRES_MIGRATIONS } from "./migrations.js";

export interface PostgresSessionStoreOptions {
  /** `postgres://user:password@host:port/database`. Give `url` or `pool`. */
  url?: string;
  /** A `pg` Pool you configured yourself (TLS, credentials provider, …); `close()` leaves it open. */
  pool?: Pool;
  /**
   * The Postgres schema holding flower's tables (`flower_*`); created when missing. Lowercase letters,
   * digits and `_`.
   * @default "public"
   */
  schema?: string;
  /**
   * Connections of the pool opened from `url`.
   * @default 4
   */
  maxConnections?: number;
}

export class PostgresSessionStore implements FlowerSessionStore {
  /** Where the store is, for messages: the URL without its password, plus the schema. */
  readonly location: string;
  readonly schema: string;
  /** Spill blobs, in the same schema. */
  readonly blobs: PostgresBlobStore;
  readonly #pool: Pool;
  readonly #ownsPool: boolean;
  readonly #tables: { transcripts: string; entries: string };
  #ready: Promise<Pool> | null = null;
  #closed = false;

  constructor(options: PostgresSessionStoreOptions) {
    if (typeof options !== "object" || options === null)
      throw new ConfigurationError("options", options, "an options object");
    refuseUnknownOptions(options, {
      url: true,
      pool: true,
      schema: true,
      maxConnections: true,
    } satisfies Record<keyof PostgresSessionStoreOptions, true>);
    const { url, pool, schema = "public", maxConnections = 4 } = options;
    if ((url === undefined) === (pool === undefined))
      throw new ConfigurationError("url", url, "a postgres:// URL, or a pool instead (exactly one of them)");
    if (url !== undefined && (typeof url !== "string" || !/^postgres(ql)?:\/\//.test(url)))
      throw new ConfigurationError("url", redact(String(url)), "a postgres:// or postgresql:// URL");
    if (pool !== undefined && (typeof pool !== "object" || pool === null || typeof pool.query !== "function"))
      throw new ConfigurationError("pool", pool, "a pg Pool");
    if (!isSchemaName(schema))
      throw new ConfigurationError("schema", schema, "a schema name of lowercase letters, digits and _");
    if (!Number.isInteger(maxConnections) || maxConnections < 1)
      throw new ConfigurationError("maxConnections", maxConnections, "a positive integer");
    this.schema = schema;
    this.location = `${url === undefined ? "pool" : redact(url)} schema ${schema}`;
    this.#ownsPool = pool === undefined;
    this.#pool = pool ?? new pg.Pool({ connectionString: url, max: maxConnections });
    // An idle connection dropped by the server is reported by the pool as an event; unheard, it would
    // crash the process. The next query fails with a StoreError instead.
    if (this.#ownsPool) this.#pool.on("error", () => undefined);
    const quoted = quoteIdentifier(schema);
    this.#tables = { transcripts: `${quoted}.flower_transcripts`, entries: `${quoted}.flower_entries` };
    this.blobs = new PostgresBlobStore(() => this.#ensureReady(), quoted);
  }

  /** Connects and migrates the schema now (otherwise the first call does). */
  async ready(): Promise<void> {
    await this.#run("connect", async () => {
      await this.#ensureReady();
    });
  }

  async append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    this.#check(key);
    if (!Array.isArray(entries))
      throw new StoreError(`append() needs an array of entries, got ${typeof entries}`);
    // An empty batch must not create a transcript: load() has to keep answering null for it.
    if (entries.length === 0) return;
    const { transcripts, entries: table } = this.#tables;
    await this.#run("append", async () => {
      const pairs = dedupKeys(entries);
      const pool = await this.#ensureReady();
      await pool.query(
        `WITH transcript AS (
           INSERT INTO ${transcripts} AS t (project_key, session_id, subpath, mtime)
           VALUES ($1, $2, $3, $4)
           ON CONFLICT (project_key, session_id, subpath)
           DO UPDATE SET mtime = GREATEST(t.mtime + 1, EXCLUDED.mtime)
           RETURNING id
         )
         INSERT INTO ${table} (transcript_id, dedup_key, body)
         SELECT transcript.id, batch.dedup_key, batch.body
         FROM transcript, unnest($5::text[], $6::text[]) WITH ORDINALITY AS batch(dedup_key, body, position)
         ORDER BY batch.position
         ON CONFLICT (transcript_id, dedup_key) DO NOTHING`,
        [
          key.projectKey,
          key.sessionId,
          subpathOf(key),
          Date.now(),
          pairs.map(([dedupKey]) => dedupKey),
          pairs.map(([, body]) => body),
        ],
      );
    });
  }

  async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    this.#check(key);
    return this.#run("load", async () => {
      const pool = await this.#ensureReady();
      const { rows } = await pool.query<{ body: string }>(
        `SELECT e.body FROM ${this.#tables.entries} e
         WHERE e.transcript_id = (
           SELECT id FROM ${this.#tables.transcripts}
           WHERE project_key = $1 AND session_id = $2 AND subpath = $3
         )
         ORDER BY e.seq`,
        [key.projectKey, key.sessionId, subpathOf(key)],
      );
      // A transcript row exists only with entries (it is created by a non-empty append).
      if (rows.length === 0) return null;
      return rows.map((row) => JSON.parse(row.body) as SessionStoreEntry);
    });
  }

  /** Main transcripts of a project with their last append time (ms). */
  async listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>> {
    this.#check({ projectKey, sessionId: "-" });
    return this.#run("listSessions", async () => {
      const pool = await this.#ensureReady();
      const { rows } = await pool.query<{ session_id: string; mtime: string }>(
        `SELECT session_id, mtime FROM ${this.#tables.transcripts} WHERE project_key = $1 AND subpath = $2`,
        [projectKey, MAIN_SUBPATH],
      );
      return rows.map((row) => ({ sessionId: row.session_id, mtime: Number(row.mtime) }));
    });
  }

  /** Subagent transcripts (their subpaths) of a session, in the order they were first written. */
  async listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]> {
    this.#check(key);
    return this.#run("listSubkeys", async () => {
      const pool = await this.#ensureReady();
      const { rows } = await pool.query<{ subpath: string }>(
        `SELECT subpath FROM ${this.#tables.transcripts}
         WHERE project_key = $1 AND session_id = $2 AND subpath <> $3 ORDER BY id`,
        [key.projectKey, key.sessionId, MAIN_SUBPATH],
      );
      return rows.map((row) => row.subpath);
    });
  }

  /** Deletes one transcript; deleting a main transcript deletes its subagent transcripts too. */
  async delete(key: SessionKey): Promise<void> {
    this.#check(key);
    await this.#run("delete", async () => {
      const pool = await this.#ensureReady();
      // Entries go with their transcript (ON DELETE CASCADE).
      if (key.subpath === undefined)
        await pool.query(
          `DELETE FROM ${this.#tables.transcripts} WHERE project_key = $1 AND session_id = $2`,
          [key.projectKey, key.sessionId],
        );
      else
        await pool.query(
          `DELETE FROM ${this.#tables.transcripts} WHERE project_key = $1 AND session_id = $2 AND subpath = $3`,
          [key.projectKey, key.sessionId, key.subpath],
        );
    });
  }

  /**
   * In the caller's transaction (forget): deletes every transcript of the sessions, under any project
   * key, with their subagent transcripts and entries; returns how many sessions had any.
   */
  async deleteSessions(client: ClientBase, sessionIds: readonly string[]): Promise<number> {
    const { rows } = await client.query<{ sessions: string }>(
      `WITH gone AS (DELETE FROM ${this.#tables.transcripts} WHERE session_id = ANY($1) RETURNING session_id)
       SELECT count(DISTINCT session_id) AS sessions FROM gone`,
      [sessionIds],
    );
    return Number(rows[0]?.sessions ?? 0);
  }

  /** The project keys a session was stored under (normally one: the sanitised cwd of the run). */
  async projectKeysOf(sessionId: string): Promise<string[]> {
    this.#check({ projectKey: "-", sessionId });
    return this.#run("projectKeysOf", async () => {
      const pool = await this.#ensureReady();
      const { rows } = await pool.query<{ project_key: string }>(
        `SELECT DISTINCT project_key FROM ${this.#tables.transcripts} WHERE session_id = $1 ORDER BY project_key`,
        [sessionId],
      );
      return rows.map((row) => row.project_key);
    });
  }

  /** Ends the pool it opened (a pool passed in stays open). Idempotent; any later call throws a StoreError. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsPool) await this.#pool.end();
  }

  /** The pool, once the schema is current. A failed attempt is forgotten, so the next call retries. */
  #ensureReady(): Promise<Pool> {
    if (this.#closed) return Promise.reject(new StoreError(`Session store ${this.location} is closed`));
    this.#ready ??= this.#migrate().catch((error: unknown) => {
      this.#ready = null;
      throw error;
    });
    return this.#ready;
  }

  async #migrate(): Promise<Pool> {
    const client = await this.#pool.connect();
    try {
      await migrate(client, this.schema, POSTGRES_MIGRATIONS);
    } finally {
      client.release();
    }
    return this.#pool;
  }

  #check(key: { projectKey: string; sessionId: string; subpath?: string }): void {
    if (this.#closed) throw new StoreError(`Session store ${this.location} is closed`);
    checkSessionKey(key);
  }

  async #run<T>(operation: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError(
        `Session store ${operation} failed (${this.location}): ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
}

/** The URL without its password, for messages and logs. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparsable URL)";
  }
}
