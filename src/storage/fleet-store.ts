/**
 * What the fleet (src/fleet/) opens of a shared store: the fleet's runs (flower_fleet_runs), its queue
 * (pg-boss, in the same PostgreSQL), and the step records and leases, read-only, to name runs and to see
 * who drives a step. Opening is storage's: nothing else opens a flower database. A fleet needs the
 * shared store; a SQLite run directory has no machines to share runs between.
 */
import { ConfigurationError } from "../errors.js";
import { connectPostgres } from "./backing-store.js";
import { PostgresFleetRuns } from "./postgres/postgres-fleet-runs.js";
import { quoteIdentifier } from "./postgres/migrate.js";
import { PostgresRunRecords } from "./postgres/postgres-run-records.js";
import { RunQueue } from "./postgres/run-queue.js";
import { PostgresWorkLog } from "./postgres/work-log.js";
import { storeSpecOf, type PostgresStoreSpec, type StoreSpec } from "./store-spec.js";

export interface FleetStore {
  /** The store's URL without its password, and the schema, for messages. */
  location: string;
  runs: PostgresFleetRuns;
  queue: RunQueue;
  /** The runs' work (checkpoints as git bundles): submit records a run's beginning, a worker takes it in. */
  work: PostgresWorkLog;
  /**
   * Step records and leases (read here; the runtime writes them under its leases), and the sums kept
   * beside them: the day's spend and a run's (one aggregate each, no record read).
   */
  records: Pick<PostgresRunRecords, "list" | "leases" | "daySpent" | "runSpent">;
  /** Connects and migrates now: a StoreError naming the store when it cannot. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Connections: the fleet's reads and the heartbeat go one after another. */
const FLEET_CONNECTIONS = 2;

/**
 * The store spec of a fleet: a postgres:// URL (parsed here) or a spec parsed already (taken as it is),
 * else a ConfigurationError naming what was given.
 */
export function fleetStoreSpec(store: unknown, option = "store"): PostgresStoreSpec {
  const spec = storeSpecOf(store, option);
  if (spec.kind !== "postgres")
    throw new ConfigurationError(
      option,
      store,
      "a postgres://user:password@host:port/database URL: a fleet shares its runs through a PostgreSQL store",
    );
  return spec;
}

/** `supervise`: this process runs the queue's maintenance (a worker does; one-off commands do not). */
export function openFleetStore(store: string | StoreSpec, options: { supervise?: boolean } = {}): FleetStore {
  const spec = fleetStoreSpec(store);
  const { location, pool, sessions, ready } = connectPostgres(spec, FLEET_CONNECTIONS);
  const schema = quoteIdentifier(spec.schema);
  const queue = new RunQueue(spec, location, options.supervise === true);
  let closing: Promise<void> | null = null;
  return {
    location,
    runs: new PostgresFleetRuns(ready, schema, location),
    queue,
    work: new PostgresWorkLog(ready, schema, location),
    records: new PostgresRunRecords(ready, schema, location),
    ready: async () => {
      await ready();
      await queue.start();
    },
    close: () =>
      (closing ??= (async () => {
        await queue.stop().catch(() => undefined);
        await sessions.close();
        await pool.end();
      })()),
  };
}
