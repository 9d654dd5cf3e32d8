/**
 * Telemetry hooked onto the event bus (docs/telemetry.md): the events and the records are its source of
 * truth, so nothing in the step loop calls it. With telemetry off this returns null and nothing subscribes:
 * the bus, the hooks and the step loop run exactly as without it.
 */
import type { RunRecords } from "../records/run-records.js";
import type { SecretRedactor } from "../secret-redactor.js";
import { TELEMETRY_EVENT_TYPES, type TelemetryEvent } from "../telemetry/event-shapes.js";
import { TelemetryHook } from "../telemetry/hook.js";
import type { EventBus, FlowerEvent } from "./events.js";
import type { ResolvedRuntimeOptions } from "./options.js";

const isRead = (event: FlowerEvent): event is TelemetryEvent => TELEMETRY_EVENT_TYPES.has(event.type);

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
    locale: options.locale,
    childEnv: options.childEnv,
  });
  bus.on((event) => {
    if (isRead(event)) hook.handle(event);
  });
  return hook;
}
