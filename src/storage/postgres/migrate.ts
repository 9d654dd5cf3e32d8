/**
 * Creates or upgrades flower's tables in one Postgres schema. Two processes starting at once against a
 * fresh database must not both create the tables: the whole migration runs in one transaction holding a
 * transaction-level advisory lock keyed on the schema name, so the second waits, then finds the version
 * current and does nothing. DDL is transactional in Postgres: a failing migration leaves no half schema.
 */
import type { PoolClient } from "pg";
import { StoreError } from "../../errors.js";
import type { PostgresMigration } from "./migrations.js";

/**
 * First half of the advisory lock key: "flow" in ASCII, so flower's locks are recognisable in pg_locks
 * (the fleet's queue start takes one too, run-queue.ts).
 */
export const LOCK_NAMESPACE = 0x666c6f77;

/** `"name"`, for a name already checked by `isSchemaName`. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Lowercase letters, digits and `_`, starting with a letter or `_`, at most 63 bytes (Postgres' limit). */
export function isSchemaName(value: unknown): value is string {
  return typeof value === "string" && /^[a-z_][a-z0-9_]{0,62}$/.test(value);
}

/** Brings `schema` to the newest version in `migrations`; returns the version it found before. */
export async function migrate(
  client: PoolClient,
  schema: string,
  migrations: readonly PostgresMigration[],
): Promise<number> {
  checkOrder(migrations);
  const quoted = quoteIdentifier(schema);
  const latest = migrations.at(-1)?.version ?? 0;
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [LOCK_NAMESPACE, schema]);
    // Look before creating: CREATE … IF NOT EXISTS still demands the CREATE privilege, which a runner's
    // role (DML only, on a schema an administrator migrated) does not have.
    const { rows: existing } = await client.query<{ table: string | null }>(
      "SELECT to_regclass($1) AS table",
      [`${quoted}.flower_schema_version`],
    );
    let found = 0;
    if (existing[0]?.table) {
      const { rows } = await client.query<{ version: number | null }>(
        `SELECT max(version) AS version FROM ${quoted}.flower_schema_version`,
      );
      found = rows[0]?.version ?? 0;
    } else {
      const { rows: schemas } = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
      if (schemas.length === 0) await client.query(`CREATE SCHEMA ${quoted}`);
      await client.query(
        `CREATE TABLE ${quoted}.flower_schema_version (
          version INTEGER PRIMARY KEY,
          description TEXT NOT NULL,
          applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`,
      );
    }
    if (found > latest)
      throw new StoreError(
        `The store's schema "${schema}" is at version ${found}, newer than this flower knows (${latest}); upgrade flower`,
      );
    for (const migration of migrations) {
      if (migration.version <= found) continue;
      for (const statement of migration.statements(quoted)) await client.query(statement);
      await migration.backfill?.(client, quoted);
      await client.query(
        `INSERT INTO ${quoted}.flower_schema_version (version, description) VALUES ($1, $2)`,
        [migration.version, migration.description],
      );
    }
    await client.query("COMMIT");
    return found;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

function checkOrder(migrations: readonly PostgresMigration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1)
      throw new StoreError(
        `Postgres migration ${index + 1} has version ${migration.version}; versions must be 1, 2, 3, … in order`,
      );
  });
}
