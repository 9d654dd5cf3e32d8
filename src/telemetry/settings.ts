/**
 * Whether telemetry is on, and how, decided once at the boundary (docs/telemetry.md). Off by default: a user
 * who never asks for it pays one boolean check per event and loads no OpenTelemetry module at all, which is
 * why this file imports nothing from OpenTelemetry.
 *
 * Switched on the standard way (the `OTEL_*` variables every OpenTelemetry SDK reads) or by the library's
 * `telemetry` option. An explicit option wins over the environment: `telemetry: false` keeps it off even
 * where a collector's variables are set for other programs.
 */
import { ConfigurationError } from "../errors.js";

export interface TelemetryOptions {
  /** @default true (an object means "on") */
  enabled?: boolean;
  /** The collector's base URL; `/v1/traces` and `/v1/metrics` are added. @default OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318 */
  endpoint?: string;
  /** `service.name` of flower's spans and metrics. @default OTEL_SERVICE_NAME, else "flower" */
  serviceName?: string;
  /** Export spans. @default true unless OTEL_TRACES_EXPORTER=none */
  traces?: boolean;
  /** Export metrics. @default true unless OTEL_METRICS_EXPORTER=none */
  metrics?: boolean;
  /**
   * Put prompts, tool inputs and handoff texts on spans (redacted like everything flower writes).
   * @default FLOWER_OTEL_CONTENT=1, else false: only sizes, names and counts are exported
   */
  content?: boolean;
  /**
   * The `claude` child exports its own metrics and logs to the same collector, tagged with flower's run,
   * step and generation. A CLAUDE_CODE_ENABLE_TELEMETRY the user set is left as it is. @default true
   */
  claude?: boolean;
}

export interface TelemetrySettings {
  /** The collector's base URL (the child's OTLP endpoint). */
  endpoint: string;
  /** Where flower's exporters post (OTLP/HTTP, JSON): a signal's own variable wins over the base URL. */
  tracesUrl: string;
  metricsUrl: string;
  serviceName: string;
  traces: boolean;
  metrics: boolean;
  content: boolean;
  claude: boolean;
  /** Extra headers for the collector (OTEL_EXPORTER_OTLP_HEADERS): passed to the exporters as they are. */
  headers: Record<string, string>;
}

const PROTOCOLS: readonly string[] = ["http/json", "http/protobuf"];
const KNOWN = ["enabled", "endpoint", "serviceName", "traces", "metrics", "content", "claude"];
const DEFAULT_ENDPOINT = "http://localhost:4318";

type Env = Readonly<Record<string, string | undefined>>;

const set = (value: string | undefined): value is string => value !== undefined && value.trim() !== "";

/** What the environment alone says: on when a collector or an OTLP exporter is named. */
function switchedOnByEnv(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = [env.OTEL_TRACES_EXPORTER, env.OTEL_METRICS_EXPORTER].filter(set);
  if (exporters.some((value) => value.split(",").some((name) => name.trim() === "otlp"))) return true;
  // An endpoint alone switches it on (what users of other SDKs expect), unless both signals are "none".
  const none = (value: string | undefined) => value?.trim() === "none";
  const endpoint = [env.OTEL_EXPORTER_OTLP_ENDPOINT, env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT].some(set);
  return endpoint && !(none(env.OTEL_TRACES_EXPORTER) && none(env.OTEL_METRICS_EXPORTER));
}

/** `key=value,key2=value2` (OTEL_EXPORTER_OTLP_HEADERS), values percent-decoded as the spec says. */
function parseHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    const raw = pair.slice(at + 1).trim();
    try {
      headers[key] = decodeURIComponent(raw);
    } catch {
      headers[key] = raw;
    }
  }
  return headers;
}

function checkBoolean(options: TelemetryOptions, field: keyof TelemetryOptions): boolean | undefined {
  const value: unknown = options[field];
  if (value !== undefined && typeof value !== "boolean")
    throw new ConfigurationError(`telemetry.${field}`, value, "a boolean");
  return value;
}

function checkEndpoint(value: unknown, name: string): string {
  if (typeof value !== "string" || !/^https?:\/\/[^\s/]+/.test(value))
    throw new ConfigurationError(name, value, "an http:// or https:// URL of an OTLP/HTTP collector");
  return value.replace(/\/+$/, "");
}

/**
 * The settings, or null when telemetry is off. Throws ConfigurationError naming the bad value (the
 * option's field, or the environment variable it came from).
 */
export function resolveTelemetry(
  option: boolean | TelemetryOptions | undefined,
  env: Env,
): TelemetrySettings | null {
  if (option !== undefined && typeof option !== "boolean" && (typeof option !== "object" || option === null))
    throw new ConfigurationError("telemetry", option, "a boolean or { endpoint?, serviceName?, ... }");
  const options: TelemetryOptions = typeof option === "object" ? option : {};
  for (const key of Object.keys(options)) {
    if (!KNOWN.includes(key))
      throw new ConfigurationError(
        `telemetry.${key}`,
        (options as Record<string, unknown>)[key],
        `a known field (${KNOWN.join(", ")})`,
      );
  }
  const enabled = checkBoolean(options, "enabled");
  const on = option === false ? false : typeof option === "object" ? enabled !== false : option === true;
  if (!on && !(option === undefined && switchedOnByEnv(env))) return null;

  const endpoint =
    options.endpoint !== undefined
      ? checkEndpoint(options.endpoint, "telemetry.endpoint")
      : set(env.OTEL_EXPORTER_OTLP_ENDPOINT)
        ? checkEndpoint(env.OTEL_EXPORTER_OTLP_ENDPOINT, "OTEL_EXPORTER_OTLP_ENDPOINT")
        : DEFAULT_ENDPOINT;
  // flower posts OTLP/HTTP JSON itself; the variable matters for the child, which must reach the same port.
  const protocol = env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim();
  if (set(protocol) && !PROTOCOLS.includes(protocol))
    throw new ConfigurationError(
      "OTEL_EXPORTER_OTLP_PROTOCOL",
      protocol,
      `one of ${PROTOCOLS.join(", ")} (flower exports over OTLP/HTTP, not gRPC)`,
    );
  const signalUrl = (name: string, path: string) => {
    const own = env[name];
    return set(own) ? checkEndpoint(own, name) : `${endpoint}${path}`;
  };
  const serviceName = options.serviceName ?? (set(env.OTEL_SERVICE_NAME) ? env.OTEL_SERVICE_NAME : "flower");
  if (typeof serviceName !== "string" || serviceName.trim() === "")
    throw new ConfigurationError("telemetry.serviceName", serviceName, "a non-empty string");
  return {
    endpoint,
    tracesUrl: signalUrl("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "/v1/traces"),
    metricsUrl: signalUrl("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "/v1/metrics"),
    serviceName,
    traces: checkBoolean(options, "traces") ?? env.OTEL_TRACES_EXPORTER?.trim() !== "none",
    metrics: checkBoolean(options, "metrics") ?? env.OTEL_METRICS_EXPORTER?.trim() !== "none",
    content: checkBoolean(options, "content") ?? env.FLOWER_OTEL_CONTENT?.trim() === "1",
    claude: checkBoolean(options, "claude") ?? true,
    headers: parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
  };
}
