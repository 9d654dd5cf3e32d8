/**
 * The one string that names where flower keeps its state (`Runtime({ store })`, `--store`,
 * `FLOWER_STORE`), parsed once at the boundary:
 * - nothing: the embedded default, SQLite in the run directory (`sessions.db`, `records.db`), no setup;
 * - `postgres://user:password@host:port/database` (or `postgresql://`): the shared store; an optional
 *   `?schema=name` keeps flower's tables in their own schema (default `public`);
 * - `sqlite:<path>` or a plain path: the session database at that file (records stay in the run directory).
 * A malformed value is refused with an error naming it (its password masked), before anything is opened.
 * A caller that parsed it already (the CLI, which names `--store` in its errors) passes the parsed spec
 * on (`storeSpecOf`), so it is never parsed twice.
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

export type PostgresStoreSpec = Extract<StoreSpec, { kind: "postgres" }>;

/**
 * The store a library boundary was given (`Runtime({ store })`, the fleet's `store`): a spec parsed
 * already is taken as it is, after a check of its shape; a string (or nothing) is parsed here, once, and
 * its error names `option`.
 */
export function storeSpecOf(value: unknown, option = "store"): StoreSpec {
  if (typeof value !== "object" || value === null) return parseStoreSpec(value, option);
  if (isStoreSpec(value)) return value;
  throw new ConfigurationError(option, value, `${EXPECTED}, or a store spec parsed from one`);
}

function isStoreSpec(value: object): value is StoreSpec {
  const spec = value as Record<string, unknown>;
  if (spec.kind === "sqlite")
    return spec.path === null || (typeof spec.path === "string" && spec.path.trim() !== "");
  return (
    spec.kind === "postgres" &&
    typeof spec.url === "string" &&
    /^postgres(ql)?:\/\//.test(spec.url) &&
    typeof spec.schema === "string" &&
    isSchemaName(spec.schema) &&
    typeof spec.shown === "string"
  );
}

/**
 * A postgres spec as a URL again, its schema as `?schema=` (the form a printed command or a notification
 * names it by): `parseStoreSpec` of it gives the same spec.
 */
export function storeUrl(spec: PostgresStoreSpec): string {
  const url = new URL(spec.url);
  if (spec.schema !== "public") url.searchParams.set("schema", spec.schema);
  return url.toString();
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
