/** Workspace files (session-layers/workspace-files.ts) in the store's `flower_files` table. */
import type { ClientBase, Pool } from "pg";
import { ConfigurationError, StoreError } from "../../errors.js";
import {
  isWorkspaceFilePath,
  type StoredFile,
  type WorkspaceFiles,
} from "../../session-layers/workspace-files.js";

export class PostgresWorkspaceFiles implements WorkspaceFiles {
  readonly #pool: () => Promise<Pool>;
  readonly #table: string;
  readonly #location: string;

  /** `pool` resolves once the schema is migrated; `schema` is already quoted. */
  constructor(pool: () => Promise<Pool>, schema: string, location: string) {
    this.#pool = pool;
    this.#table = `${schema}.flower_files`;
    this.#location = location;
  }

  async put(path: string, content: Buffer, step?: string): Promise<void> {
    check(path);
    await this.#query(
      `INSERT INTO ${this.#table} AS f (path, content, step) VALUES ($1, $2, $3)
       ON CONFLICT (path) DO UPDATE SET content = EXCLUDED.content, step = EXCLUDED.step, saved_at = now()
       WHERE f.content IS DISTINCT FROM EXCLUDED.content`,
      [path, content, step ?? null],
    );
  }

  async get(path: string): Promise<Buffer | null> {
    check(path);
    const rows = await this.#query<{ content: Buffer }>(
      `SELECT content FROM ${this.#table} WHERE path = $1`,
      [path],
    );
    return rows[0]?.content ?? null;
  }

  async list(prefix: string): Promise<StoredFile[]> {
    if (typeof prefix !== "string" || !prefix.startsWith(".flower/"))
      throw new ConfigurationError("prefix", prefix, "a path prefix under .flower/");
    // A range on the C-collated key: the primary key's btree answers it directly.
    const rows = await this.#query<{ path: string; age_ms: number }>(
      `SELECT path, (extract(epoch FROM now() - saved_at) * 1000)::float8 AS age_ms
       FROM ${this.#table} WHERE path >= $1 AND path < $2 ORDER BY path`,
      [prefix, `${prefix}\u{10FFFF}`],
    );
    const readAt = Date.now();
    return rows.map((row) => ({ path: row.path, savedAt: readAt - row.age_ms }));
  }

  /** In the caller's transaction (forget): deletes the files the steps saved; returns how many. */
  async deleteOfSteps(client: ClientBase, steps: readonly string[]): Promise<number> {
    const { rowCount } = await client.query(`DELETE FROM ${this.#table} WHERE step = ANY($1)`, [steps]);
    return rowCount ?? 0;
  }

  async #query<Row extends object>(text: string, values: unknown[]): Promise<Row[]> {
    try {
      const pool = await this.#pool();
      const result = await pool.query(text, values);
      return result.rows as Row[];
    } catch (error) {
      throw new StoreError(`Workspace files in ${this.#location}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

function check(path: string): void {
  if (!isWorkspaceFilePath(path))
    throw new ConfigurationError("path", path, "a relative path under .flower/ without .. parts");
}
