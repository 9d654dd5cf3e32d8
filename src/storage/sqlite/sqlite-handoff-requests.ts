/**
 * The request channel of `flower handoff` in records.db (records/handoff-requests.ts says why it is a
 * channel of its own and not a write to the step record).
 */
import type Database from "better-sqlite3";
import {
  toRequest,
  type HandoffRequest,
  type HandoffRequests,
  type RequestColumns,
} from "../../records/handoff-requests.js";

/** The channel in records.db, next to the leases (the table is created on first open: no schema bump). */
export class SqliteHandoffRequests implements HandoffRequests {
  readonly #db: Database.Database;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#db.exec(`
      CREATE TABLE IF NOT EXISTS handoff_requests (
        step TEXT PRIMARY KEY,
        id TEXT NOT NULL,
        lease TEXT NOT NULL,
        next TEXT,
        by_whom TEXT NOT NULL,
        at TEXT NOT NULL
      );
    `);
  }

  put(request: HandoffRequest): void {
    this.#db
      .prepare(
        "INSERT OR REPLACE INTO handoff_requests (step, id, lease, next, by_whom, at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(request.step, request.id, request.lease, request.next, request.by, request.at);
  }

  get(step: string, lease: string): HandoffRequest | null {
    const row = this.#db
      .prepare("SELECT * FROM handoff_requests WHERE step = ? AND lease = ?")
      .get(step, lease) as RequestColumns | undefined;
    return row ? toRequest(row) : null;
  }

  take(step: string, id: string): void {
    this.#db.prepare("DELETE FROM handoff_requests WHERE step = ? AND id = ?").run(step, id);
  }

  /** In the caller's transaction (the step's record is deleted): nothing of it is left. */
  deleteStep(step: string): void {
    this.#db.prepare("DELETE FROM handoff_requests WHERE step = ?").run(step);
  }
}
