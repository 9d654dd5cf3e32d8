/**
 * PostgreSQL for tests. The server is the offline kit's throwaway one (src/testing/postgres-server.ts,
 * shared with the load benchmark); one is started per test run by the globalSetup of the projects that
 * need it (test/support/postgres-global-setup.ts), and each test file gets a database of its own on it
 * from usePostgresServer(); tests add one schema per test with freshSchema().
 */
import { randomBytes } from "node:crypto";
import { threadId } from "node:worker_threads";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { migrate, quoteIdentifier } from "../../src/storage/postgres/migrate.js";
import { POSTGRES_MIGRATIONS } from "../../src/storage/postgres/migrations.js";
import { PostgresRunRecords } from "../../src/storage/postgres/postgres-run-records.js";
import { startPostgresServer, type PostgresServer } from "../../src/testing/postgres-server.js";

export {
  INSTALL_HINT,
  startPostgresServer,
  type PostgresServer,
  type PostgresServerOptions,
} from "../../src/testing/postgres-server.js";

// Unique across the run: forks share no counter, threads share the pid, and a pid may come back.
const processTag = `${process.pid}_${threadId}_${randomBytes(3).toString("hex")}`;
let nameCounter = 0;

/** A schema name no other test of this run uses: one schema per test keeps tests apart on one server. */
export function freshSchema(prefix = "t"): string {
  nameCounter += 1;
  return `${prefix}_${processTag}_${nameCounter}`;
}

/**
 * The run's server for this test file, as a database of the file's own (created before its first test,
 * dropped after its last), so nothing a file leaves behind meets another file. The returned function
 * gives the server with `url` naming that database (it throws when called outside a test); `stop()`
 * only lets the database go, the server belongs to the run.
 *
 * A file in a project without the globalSetup (none is provided) gets a server of its own instead, so a
 * new test works wherever it is put; it belongs in test/integration or test/e2e all the same.
 */
export function usePostgresServer(): () => PostgresServer {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    const shared = inject("flowerPostgresUrl");
    server = shared ? await ownDatabase(shared) : await startPostgresServer();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error("usePostgresServer(): the server is only there inside a test");
    return server;
  };
}

async function ownDatabase(serverUrl: string): Promise<PostgresServer> {
  const name = freshSchema("file");
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    port: Number(url.port),
    dir: "",
    async stop() {
      if (dropped) return;
      dropped = true;
      // FORCE: a pool a test forgot to close must not keep the database (and this file) alive.
      await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** One query on a connection of its own (opened and closed around it): what a test checks in a store. */
export async function queryOnce<Row extends pg.QueryResultRow>(
  url: string,
  sql: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Run records on a schema with every migration run, over a pool of two that the caller ends (the tests
 * keep a list and end each after the test).
 */
export async function migratedRunRecords(
  url: string,
  schema = freshSchema(),
): Promise<{ records: PostgresRunRecords; pool: pg.Pool; schema: string }> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const client = await pool.connect();
  try {
    await migrate(client, schema, POSTGRES_MIGRATIONS);
  } finally {
    client.release();
  }
  return { records: new PostgresRunRecords(async () => pool, quoteIdentifier(schema), schema), pool, schema };
}
