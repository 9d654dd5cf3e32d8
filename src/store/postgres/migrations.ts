/**
 * flower's Postgres schema as an ordered list of migrations. Each runs once per schema, inside the
 * migration transaction (migrate.ts), and its version is recorded in `flower_schema_version`. Never edit
 * or reorder a released migration: add the next version instead (run records and leases will be 2, 3, …).
 *
 * Tables carry a `flower_` prefix so they can share a schema (default `public`) with an application's own.
 */
export interface PostgresMigration {
  /** 1, 2, 3, … without gaps, in list order. */
  version: number;
  /** One line for `flower_schema_version.description`. */
  description: string;
  /** The statements, given the quoted schema name (e.g. `"public"`). */
  statements: (schema: string) => string[];
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
];
