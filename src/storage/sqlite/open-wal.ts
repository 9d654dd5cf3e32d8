/**
 * Opens a flower SQLite file in WAL mode with `synchronous = NORMAL` (durable against a process crash in
 * WAL mode). Switching a fresh file to WAL takes a lock for which SQLite does not call the busy handler,
 * so two processes opening one new file at once (two `flower` commands started in a new directory) got
 * "database is locked" at once instead of waiting. The switch is retried until the busy timeout, as the
 * handler would have waited for any other lock.
 */
import Database from "better-sqlite3";

const RETRY_MS = 20;

export function openWal(path: string, busyTimeoutMs: number): Database.Database {
  const db = new Database(path, { timeout: busyTimeoutMs });
  const deadline = Date.now() + busyTimeoutMs;
  for (;;) {
    try {
      db.pragma("journal_mode = WAL");
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() >= deadline) {
        db.close();
        throw error;
      }
      // A synchronous pause: the constructors that call this are synchronous, as better-sqlite3 is.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
    }
  }
  db.pragma("synchronous = NORMAL");
  return db;
}
