/**
 * Type checks only (never run, never built: bench/tsconfig.build.json leaves this file out): the shapes
 * fleet-internals.ts declares for src/ must be what src/ has. `npm run typecheck` compiles this file.
 */
import type { PostgresRunRecords } from "../src/storage/postgres/postgres-run-records.js";
import type { StepRecord } from "../src/records/step-record.js";
import type * as Spend from "../src/records/run-spend.js";
import type { BenchStepRecord, RunRecordsStore } from "./fleet-internals.js";

/** What the bench reads of a record is in src/'s, and what it builds is one. */
export type RecordFits = StepRecord extends BenchStepRecord ? true : never;
export type StoreFits =
  Pick<PostgresRunRecords, "list" | "daySpent"> extends Pick<RunRecordsStore, "daySpent"> ? true : never;
export type SpendFits = typeof Spend.daySpent extends (records: readonly StepRecord[], day: string) => number
  ? true
  : never;

export const checks: [RecordFits, StoreFits, SpendFits] = [true, true, true];
