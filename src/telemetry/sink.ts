/**
 * The seam between the telemetry hook (hook.ts) and the OpenTelemetry side (otel-sink.ts): what the hook
 * gives the sink to look things up with, and what the sink offers. In a file of their own because the
 * hook loads the sink with import() and the sink is written against these: declared in the hook, the two
 * files would import each other.
 */
import type { Locale } from "../locale/locale.js";
import type { StepRecord } from "../records/step-record.js";
import type { TelemetryEvent } from "./event-shapes.js";

/** What the sink may look up besides the events: the records are the other source of truth. */
export interface TelemetryContext {
  /** The step's record as it stands (model, cost so far, task). */
  recordOf(step: string): StepRecord | undefined;
  /** Names a workflow run across processes: its spans share one trace wherever they run. */
  runKey(run: string): string;
  /** Takes the credentials out of a text (the runtime's redactor). */
  redact(text: string): string;
  /** The model the child answers with when no step names one (ANTHROPIC_MODEL), or null. */
  defaultModel: string | null;
  /** The language of the lines telemetry prints (an export that failed, a missing SDK). */
  locale: Locale;
  /** The environment the child sees, for the child's telemetry variables. */
  childEnv: Readonly<Record<string, string | undefined>>;
}

/** What the OpenTelemetry side offers (otel-sink.ts). */
export interface TelemetrySink {
  /** `at`: when the event happened, in epoch milliseconds. */
  handle(event: TelemetryEvent, at: number): void;
  /** Ends what is open and sends everything still buffered to the collector. */
  shutdown(): Promise<void>;
}
