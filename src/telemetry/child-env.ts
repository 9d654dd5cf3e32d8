/**
 * The `claude` child's own telemetry joins flower's (docs/telemetry.md): the binary exports its metrics and
 * logs (tokens, cost, tool decisions, API requests) over OTLP when CLAUDE_CODE_ENABLE_TELEMETRY=1. Sent to
 * the same collector and tagged with flower's run, step and generation as resource attributes, its series can
 * be put next to flower's trace of the same generation.
 *
 * Never switched on here: the binary's prompt and tool-detail logging (OTEL_LOG_USER_PROMPTS,
 * OTEL_LOG_TOOL_DETAILS): flower cannot redact what the binary exports itself, so FLOWER_OTEL_CONTENT
 * does not reach it. A value the user set is passed on as it is, like every variable the user set.
 */
import type { TelemetrySettings } from "./settings.js";

export interface ChildPlace {
  run: string | null;
  step: string;
  generation: number;
}

type Env = Readonly<Record<string, string | undefined>>;

/** `key=value` as OTEL_RESOURCE_ATTRIBUTES wants it: the value percent-encoded (it may hold `,` or `=`). */
const pair = (key: string, value: string | number) => `${key}=${encodeURIComponent(String(value))}`;

/** The variables the child gets over its environment; empty when the child's telemetry is not wanted. */
export function claudeTelemetryEnv(
  settings: TelemetrySettings,
  env: Env,
  place: ChildPlace,
): Record<string, string> {
  if (!settings.claude) return {};
  const ours = [
    pair("flower.step", place.step),
    pair("flower.generation", place.generation),
    ...(place.run !== null ? [pair("flower.run", place.run)] : []),
  ];
  const given = env.OTEL_RESOURCE_ATTRIBUTES?.trim();
  return {
    // "0" or "false" set by the user means they do not want it: left alone.
    CLAUDE_CODE_ENABLE_TELEMETRY: env.CLAUDE_CODE_ENABLE_TELEMETRY ?? "1",
    OTEL_METRICS_EXPORTER: env.OTEL_METRICS_EXPORTER ?? (settings.metrics ? "otlp" : "none"),
    OTEL_LOGS_EXPORTER: env.OTEL_LOGS_EXPORTER ?? "otlp",
    OTEL_EXPORTER_OTLP_ENDPOINT: env.OTEL_EXPORTER_OTLP_ENDPOINT ?? settings.endpoint,
    // JSON, like flower's own exporter: every OTLP/HTTP collector takes it.
    OTEL_EXPORTER_OTLP_PROTOCOL: env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/json",
    OTEL_RESOURCE_ATTRIBUTES: [...(given ? [given] : []), ...ours].join(","),
  };
}
