/**
 * What `flower handoff` opens to reach a step's live driver: the run directory's records.db, or a shared
 * store's records — the step, its lease and the handoff-request channel (records/handoff-requests.ts),
 * with where they are (for messages) and how to let go of them. Opening is storage's: nothing else
 * opens a flower database.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { RequestTarget } from "../records/handoff-requests.js";
import type { StoreSpec } from "./store-spec.js";
import { connectPostgres } from "./backing-store.js";
import { RECORDS_FILE } from "./files.js";
import { quoteIdentifier } from "./postgres/migrate.js";
import { PostgresRunRecords } from "./postgres/postgres-run-records.js";
import { SqliteRunRecords } from "./sqlite/sqlite-run-records.js";

export interface OpenRequestTarget extends RequestTarget {
  where: string;
  close(): Promise<void>;
}

/** The shared store when `spec` names one, else the run directory (an absent records.db reads as empty). */
export function openRequestTarget(spec: StoreSpec, runDir: string): OpenRequestTarget {
  return spec.kind === "postgres" ? openShared(spec) : openLocal(runDir);
}

/** The run directory's records.db; an absent one is read as empty (nothing is created). */
function openLocal(runDir: string): OpenRequestTarget {
  const where = join(runDir, RECORDS_FILE);
  if (!existsSync(where)) {
    const none = () => Promise.resolve(undefined);
    return {
      where,
      step: none,
      lease: none,
      steps: () => Promise.resolve([]),
      requests: { put: () => undefined, get: () => null, take: () => undefined },
      close: () => Promise.resolve(),
    };
  }
  const records = new SqliteRunRecords(runDir);
  return {
    where,
    step: (name) => Promise.resolve(records.get(name)),
    steps: () => Promise.resolve(records.list()),
    lease: (name) => Promise.resolve(records.leases().find((row) => row.step === name)),
    requests: records.requests,
    close: () => Promise.resolve(records.close()),
  };
}

function openShared(spec: Parameters<typeof connectPostgres>[0]): OpenRequestTarget {
  const { location, pool, sessions, ready } = connectPostgres(spec, 1);
  const records = new PostgresRunRecords(ready, quoteIdentifier(spec.schema), location);
  return {
    where: location,
    step: (name) => records.get(name),
    steps: () => records.list(),
    lease: async (name) => (await records.leases()).find((row) => row.step === name),
    requests: records.requests,
    close: async () => {
      await sessions.close();
      await pool.end();
    },
  };
}
