/**
 * The throwaway PostgreSQL server lives in the offline kit (src/testing/postgres-server.ts), shared with
 * the load benchmark; tests add one schema per test on it.
 */
import { afterAll, beforeAll } from "vitest";
import { startPostgresServer, type PostgresServer } from "../../src/testing/postgres-server.js";

export {
  INSTALL_HINT,
  startPostgresServer,
  type PostgresServer,
  type PostgresServerOptions,
} from "../../src/testing/postgres-server.js";

let schemaCounter = 0;

/** A schema name no other test of this process uses: one schema per test keeps tests apart on one server. */
export function freshSchema(prefix = "t"): string {
  schemaCounter += 1;
  return `${prefix}_${process.pid}_${schemaCounter}`;
}

/**
 * One throwaway server for the test file: started before its first test, stopped after its last. The
 * returned function gives the running server (it throws when called outside a test).
 */
export function usePostgresServer(): () => PostgresServer {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgresServer();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error("usePostgresServer(): the server is only there inside a test");
    return server;
  };
}
