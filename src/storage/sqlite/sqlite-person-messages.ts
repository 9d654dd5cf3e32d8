/**
 * The channel of `flower say` in records.db (records/person-messages.ts says why it is a channel of its
 * own and not a write to the step record).
 */
import type Database from "better-sqlite3";
import {
  runsOfStep,
  toMessage,
  type MessageColumns,
  type PersonMessage,
  type PersonMessages,
} from "../../records/person-messages.js";

/** The channel in records.db, next to the leases (the table is created on first open: no schema bump). */
export class SqlitePersonMessages implements PersonMessages {
  readonly #db: Database.Database;

  constructor(db: Database.Database) {
    this.#db = db;
    // `seq` keeps the order they were said in: two messages in the same millisecond stay in order.
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS person_messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        run TEXT NOT NULL,
        text TEXT NOT NULL,
        by_whom TEXT NOT NULL,
        at TEXT NOT NULL
      );
    `);
  }

  put(message: PersonMessage): void {
    this.#db
      .prepare("INSERT INTO person_messages (id, run, text, by_whom, at) VALUES (?, ?, ?, ?, ?)")
      .run(message.id, message.run, message.text, message.by, message.at);
  }

  list(run: string): PersonMessage[] {
    const rows = this.#db
      .prepare("SELECT id, run, text, by_whom, at FROM person_messages WHERE run = ? ORDER BY seq")
      .all(run) as MessageColumns[];
    return rows.map(toMessage);
  }

  take(run: string, id: string): void {
    this.#db.prepare("DELETE FROM person_messages WHERE run = ? AND id = ?").run(run, id);
  }

  /** In the caller's transaction (the step's record is deleted): its run's messages go with it. */
  deleteStep(step: string): void {
    const remove = this.#db.prepare("DELETE FROM person_messages WHERE run = ?");
    for (const run of runsOfStep(step)) remove.run(run);
  }
}
