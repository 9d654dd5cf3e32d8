/**
 * What `flower say` (and the live page's field) opens to leave a message for a run: the run directory's
 * records.db, or a shared store's records with its fleet's runs — the steps, their leases, the channel
 * (records/person-messages.ts) and a fleet run's status — with where they are (for messages) and how to
 * let go of them. Opening is storage's: nothing else opens a flower database.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { SayTarget } from "../records/person-messages.js";
import type { StoreSpec } from "./store-spec.js";
import { connectPostgres } from "./backing-store.js";
import { RECORDS_FILE } from "./files.js";
import { quoteIdentifier } from "./postgres/migrate.js";
import { PostgresFleetRuns } from "./postgres/postgres-fleet-runs.js";
import { PostgresRunRecords } from "./postgres/postgres-run-records.js";
import { SqliteRunRecords } from "./sqlite/sqlite-run-records.js";

export interface OpenSayTarget extends SayTarget {
  where: string;
  close(): Promise<void>;
}

/** The shared store when `spec` names one, else the run directory (an absent records.db reads as empty). */
export function openSayTarget(spec: StoreSpec, runDir: string): OpenSayTarget {
  return spec.kind === "postgres" ? openShared(spec) : openLocal(runDir);
}

function openLocal(runDir: string): OpenSayTarget {
  const where = join(runDir, RECORDS_FILE);
  if (!existsSync(where)) {
    // Nothing is created: a name is unknown here, so nothing is ever put.
    return {
      where,
      steps: () => Promise.resolve([]),
      leases: () => Promise.resolve([]),
      messages: { put: () => undefined, list: () => [], take: () => undefined },
      close: () => Promise.resolve(),
    };
  }
  const records = new SqliteRunRecords(runDir);
  return {
    where,
    steps: () => Promise.resolve(records.list()),
    leases: () => Promise.resolve(records.leases()),
    messages: records.messages,
    close: () => Promise.resolve(records.close()),
  };
}

function openShared(spec: Extract<StoreSpec, { kind: "postgres" }>): OpenSayTarget {
  const { location, pool, sessions, ready } = connectPostgres(spec, 1);
  const schema = quoteIdentifier(spec.schema);
  const records = new PostgresRunRecords(ready, schema, location);
  const fleet = new PostgresFleetRuns(ready, schema, location);
  return {
    where: location,
    steps: () => records.list(),
    leases: () => records.leases(),
    messages: records.messages,
    fleetStatus: async (run) => (await fleet.get(run))?.status,
    close: async () => {
      await sessions.close();
      await pool.end();
    },
  };
}
