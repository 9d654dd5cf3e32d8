/**
 * flower's metrics, from the same events as the trace: the main thread's context (a gauge per step),
 * tokens and cost (counters), handoffs and degraded handoffs, guard rounds and their outcome, spills,
 * denials and lease takeovers. Every series carries `flower.step` (and `flower.run` in a workflow), so a
 * dashboard can be cut by step.
 */
import type { Attributes, Counter, Gauge, Meter } from "@opentelemetry/api";
import { FLOWER, GEN_AI } from "./attributes.js";
import type { TelemetryEvent } from "./event-shapes.js";

export class FlowerMetrics {
  readonly #context: Gauge;
  readonly #tokens: Counter;
  readonly #cost: Counter;
  readonly #turns: Counter;
  readonly #handoffs: Counter;
  readonly #guardRounds: Counter;
  readonly #guardOutcomes: Counter;
  readonly #spills: Counter;
  readonly #spilledChars: Counter;
  readonly #denials: Counter;
  readonly #takeovers: Counter;
  /** The run of each step of a workflow (from its `workflow-step` event). */
  readonly #runs = new Map<string, string>();
  /** Guard rounds waiting for their checks' verdict, by step. */
  readonly #openRounds = new Map<string, number>();

  constructor(meter: Meter) {
    this.#context = meter.createGauge("flower.context.tokens", {
      description: "The main thread's context after its latest turn",
      unit: "{token}",
    });
    this.#tokens = meter.createCounter("flower.tokens", {
      description: "Tokens of the main thread's requests, by gen_ai.token.type",
      unit: "{token}",
    });
    this.#cost = meter.createCounter("flower.cost", { description: "What the steps cost", unit: "USD" });
    this.#turns = meter.createCounter("flower.turns", { description: "Main-thread turns", unit: "{turn}" });
    this.#handoffs = meter.createCounter("flower.handoffs", {
      description: "Handoffs to a new generation, by flower.handoff.degraded",
    });
    this.#guardRounds = meter.createCounter("flower.guard.rounds", {
      description: "Times the goal guard sent the coordinator back",
    });
    this.#guardOutcomes = meter.createCounter("flower.guard.outcomes", {
      description: "How guard rounds ended, by flower.guard.outcome (passed, failed)",
    });
    this.#spills = meter.createCounter("flower.spills", { description: "Tool outputs moved to disk" });
    this.#spilledChars = meter.createCounter("flower.spills.chars", { unit: "{char}" });
    this.#denials = meter.createCounter("flower.denials", {
      description: "Main-thread calls the delegate guard denied",
    });
    this.#takeovers = meter.createCounter("flower.lease.takeovers", {
      description: "Leases of a dead driver taken over",
    });
  }

  #of(step: string, extra: Attributes = {}): Attributes {
    const run = this.#runs.get(step);
    return { [FLOWER.step]: step, ...(run !== undefined ? { [FLOWER.run]: run } : {}), ...extra };
  }

  /** `spent`: new cost booked on the record since the step (re)started, for step-end. */
  record(event: TelemetryEvent, spent = 0): void {
    switch (event.type) {
      case "workflow-step":
        this.#runs.set(event.step, event.run);
        return;
      case "context": {
        this.#context.record(event.context, this.#of(event.step));
        this.#turns.add(1, this.#of(event.step));
        const usage = event.usage;
        if (!usage) return;
        const add = (count: number, type: string) =>
          count > 0 && this.#tokens.add(count, this.#of(event.step, { [GEN_AI.tokenType]: type }));
        add(usage.inputTokens, "input");
        add(usage.outputTokens, "output");
        add(usage.cacheReadTokens, "cache_read");
        add(usage.cacheWriteTokens, "cache_write");
        return;
      }
      case "handoff":
        if (event.phase === "done")
          this.#handoffs.add(1, this.#of(event.step, { [FLOWER.handoffDegraded]: event.degraded ?? false }));
        return;
      case "guard-round":
        this.#guardRounds.add(1, this.#of(event.step, { [FLOWER.guardCause]: event.cause }));
        this.#openRounds.set(event.step, event.round);
        return;
      case "goal-checks":
        if (this.#openRounds.get(event.step) !== event.round) return;
        this.#openRounds.delete(event.step);
        this.#guardOutcomes.add(
          1,
          this.#of(event.step, { [FLOWER.guardOutcome]: event.passed === event.total ? "passed" : "failed" }),
        );
        return;
      case "spill":
        this.#spills.add(1, this.#of(event.step));
        this.#spilledChars.add(event.chars, this.#of(event.step));
        return;
      case "tool-denied":
        this.#denials.add(1, this.#of(event.step, { [FLOWER.tool]: event.tool }));
        return;
      case "lease-takeover":
        this.#takeovers.add(1, this.#of(event.step));
        return;
      case "step-end":
        if (spent > 0) this.#cost.add(spent, this.#of(event.step));
        this.#openRounds.delete(event.step);
        return;
      default:
        return;
    }
  }
}
