/**
 * The events telemetry reads, as shapes of its own. The runtime's event union (runtime/events.ts) sits a
 * layer above this folder, so it cannot be imported here; the runtime checks at compile time that every
 * one of its events of these types fits the shape declared here (runtime/telemetry-wiring.ts), so the two
 * cannot drift apart unnoticed.
 */

/** Tokens of one main-thread response, as the API reported them. */
export interface TurnUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** The model that answered (the response's `model`), when it said. */
  model?: string | undefined;
}

export interface Holder {
  pid: number;
  host: string;
}

export type TelemetryEvent =
  | {
      type: "workflow-step";
      run: string;
      step: string;
      name: string;
      index: number;
      total: number;
      phase: "start" | "skip" | "done" | "paused";
      resumed?: boolean | undefined;
    }
  | { type: "step-start"; step: string; attempt: number; generation: number; resume?: string | undefined }
  | {
      type: "step-end";
      step: string;
      status: "done" | "failed" | "stopped" | "goal-not-met";
      costUsd: number;
      numTurns: number;
      turns: number;
      generations: number;
      errors: string[];
    }
  | { type: "retry"; step: string; attempt: number; maxAttempts: number; reason: string }
  | {
      type: "context";
      step: string;
      context: number;
      window: number | null;
      generation: number;
      usage?: TurnUsage | undefined;
    }
  | { type: "agent"; step: string; phase: "start" | "end"; agent: string; description?: string | undefined }
  | { type: "tool-use"; step: string; agent: string; tool: string; summary: string }
  | { type: "tool-denied"; step: string; tool: string; command?: string | undefined; reason: string }
  | { type: "spill"; step: string; tool: string; path: string; chars: number }
  | {
      type: "handoff";
      step: string;
      phase: "near" | "writing" | "done";
      generation: number;
      context: number;
      window: number;
      degraded?: boolean | undefined;
      why?: string | undefined;
      path?: string | null | undefined;
      cutCalls?: number | undefined;
    }
  | { type: "handoff-request"; step: string; by: string; next: string | null }
  | { type: "lease-wait"; step: string; holder: Holder }
  | { type: "lease-takeover"; step: string; holder: Holder }
  | {
      type: "guard-round";
      step: string;
      round: number;
      rounds: number;
      failing: number;
      total: number;
      cause: "checks" | "review";
      notMet: number;
    }
  | {
      type: "goal-checks";
      step: string;
      round: number;
      passed: number;
      total: number;
      results: Array<{ command: string; passed: boolean; exitCode: number | null; durationMs: number }>;
    }
  | { type: "review"; step: string; round: number; outcome: "met" | "not-met" | "degraded" }
  | { type: "document-frozen"; step: string; kind: string; path: string; degraded: boolean };

export type TelemetryEventType = TelemetryEvent["type"];

/** The types telemetry reads: any other event is dropped before it costs anything. */
export const TELEMETRY_EVENT_TYPES: ReadonlySet<string> = new Set<TelemetryEventType>([
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
]);

export type EventOf<T extends TelemetryEventType> = Extract<TelemetryEvent, { type: T }>;
