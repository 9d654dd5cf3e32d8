/**
 * The options of `serveRuns`, checked once before anything listens: a bad one fails with the option's
 * name and the value it got.
 */
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import { isLocale, type Locale } from "../locale/locale.js";
import type { RunActions, RunSource } from "./page-source.js";

export interface ServeOptions {
  /** Where the rows and reports come from (cli/page/serve-source.ts builds one from a run directory or a store). */
  source: RunSource;
  /** Approve and cancel; required with `allowActions`. */
  actions?: RunActions;
  /** @default 7733 (0: any free port) */
  port?: number;
  /**
   * The address to listen on. Anything but a loopback address lets other machines see the page (the
   * actions still need the token). @default "127.0.0.1"
   */
  host?: string;
  /** Show approve and cancel, which need the token printed at start. @default false */
  allowActions?: boolean;
  /** Language of the page. @default "en" */
  locale?: Locale;
  /** How often the source is read while a page is open, in ms. @default 1000 */
  intervalMs?: number;
  /** The token the actions need; a new random one by default (tests pass their own only to check it). */
  token?: string;
}

export const SERVE_DEFAULTS = { port: 7733, host: "127.0.0.1", intervalMs: 1_000 } as const;

/** Every option name, checked against ServeOptions by the compiler. */
const KNOWN = {
  source: true,
  actions: true,
  port: true,
  host: true,
  allowActions: true,
  locale: true,
  intervalMs: true,
  token: true,
} as const satisfies Record<keyof ServeOptions, true>;

export type ResolvedServeOptions = Required<Omit<ServeOptions, "actions" | "token">> &
  Pick<ServeOptions, "actions" | "token">;

export function resolveServeOptions(options: ServeOptions): ResolvedServeOptions {
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError("serveRuns options", options, "{ source, port?, host?, allowActions? }");
  // `allowActons: true` must not serve a read-only page without a word.
  refuseUnknownOptions(options, KNOWN);
  const { source, actions } = options;
  if (typeof source?.runs !== "function" || typeof source.report !== "function")
    throw new ConfigurationError("source", source, "a RunSource ({ where, runs(), report(), close() })");
  const port = options.port ?? SERVE_DEFAULTS.port;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ConfigurationError("port", port, "an integer from 0 to 65535");
  const host = options.host ?? SERVE_DEFAULTS.host;
  if (typeof host !== "string" || host.trim() === "" || /[\s/]/.test(host))
    throw new ConfigurationError("host", host, "an address or host name to listen on, e.g. 127.0.0.1");
  const allowActions = options.allowActions ?? false;
  if (typeof allowActions !== "boolean")
    throw new ConfigurationError("allowActions", allowActions, "true or false");
  if (allowActions && (typeof actions?.approve !== "function" || typeof actions.cancel !== "function"))
    throw new ConfigurationError("actions", actions, "{ approve(name), cancel(name) } with allowActions");
  const say: unknown = actions === undefined ? undefined : Reflect.get(actions, "say");
  if (say !== undefined && typeof say !== "function")
    throw new ConfigurationError("actions.say", say, "a function say(name, text) or nothing");
  const locale = options.locale ?? "en";
  if (!isLocale(locale)) throw new ConfigurationError("locale", locale, '"en" or "zh"');
  const intervalMs = options.intervalMs ?? SERVE_DEFAULTS.intervalMs;
  if (!Number.isFinite(intervalMs) || intervalMs < 50)
    throw new ConfigurationError("intervalMs", intervalMs, "a number of milliseconds >= 50");
  if (options.token !== undefined && (typeof options.token !== "string" || options.token.length < 16))
    throw new ConfigurationError("token", options.token, "a string of at least 16 characters");
  return {
    source,
    port,
    host: host.trim(),
    allowActions,
    locale,
    intervalMs,
    ...(actions ? { actions } : {}),
    ...(options.token ? { token: options.token } : {}),
  };
}
