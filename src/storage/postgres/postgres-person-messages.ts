/**
 * The channel of `flower say` in a shared store (`flower_person_messages`, migration 6 in
 * migrations.ts): a person on any machine leaves a message for a run, whichever machine drives it. See
 * records/person-messages.ts for why it is a channel and not a write to the step record.
 */
import type { ClientBase, Pool, QueryResultRow } from "pg";
import { StoreError } from "../../errors.js";
import {
  runsOfStep,
  toMessage,
  type MessageColumns,
  type PersonMessage,
  type PersonMessages,
} from "../../records/person-messages.js";

type MessageRow = MessageColumns & QueryResultRow;

export class PostgresPersonMessages implements PersonMessages {
  readonly #pool: () => Promise<Pool>;
  readonly #table: string;
  readonly #location: string;

  /** `pool` resolves once the schema is migrated; `schema` is already quoted. */
  constructor(pool: () => Promise<Pool>, schema: string, location: string) {
    this.#pool = pool;
    this.#table = `${schema}.flower_person_messages`;
    this.#location = location;
  }

  async put(message: PersonMessage): Promise<void> {
    await this.#query(
      "leave a message",
      `INSERT INTO ${this.#table} (id, run, text, by_whom, at) VALUES ($1, $2, $3, $4, $5)`,
      [message.id, message.run, message.text, message.by, message.at],
    );
  }

  async list(run: string): Promise<PersonMessage[]> {
    const rows = await this.#query(
      "read the messages",
      `SELECT id, run, text, by_whom, at FROM ${this.#table} WHERE run = $1 ORDER BY seq`,
      [run],
    );
    return rows.map(toMessage);
  }

  async take(run: string, id: string): Promise<void> {
    await this.#query("clear a message", `DELETE FROM ${this.#table} WHERE run = $1 AND id = $2`, [run, id]);
  }

  /** In the caller's transaction (`flower forget --store`): the forgotten steps' runs lose their messages. */
  async deleteSteps(client: ClientBase, steps: readonly string[]): Promise<void> {
    await client.query(`DELETE FROM ${this.#table} WHERE run = ANY($1)`, [steps.flatMap(runsOfStep)]);
  }

  async #query(operation: string, text: string, values: unknown[]): Promise<MessageColumns[]> {
    try {
      const pool = await this.#pool();
      return (await pool.query<MessageRow>(text, values)).rows;
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
