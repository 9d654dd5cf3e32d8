/**
 * The root of a workflow run's trace. The process that starts the run's first step opens the run's span
 * with the ids derived from its key (run-ids.ts); a process that takes the run up later (after the pause,
 * `flower continue`, another machine) opens a `continued` span under that same root, so the whole run
 * reads as one trace however many processes drove it.
 */
import {
  ROOT_CONTEXT,
  SpanStatusCode,
  TraceFlags,
  trace,
  type Context,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import { FLOWER } from "./attributes.js";
import type { EventOf } from "./event-shapes.js";
import { runIds, type ForcedIdGenerator } from "./run-ids.js";

export class RunSpans {
  readonly #tracer: Tracer;
  readonly #ids: ForcedIdGenerator;
  readonly #key: (run: string) => string;
  readonly #open = new Map<string, { span: Span; context: Context }>();

  constructor(tracer: Tracer, ids: ForcedIdGenerator, key: (run: string) => string) {
    this.#tracer = tracer;
    this.#ids = ids;
    this.#key = key;
  }

  /** The run's context for its steps' spans; undefined when the run has no open span here. */
  contextOf(run: string): Context | undefined {
    return this.#open.get(run)?.context;
  }

  handle(event: EventOf<"workflow-step">, at: number): void {
    const fresh = event.phase === "start" && event.index === 0 && event.resumed !== true;
    if (event.phase === "start" || event.phase === "skip") this.#ensure(event.run, fresh, at);
    const open = this.#open.get(event.run);
    if (!open) return;
    if (event.phase === "skip") open.span.addEvent("step-skipped", { [FLOWER.stepName]: event.name }, at);
    if (event.phase === "paused") {
      open.span.addEvent("paused", { [FLOWER.stepName]: event.name }, at);
      this.#end(event.run, at, "paused");
    }
    if (event.phase === "done" && event.index === event.total - 1) this.#end(event.run, at, "done");
  }

  /** Ends every run span still open (the runtime closes). */
  endAll(at: number): void {
    for (const run of [...this.#open.keys()]) this.#end(run, at, "closed");
  }

  #ensure(run: string, fresh: boolean, at: number): void {
    if (this.#open.has(run)) return;
    const ids = runIds(this.#key(run));
    const attributes = { [FLOWER.run]: run, [FLOWER.continued]: !fresh };
    let span: Span;
    if (fresh) {
      span = this.#ids.withIds(ids, () =>
        this.#tracer.startSpan(`run ${run}`, { root: true, startTime: at, attributes }),
      );
    } else {
      const root = trace.setSpanContext(ROOT_CONTEXT, {
        traceId: ids.traceId,
        spanId: ids.rootSpanId,
        traceFlags: TraceFlags.SAMPLED,
        isRemote: true,
      });
      span = this.#tracer.startSpan(`run ${run} (continued)`, { startTime: at, attributes }, root);
    }
    this.#open.set(run, { span, context: trace.setSpan(ROOT_CONTEXT, span) });
  }

  #end(run: string, at: number, how: "done" | "paused" | "closed"): void {
    const open = this.#open.get(run);
    if (!open) return;
    open.span.setAttribute(FLOWER.status, how);
    if (how === "done") open.span.setStatus({ code: SpanStatusCode.OK });
    open.span.end(at);
    this.#open.delete(run);
  }
}
