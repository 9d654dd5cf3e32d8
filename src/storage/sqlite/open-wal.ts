/**
 * Opens a flower SQLite file in WAL mode with `synchronous = NORMAL` (durable against a process crash in
 * WAL mode). Switching a fresh file to WAL takes a lock for which SQLite does not call the busy handler,
 * so two processes opening one new file at once (two `flower` commands started in a new directory) got
 * "database is locked" at once instead of waiting. The switch is retried until the busy timeout, as the
 * handler would have waited for any other lock. Its page cache is bounded (PAGE_CACHE_KIB).
 */
import Database from "better-sqlite3";

const RETRY_MS = 20;

/**
 * The page cache of one connection, in KiB (SQLite's `cache_size` takes KiB as a negative number).
 * better-sqlite3 builds SQLite with a 16 MB default (`SQLITE_DEFAULT_CACHE_SIZE=-16000`), and a
 * connection keeps the pages it has touched until it closes: the session store writes every transcript
 * entry, so over a night-long run its cache filled to 16 MB of the driver's RSS (workload 5 of the
 * bench: +13 MB over ~10 MB of transcripts). The store appends and reads a transcript once per resume,
 * which the OS file cache serves as well, so SQLite's own default of 2 MB is kept.
 */
export const PAGE_CACHE_KIB = 2_000;

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
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  return db;
}
