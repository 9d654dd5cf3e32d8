/**
 * The request channel of `flower handoff` in a shared store (`flower_handoff_requests`, migration 3 in
 * migrations.ts): a person on any machine asks the live driver, on whichever machine it runs, to hand
 * off. See records/handoff-requests.ts for why it is a channel and not a write to the step record.
 */
import type { ClientBase, Pool, QueryResultRow } from "pg";
import { StoreError } from "../../errors.js";
import {
  toRequest,
  type HandoffRequest,
  type HandoffRequests,
  type RequestColumns,
} from "../../records/handoff-requests.js";

/** A row as pg returns it: the columns of the SQLite table, named alike. */
type RequestRow = RequestColumns & QueryResultRow;

export class PostgresHandoffRequests implements HandoffRequests {
  readonly #pool: () => Promise<Pool>;
  readonly #table: string;
  readonly #location: string;

  /** `pool` resolves once the schema is migrated; `schema` is already quoted. */
  constructor(pool: () => Promise<Pool>, schema: string, location: string) {
    this.#pool = pool;
    this.#table = `${schema}.flower_handoff_requests`;
    this.#location = location;
  }

  async put(request: HandoffRequest): Promise<void> {
    await this.#query(
      "leave a handoff request",
      `INSERT INTO ${this.#table} (step, id, lease, next, by_whom, at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (step) DO UPDATE SET id = $2, lease = $3, next = $4, by_whom = $5, at = $6`,
      [request.step, request.id, request.lease, request.next, request.by, request.at],
    );
  }

  async get(step: string, lease: string): Promise<HandoffRequest | null> {
    const rows = await this.#query(
      "read a handoff request",
      `SELECT step, id, lease, next, by_whom, at FROM ${this.#table} WHERE step = $1 AND lease = $2`,
      [step, lease],
    );
    return rows[0] ? toRequest(rows[0]) : null;
  }

  async take(step: string, id: string): Promise<void> {
    await this.#query("delete a handoff request", `DELETE FROM ${this.#table} WHERE step = $1 AND id = $2`, [
      step,
      id,
    ]);
  }

  /** In the caller's transaction (`flower forget --store`): nothing of a forgotten step is left. */
  async deleteSteps(client: ClientBase, steps: readonly string[]): Promise<void> {
    await client.query(`DELETE FROM ${this.#table} WHERE step = ANY($1)`, [steps]);
  }

  async #query(operation: string, text: string, values: unknown[]): Promise<RequestColumns[]> {
    try {
      const pool = await this.#pool();
      return (await pool.query<RequestRow>(text, values)).rows;
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError(
        `Run records: cannot ${operation} in ${this.#location}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }
}
