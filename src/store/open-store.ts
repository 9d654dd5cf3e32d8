/**
 * One string names the backing store (`--store`, `FLOWER_STORE`, `Runtime({ store })`): a `postgres://`
 * URL opens the shared Postgres store, `sqlite:<path>` a SQLite file; nothing means the embedded default,
 * SQLite at the run directory's `sessions.db`, with no setup.
 */
import { ConfigurationError } from "../errors.js";
import type { FlowerSessionStore } from "./flower-store.js";
import { PostgresSessionStore, redact } from "./postgres/postgres-store.js";
import { SqliteSessionStore } from "./sqlite-store.js";

/** Opens the store `spec` names; `defaultSqlitePath` is used when `spec` is undefined or empty. */
export function openBackingStore(spec: string | undefined, defaultSqlitePath: string): FlowerSessionStore {
  if (spec === undefined || spec.trim() === "") return new SqliteSessionStore({ path: defaultSqlitePath });
  if (typeof spec !== "string")
    throw new ConfigurationError("store", spec, "a postgres:// URL or sqlite:<path>");
  if (/^postgres(ql)?:\/\//.test(spec)) return new PostgresSessionStore({ url: spec });
  if (spec.startsWith("sqlite:") && spec.length > "sqlite:".length)
    return new SqliteSessionStore({ path: spec.slice("sqlite:".length) });
  throw new ConfigurationError("store", redact(spec), "a postgres:// URL or sqlite:<path>");
}
