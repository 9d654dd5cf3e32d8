/**
 * The goal guard's spans: each guard round from the moment the coordinator is sent back until
 * flower's checks judged it, and each check flower ran. A check's span is placed from its duration,
 * ending one after the other at the `goal-checks` event (they run in order, and only their durations are
 * reported).
 */
import { trace, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { FLOWER } from "./attributes.js";
import type { EventOf } from "./event-shapes.js";

export type GuardOutcome = "passed" | "failed" | "stopped" | "goal-not-met";

export class GuardSpans {
  readonly #tracer: Tracer;
  #round: { span: Span; context: Context; number: number } | null = null;

  constructor(tracer: Tracer) {
    this.#tracer = tracer;
  }

  /** The open round's context (the turns it makes are its children); null outside a round. */
  get context(): Context | null {
    return this.#round?.context ?? null;
  }

  round(event: EventOf<"guard-round">, parent: Context, at: number): void {
    this.end("failed", at);
    const span = this.#tracer.startSpan(
      `guard round ${event.round}`,
      {
        startTime: at,
        attributes: {
          [FLOWER.guardRound]: event.round,
          [FLOWER.guardRounds]: event.rounds,
          [FLOWER.guardCause]: event.cause,
          [FLOWER.goalFailing]: event.failing,
          [FLOWER.goalTotal]: event.total,
        },
      },
      parent,
    );
    this.#round = { span, context: trace.setSpan(parent, span), number: event.round };
  }

  /** flower ran the checks: one span each; the open round ends with their verdict. */
  checks(event: EventOf<"goal-checks">, parent: Context, at: number): void {
    const under = this.#round?.context ?? parent;
    let start = at - event.results.reduce((sum, result) => sum + result.durationMs, 0);
    for (const [index, result] of event.results.entries()) {
      const span = this.#tracer.startSpan(
        `goal check ${index + 1}`,
        {
          startTime: start,
          attributes: {
            [FLOWER.goalCheck]: result.command,
            [FLOWER.goalCheckPassed]: result.passed,
            ...(result.exitCode !== null ? { [FLOWER.goalCheckExit]: result.exitCode } : {}),
            [FLOWER.guardRound]: event.round,
          },
        },
        under,
      );
      start += result.durationMs;
      span.end(start);
    }
    if (this.#round && this.#round.number === event.round)
      this.end(event.passed === event.total ? "passed" : "failed", at);
  }

  /** Ends the open round (if any) with its outcome. */
  end(outcome: GuardOutcome, at: number): void {
    const round = this.#round;
    if (!round) return;
    round.span.setAttribute(FLOWER.guardOutcome, outcome);
    round.span.end(at);
    this.#round = null;
  }
}
