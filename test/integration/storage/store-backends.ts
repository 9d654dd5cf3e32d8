/**
 * The backends every store test runs over: SQLite (a file per store) and Postgres (the run's server, a
 * database per test file, a schema per store). `useStoreBackends()` registers the hooks: the database is
 * there from beforeAll to afterAll, every store opened is closed after its test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { FlowerSessionStore } from "../../../src/session-layers/flower-store.js";
import { PostgresSessionStore } from "../../../src/storage/postgres/postgres-session-store.js";
import { SqliteSessionStore } from "../../../src/storage/sqlite/sqlite-session-store.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";

export type BackendName = "sqlite" | "postgres";

/** One isolated store and ways to look under it. */
export interface BackendHandle {
  store: FlowerSessionStore;
  /** Every stored row (transcripts, then entries), to prove a layer never changes one. */
  rows(): Promise<unknown[]>;
  /** A second store on the same data, as another process would open it. */
  reopen(): FlowerSessionStore;
}

export interface Backend {
  name: BackendName;
  open(): Promise<BackendHandle>;
}

export const BACKEND_NAMES: readonly BackendName[] = ["sqlite", "postgres"];

/** Registers the hooks and returns the backends by name; call once at the top of a test file. */
export function useStoreBackends(): Record<BackendName, Backend> {
  const server = usePostgresServer();
  let dir = "";
  let counter = 0;
  const opened: FlowerSessionStore[] = [];
  const track = <T extends FlowerSessionStore>(store: T): T => {
    opened.push(store);
    return store;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "flower-backends-"));
  });

  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  return {
    sqlite: {
      name: "sqlite",
      async open() {
        counter += 1;
        const path = join(dir, `store-${counter}.db`);
        return {
          store: track(new SqliteSessionStore({ path })),
          async rows() {
            const db = new Database(path, { readonly: true });
            try {
              return [
                ...db.prepare("SELECT * FROM transcripts ORDER BY id").all(),
                ...db.prepare("SELECT * FROM entries ORDER BY seq").all(),
              ];
            } finally {
              db.close();
            }
          },
          reopen: () => track(new SqliteSessionStore({ path })),
        };
      },
    },
    postgres: {
      name: "postgres",
      async open() {
        const { url } = server();
        const schema = freshSchema();
        const store = track(new PostgresSessionStore({ url, schema, maxConnections: 2 }));
        await store.ready();
        return {
          store,
          async rows() {
            const client = new pg.Client({ connectionString: url });
            await client.connect();
            try {
              const transcripts = await client.query(
                `SELECT * FROM ${schema}.flower_transcripts ORDER BY id`,
              );
              const entries = await client.query(`SELECT * FROM ${schema}.flower_entries ORDER BY seq`);
              return [...transcripts.rows, ...entries.rows] as unknown[];
            } finally {
              await client.end();
            }
          },
          reopen: () => track(new PostgresSessionStore({ url, schema, maxConnections: 2 })),
        };
      },
    },
  };
}
