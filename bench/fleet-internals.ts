/**
 * The parts of flower's shared store the `fleet` workload drives directly, to fill a store with step
 * records fast and to measure what the old per-tick read cost. They are not in the package's exports, so
 * they are loaded at run time from the build (`dist/`, which `npm run bench` builds first) and described
 * here by the shapes the workload uses; `fleet-internals.check.ts` checks them against src/ in `npm run
 * typecheck`.
 */
import type { Pool, PoolClient } from "pg";

/** A step record as far as the workload builds one (src/records/step-record.ts, StepRecord). */
export interface BenchStepRecord {
  step: string;
  run?: string;
  costUsd: number;
  updatedAt: string;
  history: Array<{
    generation: number;
    sessionId: string | null;
    startedAt: string;
    endedAt: string | null;
    costUsd: number;
    numTurns: number;
    context: number;
    turns?: Array<[number, number, number]>;
    handoff: unknown;
  }>;
}

export interface RunRecordsStore {
  put(record: never): Promise<void>;
  list(): Promise<BenchStepRecord[]>;
  daySpent(day: string): Promise<number>;
}

export interface FleetInternals {
  PostgresRunRecords: new (pool: () => Promise<Pool>, schema: string, location: string) => RunRecordsStore;
  migrate(client: PoolClient, schema: string, migrations: readonly unknown[]): Promise<number>;
  quoteIdentifier(name: string): string;
  POSTGRES_MIGRATIONS: readonly unknown[];
  newStepRecord(step: string, agent: string, prompt: string, now: Date): BenchStepRecord;
  daySpent(records: readonly BenchStepRecord[], day: string): number;
}

/** The internals from the build this bench runs against (bench/dist/ → dist/). */
export async function loadFleetInternals(): Promise<FleetInternals> {
  const load = async (path: string) =>
    (await import(new URL(`../../dist/${path}`, import.meta.url).href)) as Record<string, unknown>;
  const [records, migrate, migrations, step, spend] = await Promise.all([
    load("storage/postgres/postgres-run-records.js"),
    load("storage/postgres/migrate.js"),
    load("storage/postgres/migrations.js"),
    load("records/step-record.js"),
    load("records/run-spend.js"),
  ]);
  const internals = {
    PostgresRunRecords: records.PostgresRunRecords,
    migrate: migrate.migrate,
    quoteIdentifier: migrate.quoteIdentifier,
    POSTGRES_MIGRATIONS: migrations.POSTGRES_MIGRATIONS,
    newStepRecord: step.newStepRecord,
    daySpent: spend.daySpent,
  };
  for (const [name, value] of Object.entries(internals))
    if (value === undefined) throw new Error(`dist/ has no ${name}: build the package first (npm run build)`);
  return internals as FleetInternals;
}
