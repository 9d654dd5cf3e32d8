/**
 * Telemetry hooked onto the event bus (issue 27): the events and the records are its source of truth, so
 * nothing in the step loop calls it. With telemetry off this returns null and nothing subscribes: the
 * bus, the hooks and the step loop run exactly as without it.
 */
import type { RunRecords } from "../records/run-records.js";
import type { SecretRedactor } from "../store/secret-redactor.js";
import { TELEMETRY_EVENT_TYPES, type TelemetryEvent } from "../telemetry/event-shapes.js";
import { TelemetryHook } from "../telemetry/hook.js";
import type { EventBus, FlowerEvent } from "./events.js";
import type { ResolvedRuntimeOptions } from "./options.js";

/** The runtime's events of the types telemetry reads. */
type Read = Extract<FlowerEvent, { type: TelemetryEvent["type"] }>;

/**
 * Compile-time guard: telemetry declares the events it reads as shapes of its own (it sits below the
 * runtime); every runtime event of those types must fit them, or this stops compiling.
 */
const fits = (event: Read): TelemetryEvent => event;

const isRead = (event: FlowerEvent): event is Read => TELEMETRY_EVENT_TYPES.has(event.type);

export function startTelemetry(
  options: ResolvedRuntimeOptions,
  records: RunRecords,
  redactor: SecretRedactor,
  bus: EventBus,
): TelemetryHook | null {
  const settings = options.telemetry;
  if (settings === null) return null;
  const store = options.store;
  // Where the run's records live names the run: on a shared store, every machine agrees on it.
  const home = store.kind === "postgres" ? `${store.shown}#${store.schema}` : options.runDir;
  const hook = new TelemetryHook(settings, {
    recordOf: (step) => records.get(step),
    runKey: (run) => `${home}\0${run}`,
    redact: (text) => redactor.text(text),
    defaultModel: options.model ?? options.childEnv.ANTHROPIC_MODEL ?? null,
    childEnv: options.childEnv,
  });
  bus.on((event) => {
    if (isRead(event)) hook.handle(fits(event));
  });
  return hook;
}
