/**
 * The throwaway PostgreSQL server lives in the offline kit (src/testing/postgres-server.ts), shared with
 * the load benchmark; tests add one schema per test on it.
 */
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
