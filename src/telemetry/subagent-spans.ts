/**
 * Subagents the coordinator sent (the Agent tool), each a span under the turn that sent it. The stream
 * names a subagent by its type only, so parallel subagents of one type are told apart by order: the
 * first started is taken to be the first done (the span's length may be off for one of two such
 * subagents; which turn sent them never is). The span is named `worker <type>`, as it was before the code
 * said subagent: dashboards and docs/telemetry.md read that name.
 */
import type { Context, Span, Tracer } from "@opentelemetry/api";
import { FLOWER, GEN_AI } from "./attributes.js";

export class SubagentSpans {
  readonly #tracer: Tracer;
  readonly #running = new Map<string, Span[]>();

  constructor(tracer: Tracer) {
    this.#tracer = tracer;
  }

  /** `description`: the coordinator's words for the task (only with content on). */
  start(agent: string, description: string | null, turn: Context, at: number): void {
    const span = this.#tracer.startSpan(
      `worker ${agent}`,
      {
        startTime: at,
        attributes: {
          [FLOWER.agent]: agent,
          [GEN_AI.agentName]: agent,
          [GEN_AI.operation]: "invoke_agent",
          ...(description !== null ? { [FLOWER.content]: description } : {}),
        },
      },
      turn,
    );
    this.#running.set(agent, [...(this.#running.get(agent) ?? []), span]);
  }

  end(agent: string, at: number): void {
    this.#running.get(agent)?.shift()?.end(at);
  }

  endAll(at: number): void {
    for (const spans of this.#running.values()) for (const span of spans) span.end(at);
    this.#running.clear();
  }
}
