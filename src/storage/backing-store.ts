/**
 * Where a runtime keeps its state, opened from the `store` option (store-spec.ts):
 * - the default, SQLite in the run directory: records.db (+ manifest.json) and sessions.db, as always;
 * - PostgreSQL: one connection pool shared by the session transcripts (PostgresSessionStore under the
 *   roaming layer), the run records and leases (SharedRunRecords: a local SQLite copy written through
 *   to Postgres, fenced by the lease), and the workspace files (frozen documents, spill files). The
 *   spill blobs of the trim pass live in the same schema (PostgresSessionStore.blobs).
 * Nothing connects in the constructor: `ready()` connects and migrates (the CLI calls it first, so an
 * unreachable server is one clear line before anything runs); otherwise the first use does.
 */
import pg from "pg";
import { StoreError } from "../errors.js";
import { PostgresRunRecords } from "./postgres/postgres-run-records.js";
import type { RunRecords } from "../records/run-records.js";
import { SharedRunRecords } from "./shared-run-records.js";
import { SqliteRunRecords } from "./sqlite/sqlite-run-records.js";
import type { FlowerSessionStore } from "../session-layers/flower-store.js";
import { quoteIdentifier } from "./postgres/migrate.js";
import { PostgresSessionStore } from "./postgres/postgres-session-store.js";
import { PostgresWorkspaceFiles } from "./postgres/postgres-workspace-files.js";
import { PostgresWorkLog } from "./postgres/work-log.js";
import type { WorkCarrier } from "../checkpoints/work-carrier.js";
import { RedactingSessionStore } from "../session-layers/redacting-store.js";
import { RoamingSessionStore } from "../session-layers/roaming-store.js";
import { SecretRedactor } from "../secret-redactor.js";
import { SqliteSessionStore } from "./sqlite/sqlite-session-store.js";
import type { StoreSpec } from "./store-spec.js";
import type { WorkspaceFiles } from "../session-layers/workspace-files.js";
import { sessionsPath } from "./files.js";

export interface BackingStore {
  kind: StoreSpec["kind"];
  /** For messages: the run directory, or the store's URL without its password. */
  location: string;
  records: RunRecords;
  /** The transcripts, opened here, for the rewrite layers to wrap. */
  sessions: { inner: FlowerSessionStore };
  /** Workbench files that follow a step to another machine; null with SQLite (they stay on this disk). */
  files: WorkspaceFiles | null;
  /** The runs' checkpoints, carried to other machines; null with SQLite (the shadow repository keeps them). */
  work: WorkCarrier | null;
  /** Connects and migrates now; a StoreError naming the store when it cannot. */
  ready(): Promise<void>;
  /** Waits for writes on their way, then closes the connections. The records close too. */
  close(): Promise<void>;
}

/** Connections per process: the transcripts, the record writes and a heartbeat rarely overlap more. */
const POOL_SIZE = 4;

/**
 * `redactor`: the credentials to keep out of the transcripts. Every backend gets the redacting layer
 * directly over it, so no entry reaches a row (SQLite or Postgres) with a secret in it.
 */
