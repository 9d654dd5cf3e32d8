/**
 * The runs' work in PostgreSQL (`flower_work`, migration 5 in migrations.ts): per run, the append-only
 * log of its chain of checkpoints that checkpoints/work-carrier.ts describes. A row written under a step's
 * lease is fenced by it in the same statement (as a record write is, run-records.ts): a driver presumed
 * dead cannot move a run's work under the one that took it over.
 */
import type { ClientBase, Pool } from "pg";
import { LeaseLostError, StoreError } from "../../errors.js";
import type {
  CarriedCheckpoint,
  CarryFence,
  NewCarriedCheckpoint,
  WorkCarrier,
} from "../../checkpoints/work-carrier.js";

interface WorkColumns {
  seq: number;
  commit_id: string;
  parent_id: string | null;
  step: string;
  kind: CarriedCheckpoint["kind"];
  bundle: Buffer | null;
  created_at: Date;
}

export class PostgresWorkLog implements WorkCarrier {
  readonly #pool: () => Promise<Pool>;
  readonly #table: string;
  readonly #leases: string;
  readonly #location: string;

  /** `pool` resolves once the schema is migrated; `schema` is already quoted. */
  constructor(pool: () => Promise<Pool>, schema: string, location: string) {
    this.#pool = pool;
    this.#table = `${schema}.flower_work`;
    this.#leases = `${schema}.flower_leases`;
    this.#location = location;
  }

  async append(run: string, row: NewCarriedCheckpoint, fence?: CarryFence): Promise<number> {
    const rows = await this.#query<{ seq: number }>(
      "store a checkpoint",
      `WITH holder AS (
         SELECT 1 FROM ${this.#leases} WHERE step = $7 AND token = $8 FOR SHARE
       )
       INSERT INTO ${this.#table} (run, seq, commit_id, parent_id, step, kind, bundle)
       SELECT $1, COALESCE((SELECT max(seq) FROM ${this.#table} WHERE run = $1), 0) + 1, $2, $3, $4, $5, $6
       WHERE $8::text IS NULL OR EXISTS (SELECT 1 FROM holder)
       RETURNING seq`,
      [
        run,
        row.commit,
        row.parent,
        row.step,
        row.kind,
        row.bundle,
        fence?.step ?? null,
        fence?.lease ?? null,
      ],
    );
    if (rows.length === 0) throw new LeaseLostError(fence?.step ?? run);
    return rows[0]!.seq;
  }

  async last(run: string): Promise<number> {
    const rows = await this.#query<{ seq: number | null }>(
      "read a run's checkpoints",
      `SELECT max(seq) AS seq FROM ${this.#table} WHERE run = $1`,
      [run],
    );
    return rows[0]?.seq ?? 0;
  }

  async list(run: string, after = 0): Promise<CarriedCheckpoint[]> {
    const rows = await this.#query<WorkColumns>(
      "read a run's checkpoints",
      `SELECT seq, commit_id, parent_id, step, kind, bundle, created_at FROM ${this.#table}
       WHERE run = $1 AND seq > $2 ORDER BY seq`,
      [run, after],
    );
    return rows.map((row) => ({
      seq: row.seq,
      commit: row.commit_id,
      parent: row.parent_id,
      step: row.step,
      kind: row.kind,
      bundle: row.bundle,
      at: row.created_at.toISOString(),
    }));
  }

  async sizes(runs: readonly string[]): Promise<Map<string, { rows: number; bytes: number }>> {
    const rows = await this.#query<{ run: string; rows: string; bytes: string | null }>(
      "measure the runs' checkpoints",
      `SELECT run, count(*) AS rows, sum(octet_length(bundle)) AS bytes FROM ${this.#table}
       WHERE run = ANY($1) GROUP BY run`,
      [runs],
    );
    return new Map(rows.map((row) => [row.run, { rows: Number(row.rows), bytes: Number(row.bytes ?? 0) }]));
  }

  /** In the caller's transaction (forget): deletes the runs' logs; returns how many rows went. */
  async deleteOfRuns(client: ClientBase, runs: readonly string[]): Promise<number> {
    const { rowCount } = await client.query(`DELETE FROM ${this.#table} WHERE run = ANY($1)`, [runs]);
    return rowCount ?? 0;
  }

  async #query<Row extends object>(what: string, text: string, values: unknown[]): Promise<Row[]> {
    let result;
    try {
      const pool = await this.#pool();
      result = await pool.query(text, values);
    } catch (error) {
      throw new StoreError(`Could not ${what} in ${this.#location}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return result.rows as Row[];
  }
}
