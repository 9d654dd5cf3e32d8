/**
 * The events telemetry reads: the runtime's own event types (src/events/, the layer telemetry sits in),
 * narrowed to the types listed here. Any other event is dropped before it costs anything.
 */
import type { FlowerEvent, ResponseUsage } from "../events/flower-events.js";

/** Tokens of one main-thread response, as the API reported them. */
export type TurnUsage = ResponseUsage;

/** The event types telemetry reads. */
const READ = [
  "workflow-step",
  "step-start",
  "step-end",
  "retry",
  "context",
  "agent",
  "tool-use",
  "tool-denied",
  "spill",
  "handoff",
  "handoff-request",
  "lease-wait",
  "lease-takeover",
  "guard-round",
  "goal-checks",
  "review",
  "document-frozen",
] as const;

export type TelemetryEventType = (typeof READ)[number];

export type TelemetryEvent = Extract<FlowerEvent, { type: TelemetryEventType }>;

/** The types telemetry reads, for a check at the bus: any other event is dropped before it costs anything. */
export const TELEMETRY_EVENT_TYPES: ReadonlySet<string> = new Set<string>(READ);

export type EventOf<T extends TelemetryEventType> = Extract<TelemetryEvent, { type: T }>;