export function openBackingStore(
  spec: StoreSpec,
  runDir: string,
  workspace: string,
  redactor: SecretRedactor = new SecretRedactor([]),
  reached?: PostgresConnection,
): BackingStore {
  if (spec.kind === "sqlite") {
    const records = new SqliteRunRecords(runDir);
    const path = spec.path ?? sessionsPath(runDir);
    return {
      kind: "sqlite",
      location: runDir,
      records,
      sessions: {
        inner: redactor.active
          ? new RedactingSessionStore(new SqliteSessionStore({ path }), redactor)
          : new SqliteSessionStore({ path }),
      },
      files: null,
      work: null,
      ready: async () => undefined,
      close: async () => records.close(),
    };
  }
  // The connection `reachStore` made is taken over (one pool per process); otherwise one is made here.
  const { location, pool, sessions, ready } =
    reached !== undefined && reached.url === spec.url && reached.schema === spec.schema
      ? reached
      : connectPostgres(spec, POOL_SIZE);
  const schema = quoteIdentifier(spec.schema);
  const remote = new PostgresRunRecords(ready, schema, location);
  const records = new SharedRunRecords(new SqliteRunRecords(runDir), remote);
  const files = new PostgresWorkspaceFiles(ready, schema, location);
  let closing: Promise<void> | null = null;
  return {
    kind: "postgres",
    location,
    records,
    sessions: {
      inner: new RedactingSessionStore(
        new RoamingSessionStore({ inner: sessions, workspace, files }),
        redactor,
      ),
    },
    files,
    work: new PostgresWorkLog(ready, schema, location),
    ready: async () => {
      await ready();
    },
    close: () =>
      (closing ??= (async () => {
        await records.flush().catch(() => undefined);
        records.close();
        await sessions.close();
        await pool.end();
      })()),
  };
}

/**
 * One pool for the store and its session store, which migrates the schema: `ready` resolves to the pool
 * once every table exists (they all come from one migration list), or fails with a StoreError naming the
 * store without its password.
 */
export interface PostgresConnection {
  /** Which store (`url` and `schema` of its spec): a connection is taken over only for the same one. */
  url: string;
  schema: string;
  location: string;
  pool: pg.Pool;
  sessions: PostgresSessionStore;
  ready: () => Promise<pg.Pool>;
  /** Ends the pool; for a connection nobody took over (the runtime closes the one it took). */
  close(): Promise<void>;
}

export function connectPostgres(
  spec: Extract<StoreSpec, { kind: "postgres" }>,
  connections: number,
): PostgresConnection {
  const location = `${spec.shown} (schema ${spec.schema})`;
  const pool = new pg.Pool({ connectionString: spec.url, max: connections, connectionTimeoutMillis: 10_000 });
  // An idle connection the server dropped is reported as an event; unheard it would crash the process.
  // The next query fails with a StoreError instead.
  pool.on("error", () => undefined);
  const sessions = new PostgresSessionStore({ pool, schema: spec.schema });
  const ready = async () => {
    try {
      await sessions.ready();
    } catch (error) {
      throw new StoreError(`Cannot use the store ${location}: ${reason(error)}`, { cause: error });
    }
    return pool;
  };
  const close = async () => {
    await sessions.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
  };
  return { url: spec.url, schema: spec.schema, location, pool, sessions, ready, close };
}

/**
 * Connects to a shared store and brings its schema up to date: a StoreError naming the store (without its
 * password) when it cannot. The CLI asks this before it opens a runtime, whose run directory (records.db,
 * .gitignore) is made at once: an unreachable server then leaves nothing behind. The connection is kept
 * for the runtime to take over (`openBackingStore`'s `reached`), so a process opens one pool, not one to
 * migrate and a second to work; whoever does not hand it on closes it. Null for SQLite.
 */
export async function reachStore(spec: StoreSpec): Promise<PostgresConnection | null> {
  if (spec.kind !== "postgres") return null;
  const connection = connectPostgres(spec, POOL_SIZE);
  try {
    await connection.ready();
  } catch (error) {
    await connection.close();
    throw error;
  }
  return connection;
}

/**
 * Makes what takes `reached` over (a runtime); when that throws, the connection is closed here — nobody
 * else holds it, and its idle pool would keep the process alive.
 */
export async function handOver<T>(reached: PostgresConnection | null, open: () => T): Promise<T> {
  try {
    return open();
  } catch (error) {
    await reached?.close();
    throw error;
  }
}

/** The root cause in one line (a refused connection to "localhost" is an AggregateError without a message). */
export function reason(error: unknown): string {
  let current = error;
  while (current instanceof StoreError && current.cause !== undefined) current = current.cause;
  if (current instanceof AggregateError && current.errors.length > 0)
    return [...new Set(current.errors.map((inner) => (inner as Error).message))].join("; ");
  return current instanceof Error ? current.message || current.name : String(current);
}
