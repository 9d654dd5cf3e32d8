/**
 * flower's Postgres schema as an ordered list of migrations. Each runs once per schema, inside the
 * migration transaction (migrate.ts), and its version is recorded in `flower_schema_version`. Never edit
 * or reorder a released migration: add the next version instead (version 2 added run records, leases and workspace files; 4 the fleet's runs; 5 the runs' work; 6 the records' spend per day; 7 a person's messages to runs).
 *
 * Tables carry a `flower_` prefix so they can share a schema (default `public`) with an application's own.
 */
import type { ClientBase } from "pg";
import { daySpends, runOf } from "../../records/run-spend.js";
import type { StepRecord } from "../../records/step-record.js";

export interface PostgresMigration {
  /** 1, 2, 3, … without gaps, in list order. */
  version: number;
  /** One line for `flower_schema_version.description`. */
  description: string;
  /** The statements, given the quoted schema name (e.g. `"public"`). */
  statements: (schema: string) => string[];
  /**
   * Filled in after the statements, in the same transaction, by code (what SQL cannot derive the same
   * way the writers do): given a client in the transaction and the quoted schema name.
   */
  backfill?: (client: ClientBase, schema: string) => Promise<void>;
}

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    description: "session transcripts (SDK SessionStore) and spill blobs",
    statements: (schema) => [
      `CREATE TABLE ${schema}.flower_transcripts (
        id BIGSERIAL PRIMARY KEY,
        project_key TEXT NOT NULL,
        session_id TEXT NOT NULL,
        subpath TEXT NOT NULL,
        mtime BIGINT NOT NULL,
        UNIQUE (project_key, session_id, subpath)
      )`,
      // retention looks sessions up by id alone (projectKeysOf)
      `CREATE INDEX flower_transcripts_session ON ${schema}.flower_transcripts (session_id)`,
      // body is TEXT, not JSONB: JSONB refuses the \u0000 escape that binary tool output produces, reorders
      // keys and re-parses every entry on insert; nothing ever queries inside an entry.
      `CREATE TABLE ${schema}.flower_entries (
        seq BIGSERIAL PRIMARY KEY,
        transcript_id BIGINT NOT NULL REFERENCES ${schema}.flower_transcripts (id) ON DELETE CASCADE,
        dedup_key TEXT NOT NULL,
        body TEXT NOT NULL,
        UNIQUE (transcript_id, dedup_key)
      )`,
      // C collation so the primary key's btree serves prefix lookups (spill file names carry 20 hex digits).
      `CREATE TABLE ${schema}.flower_blobs (
        address TEXT COLLATE "C" PRIMARY KEY,
        content TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
    ],
  },
  {
    version: 2,
    description: "run records, leases and workspace files (frozen documents, spill files)",
    statements: (schema) => [
      // One row per step, the record as JSON text (like records.db): only the runtime reads inside it.
      `CREATE TABLE ${schema}.flower_steps (
        step TEXT PRIMARY KEY,
        record TEXT NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
      // The lease of a running step: a row with a heartbeat (see run-records.ts for why not
      // an advisory lock). Times are the server's clock, so machines with skewed clocks agree on staleness.
      `CREATE TABLE ${schema}.flower_leases (
        step TEXT PRIMARY KEY,
        token TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        machine TEXT,
        start_ticks BIGINT,
        started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        children TEXT NOT NULL DEFAULT '[]'
      )`,
      // Files of the workbench that must follow a step to another machine, by their path relative to the
      // workspace: frozen documents under .flower/notes/ (handoffs, requirements, goals, …) and the spill
      // guard's files under .flower/spill/ that transcripts point at. BYTEA: a file is bytes (a NUL in
      // tool output would be refused by TEXT).
      `CREATE TABLE ${schema}.flower_files (
        path TEXT COLLATE "C" PRIMARY KEY,
        content BYTEA NOT NULL,
        step TEXT,
        saved_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
    ],
  },
  {
    version: 3,
    description: "handoff requests (flower handoff asks a step's live driver to hand off)",
    statements: (schema) => [
      // One row per step, addressed to the lease it was made for (records/handoff-requests.ts).
      `CREATE TABLE ${schema}.flower_handoff_requests (
        step TEXT PRIMARY KEY,
        id TEXT NOT NULL,
        lease TEXT NOT NULL,
        next TEXT,
        by_whom TEXT NOT NULL,
        at TEXT NOT NULL
      )`,
    ],
  },
  {
    version: 4,
    description: "fleet runs (flower submit queues a run, flower worker takes it)",
    statements: (schema) => [
      // One row per submitted run (records/fleet-run.ts): its status and the worker holding it, with a
      // heartbeat on the server's clock like a lease. The queue itself is pg-boss's (storage/postgres/run-queue.ts).
      `CREATE TABLE ${schema}.flower_fleet_runs (
        run TEXT PRIMARY KEY,
        task TEXT NOT NULL,
        options TEXT NOT NULL,
        status TEXT NOT NULL,
        step TEXT,
        job TEXT,
        approved BOOLEAN NOT NULL DEFAULT false,
        cancel_requested BOOLEAN NOT NULL DEFAULT false,
        error TEXT,
        token TEXT,
        pid INTEGER,
        host TEXT,
        machine TEXT,
        start_ticks BIGINT,
        heartbeat_at TIMESTAMPTZ,
        submitted_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
    ],
  },
  {
    version: 5,
    description: "the work of runs (checkpoints of their files, as git bundles)",
    statements: (schema) => [
      // An append-only log per run of where its chain of checkpoints stands (checkpoints/work-carrier.ts): a
      // new checkpoint as a git bundle of what it adds, a move back as a row without one. BYTEA: bundles
      // are binary. Rows are written under the step's lease; `forget` deletes a run's rows with it.
      `CREATE TABLE ${schema}.flower_work (
        run TEXT NOT NULL,
        seq INTEGER NOT NULL,
        commit_id TEXT NOT NULL,
        parent_id TEXT,
        step TEXT NOT NULL,
        kind TEXT NOT NULL,
        bundle BYTEA,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (run, seq)
      )`,
    ],
  },
  {
    version: 6,
    description:
      "the records' spend per UTC day, each record's run and cost, indexes for the reads of every second",
    statements: (schema) => [
      // Kept by every write of a record, in its statement (postgres-run-records.ts put): what the step
      // spent on each day (records/run-spend.ts daySpends), so a worker's day budget is one aggregate and
      // never a read of every record.
      `CREATE TABLE ${schema}.flower_step_spend (
        step TEXT NOT NULL,
        day TEXT NOT NULL,
        usd DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (step, day)
      )`,
      `CREATE INDEX flower_step_spend_day ON ${schema}.flower_step_spend (day)`,
      `ALTER TABLE ${schema}.flower_steps ADD COLUMN run TEXT`,
      `ALTER TABLE ${schema}.flower_steps ADD COLUMN cost_usd DOUBLE PRECISION`,
      `CREATE INDEX flower_steps_run ON ${schema}.flower_steps (run)`,
      // The reads of every second: a worker's watch (the running runs) and a page's (what changed).
      `CREATE INDEX flower_fleet_runs_status ON ${schema}.flower_fleet_runs (status)`,
      `CREATE INDEX flower_steps_updated ON ${schema}.flower_steps (updated_at)`,
    ],
    backfill: async (client, schema) => {
      const { rows } = await client.query<{ record: string }>(`SELECT record FROM ${schema}.flower_steps`);
      for (const row of rows) {
        const record = JSON.parse(row.record) as StepRecord;
        const days = daySpends(record);
        await client.query(`UPDATE ${schema}.flower_steps SET run = $2, cost_usd = $3 WHERE step = $1`, [
          record.step,
          runOf(record),
          record.costUsd,
        ]);
        await client.query(
          `INSERT INTO ${schema}.flower_step_spend (step, day, usd)
           SELECT $1, d.day, d.usd FROM unnest($2::text[], $3::float8[]) AS d(day, usd)`,
          [record.step, [...days.keys()], [...days.values()]],
        );
      }
    },
  },
  {
    version: 7,
    description: "a person's messages to runs (flower say)",
    statements: (schema) => [
      // One row per message until the transcript holds it (records/person-messages.ts); `seq` keeps the
      // order they were said in.
      `CREATE TABLE ${schema}.flower_person_messages (
        seq BIGSERIAL PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        run TEXT NOT NULL,
        text TEXT NOT NULL,
        by_whom TEXT NOT NULL,
        at TEXT NOT NULL
      )`,
      `CREATE INDEX flower_person_messages_run ON ${schema}.flower_person_messages (run, seq)`,
    ],
  },
];
