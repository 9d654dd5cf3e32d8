/**
 * The one string that names where flower keeps its state (`Runtime({ store })`, `--store`,
 * `FLOWER_STORE`), parsed once at the boundary:
 * - nothing: the embedded default, SQLite in the run directory (`sessions.db`, `records.db`), no setup;
 * - `postgres://user:password@host:port/database` (or `postgresql://`): the shared store; an optional
 *   `?schema=name` keeps flower's tables in their own schema (default `public`);
 * - `sqlite:<path>` or a plain path: the session database at that file (records stay in the run directory).
 * A malformed value is refused with an error naming it (its password masked), before anything is opened.
 */
import { ConfigurationError } from "../errors.js";
import { isSchemaName } from "./postgres/migrate.js";

export type StoreSpec =
  | { kind: "sqlite"; /** The session database; null: `<runDir>/sessions.db`. */ path: string | null }
  | {
      kind: "postgres";
      /** The connection URL as given to the driver (without flower's `schema` parameter). */
      url: string;
      schema: string;
      /** The URL with its password masked, for messages. */
      shown: string;
    };

const EXPECTED =
  "a postgres://user:password@host:port/database URL (optionally ?schema=name), sqlite:<path>, or nothing for the default";

export function parseStoreSpec(value: unknown, option = "store"): StoreSpec {
  if (value === undefined || value === null) return { kind: "sqlite", path: null };
  if (typeof value !== "string") throw new ConfigurationError(option, value, EXPECTED);
  const spec = value.trim();
  if (spec === "") return { kind: "sqlite", path: null };
  if (/^postgres(ql)?:/i.test(spec)) return parsePostgres(spec, option);
  if (spec.startsWith("sqlite:")) {
    const path = spec.slice("sqlite:".length);
    if (path.trim() === "") throw new ConfigurationError(option, spec, EXPECTED);
    return { kind: "sqlite", path };
  }
  // Some other scheme (mysql://, redis://, http://): not a file path either.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec))
    throw new ConfigurationError(option, maskPassword(spec), EXPECTED);
  return { kind: "sqlite", path: spec };
}

function parsePostgres(spec: string, option: string): StoreSpec {
  const shown = maskPassword(spec);
  if (!/^postgres(ql)?:\/\//.test(spec)) throw new ConfigurationError(option, shown, EXPECTED);
  let url: URL;
  try {
    url = new URL(spec);
  } catch {
    throw new ConfigurationError(option, shown, EXPECTED);
  }
  // A host is needed unless the query names one (a unix socket: ?host=/var/run/postgresql).
  if (url.hostname === "" && !url.searchParams.has("host"))
    throw new ConfigurationError(option, shown, `${EXPECTED}; this one names no host`);
  if (url.port !== "" && !(Number(url.port) > 0 && Number(url.port) < 65536))
    throw new ConfigurationError(option, shown, `${EXPECTED}; the port is not a port number`);
  const schema = url.searchParams.get("schema") ?? "public";
  if (!isSchemaName(schema))
    throw new ConfigurationError(
      option,
      shown,
      `${EXPECTED}; schema must be lowercase letters, digits and _`,
    );
  url.searchParams.delete("schema");
  return { kind: "postgres", url: url.toString(), schema, shown };
}

/** The value with the password of a `scheme://user:password@host` masked, parsable or not. */
export function maskPassword(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^@/?#]*@/i, "$1:***@");
}
