/**
 * One step's spans, from its events: the step, its generations, each main-thread turn, the handoff
 * between two generations, each guard round and check, and the subagents a turn sent.
 *
 * Turns are known when they end (the `context` event of a response), so a turn's span is started at the
 * end of the one before it, and only when something needs it: its own end, a subagent it sends, a spill or
 * denial in it. A turn the handoff cut (no `context` event) is ended where the generation ends.
 *
 * The model: the one the step asked for (`--model`, ANTHROPIC_MODEL) when it named one; otherwise the
 * one each response named (its `message_start`), which is what the binary asked for on its own. Every
 * request names its model, so a trace without `--model` still says which one worked.
 */
import {
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import {
  addUsage,
  FLOWER,
  GEN_AI,
  noUsage,
  SYSTEM,
  usageAttributes,
  type UsageTotals,
} from "./attributes.js";
import type { EventOf, TelemetryEvent } from "./event-shapes.js";
import { GuardSpans } from "./guard-spans.js";
import { SubagentSpans } from "./subagent-spans.js";

export interface StepInfo {
  run: string | null;
  /** The step's name in the workflow, when it is part of one. */
  name: string | null;
  model: string | null;
  /** The step's task, redacted; only with content on. */
  prompt: string | null;
  content: boolean;
  /** The generation's cost as the record books it (the record is where cost is booked). */
  generationCost(generation: number): number;
}

interface Open {
  span: Span;
  context: Context;
}

interface Generation extends Open {
  number: number;
  turns: number;
  usage: UsageTotals;
  /** The model its latest answered turn named. */
  answered: string | null;
  /** Where the next turn starts: the end of the last one, or the generation's start. */
  lastEnd: number;
}

export class StepTrace {
  readonly #tracer: Tracer;
  readonly #info: StepInfo;
  readonly #step: Open;
  #generation: Generation | null = null;
  #turn: Open | null = null;
  #handoff: Span | null = null;
  /**
   * The generation the handoff burned, ended at the writing's start but sent only when the handoff is
   * done: the record books the generation's cost (its writing turn's included) only then.
   */
  #burned: { generation: Generation; at: number } | null = null;
  readonly #guard: GuardSpans;
  readonly #subagents: SubagentSpans;
  /** The generation the open guard round began in. */
  #guardGeneration: number | null = null;
  readonly #usage = noUsage();
  /** The model the latest response named, this step's and this generation's (null: none said yet). */
  #answered: string | null = null;

  constructor(tracer: Tracer, parent: Context, start: EventOf<"step-start">, at: number, info: StepInfo) {
    this.#tracer = tracer;
    this.#info = info;
    const span = tracer.startSpan(
      `step ${info.name ?? start.step}`,
      {
        startTime: at,
        attributes: {
          [FLOWER.step]: start.step,
          [FLOWER.attempt]: start.attempt,
          [GEN_AI.system]: SYSTEM,
          ...(info.run !== null ? { [FLOWER.run]: info.run } : {}),
          ...(info.name !== null ? { [FLOWER.stepName]: info.name } : {}),
          ...(info.model !== null ? { [GEN_AI.requestModel]: info.model } : {}),
          ...(info.prompt !== null ? { [FLOWER.prompt]: info.prompt } : {}),
        },
      },
      parent,
    );
    this.#step = { span, context: trace.setSpan(parent, span) };
    this.#guard = new GuardSpans(tracer);
    this.#subagents = new SubagentSpans(tracer);
    this.#startGeneration(start.generation, at);
  }

  /** A span event on the step (retries, lease waits, requests, documents). */
  note(name: string, attributes: Attributes, at: number): void {
    this.#step.span.addEvent(name, attributes, at);
  }

  handle(event: TelemetryEvent, at: number): void {
    switch (event.type) {
      case "context":
        return this.#turnEnded(event, at);
      case "agent":
        if (event.agent === "coordinator") return;
        if (event.phase === "end") return this.#subagents.end(event.agent, at);
        return this.#subagents.start(
          event.agent,
          this.#info.content && event.description ? event.description : null,
          this.#openTurn(at).context,
          at,
        );
      case "tool-use":
        if (event.agent !== "coordinator") return;
        this.#openTurn(at).span.addEvent(
          "tool-use",
          { [FLOWER.tool]: event.tool, ...(this.#info.content ? { [FLOWER.content]: event.summary } : {}) },
          at,
        );
        return;
      case "spill":
        this.#openTurn(at).span.addEvent(
          "spill",
          { [FLOWER.tool]: event.tool, "flower.spill.chars": event.chars, "flower.spill.path": event.path },
          at,
        );
        return;
      case "tool-denied":
        this.#openTurn(at).span.addEvent(
          "tool-denied",
          {
            [FLOWER.tool]: event.tool,
            "flower.denial.reason": event.reason,
            ...(this.#info.content && event.command ? { [FLOWER.content]: event.command } : {}),
          },
          at,
        );
        return;
      case "handoff":
        return this.#handoffEvent(event, at);
      case "guard-round":
        this.#closeTurn(at);
        // The round's first turn starts when flower sends the evidence, not when the checks began.
        if (this.#generation) this.#generation.lastEnd = at;
        this.#guardGeneration = this.#generation?.number ?? null;
        return this.#guard.round(event, this.#generationContext(), at);
      case "goal-checks":
        return this.#guard.checks(event, this.#generationContext(), at);
      default:
        return;
    }
  }

  /** The step ended: everything still open ends with it, the step's status says how it went. */
  end(event: EventOf<"step-end">, at: number): void {
    this.#subagents.endAll(at);
    // A budget stop is a stop to the guard: its rounds were cut short, not judged.
    this.#guard.end(
      event.status === "done" ? "passed" : event.status === "budget-reached" ? "stopped" : event.status,
      at,
    );
    this.#handoff?.end(at);
    this.#handoff = null;
    this.#endBurned();
    this.#retireGeneration(at);
    this.#endBurned();
    const span = this.#step.span;
    span.setAttributes({
      [FLOWER.status]: event.status,
      [FLOWER.costUsd]: event.costUsd,
      [FLOWER.turns]: event.turns,
      [FLOWER.generations]: event.generations,
      ...usageAttributes(this.#usage),
      ...this.#modelAttributes(this.#answered),
    });
    if (event.status === "done") span.setStatus({ code: SpanStatusCode.OK });
    // The words the CLI prints under the step's end line: its last error, or the status it shows.
    if (event.status === "failed")
      span.setStatus({ code: SpanStatusCode.ERROR, message: event.errors.at(-1) ?? "failed" });
    if (event.status === "goal-not-met")
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: event.errors.length > 0 ? `goal not met: ${event.errors.at(-1)}` : "goal not met",
      });
    span.end(at);
  }

  #generationContext(): Context {
    return this.#generation?.context ?? this.#step.context;
  }

  #startGeneration(number: number, at: number): void {
    const span = this.#tracer.startSpan(
      `generation ${number}`,
      { startTime: at, attributes: { [FLOWER.generation]: number, [GEN_AI.system]: SYSTEM } },
      this.#step.context,
    );
    this.#generation = {
      span,
      context: trace.setSpan(this.#step.context, span),
      number,
      turns: 0,
      usage: noUsage(),
      answered: null,
      lastEnd: at,
    };
  }

  /** The generation's work ends at `at`; its span goes out once its cost is booked (#endBurned). */
  #retireGeneration(at: number): void {
    if (!this.#generation) return;
    this.#closeTurn(at);
    this.#subagents.endAll(at);
    this.#burned = { generation: this.#generation, at };
    this.#generation = null;
  }

  #endBurned(): void {
    if (!this.#burned) return;
    const { generation, at } = this.#burned;
    generation.span.setAttributes({
      [FLOWER.turns]: generation.turns,
      [FLOWER.costUsd]: this.#info.generationCost(generation.number),
      ...usageAttributes(generation.usage),
      ...this.#modelAttributes(generation.answered),
    });
    generation.span.end(at);
    this.#burned = null;
  }

  /** The turn under way, started where the last one ended; a guard round, when one runs, is its parent. */
  #openTurn(at: number): Open {
    if (this.#turn) return this.#turn;
    const generation = this.#generation;
    // A round that outlived a handoff stays under the generation it began in; the successor's turns do not.
    const round = this.#guardGeneration === generation?.number ? this.#guard.context : null;
    const parent = round ?? this.#generationContext();
    const number = (generation?.turns ?? 0) + 1;
    const span = this.#tracer.startSpan(
      `turn ${number}`,
      {
        startTime: Math.min(generation?.lastEnd ?? at, at),
        attributes: {
          [FLOWER.turn]: number,
          [GEN_AI.system]: SYSTEM,
          [GEN_AI.operation]: "chat",
          ...(generation ? { [FLOWER.generation]: generation.number } : {}),
          // Known before the answer when the step named it or an earlier response did (the same session
          // asks the same model); a turn that never answers keeps this.
          ...this.#modelAttributes(null),
        },
      },
      parent,
    );
    this.#turn = { span, context: trace.setSpan(parent, span) };
    return this.#turn;
  }

  /** A turn that never answered (cut by the handoff or a stop) ends where its generation does. */
  #closeTurn(at: number): void {
    if (!this.#turn) return;
    this.#turn.span.setAttribute("flower.turn.unanswered", true);
    this.#turn.span.end(at);
    this.#turn = null;
  }

  #turnEnded(event: EventOf<"context">, at: number): void {
    const turn = this.#openTurn(at);
    const usage = event.usage;
    if (usage?.model) this.#answered = usage.model;
    turn.span.setAttributes({
      [FLOWER.contextTokens]: event.context,
      ...(event.window !== null ? { [FLOWER.contextWindow]: event.window } : {}),
      ...(usage ? usageAttributes(usage) : {}),
      ...this.#modelAttributes(usage?.model ?? null),
    });
    turn.span.end(at);
    this.#turn = null;
    const generation = this.#generation;
    if (!generation) return;
    generation.turns += 1;
    generation.lastEnd = at;
    generation.span.setAttribute(FLOWER.contextTokens, event.context);
    if (usage) {
      addUsage(generation.usage, usage);
      addUsage(this.#usage, usage);
    }
    if (usage?.model) generation.answered = usage.model;
  }

  /**
   * `gen_ai.request.model`: the model the step asked for, else the one the responses named (what the
   * binary asked for on its own); `gen_ai.response.model`: the one that answered, when `answered` is known.
   */
  #modelAttributes(answered: string | null): Record<string, string> {
    const requested = this.#info.model ?? this.#answered;
    return {
      ...(requested !== null ? { [GEN_AI.requestModel]: requested } : {}),
      ...(answered !== null ? { [GEN_AI.responseModel]: answered } : {}),
    };
  }

  #handoffEvent(event: EventOf<"handoff">, at: number): void {
    if (event.phase === "near") {
      this.#generation?.span.addEvent(
        "handoff-near",
        { [FLOWER.contextTokens]: event.context, [FLOWER.contextWindow]: event.window },
        at,
      );
      return;
    }
    if (event.phase === "writing") {
      this.#retireGeneration(at);
      this.#handoff = this.#tracer.startSpan(
        `handoff ${event.generation}→${event.generation + 1}`,
        {
          startTime: at,
          attributes: {
            [FLOWER.generation]: event.generation,
            [FLOWER.contextTokens]: event.context,
            [FLOWER.contextWindow]: event.window,
          },
        },
        this.#step.context,
      );
      return;
    }
    // done: a handoff without a writing turn (nothing to write with) still sits between the generations.
    if (!this.#handoff) this.#handoffEvent({ ...event, phase: "writing" }, at);
    this.#handoff!.setAttributes({
      [FLOWER.handoffDegraded]: event.degraded ?? false,
      ...(event.why ? { [FLOWER.handoffWhy]: event.why } : {}),
      ...(event.path ? { [FLOWER.handoffPath]: event.path } : {}),
      ...(event.cutCalls !== undefined ? { [FLOWER.cutCalls]: event.cutCalls } : {}),
    });
    this.#handoff!.end(at);
    this.#handoff = null;
    this.#endBurned();
    this.#startGeneration(event.generation + 1, at);
  }
}
