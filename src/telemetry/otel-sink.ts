/**
 * The OpenTelemetry side, loaded by hook.ts only when telemetry is on: the SDK's tracer and meter
 * providers with OTLP/HTTP exporters (JSON, which every OTLP/HTTP collector accepts), and the events
 * turned into spans (run-spans.ts, step-trace.ts) and metrics (metrics.ts).
 *
 * The providers are this runtime's own, never registered globally: an application that has its own
 * OpenTelemetry setup keeps it, and two runtimes in one process (the demo's) do not fight over it.
 *
 * Each exporter is watched (export-watch.ts): the first export that fails in the process is said on
 * stderr, once.
 */
import { ROOT_CONTEXT, type Attributes, type Tracer } from "@opentelemetry/api";
import { FLOWER } from "./attributes.js";
import type { EventOf, TelemetryEvent } from "./event-shapes.js";
import { describeExportError, sayOnce, watchedAgent, watchResults } from "./export-watch.js";
import type { TelemetryContext, TelemetrySink } from "./sink.js";
import { FlowerMetrics } from "./metrics.js";
import { ForcedIdGenerator } from "./run-ids.js";
import { RunSpans } from "./run-spans.js";
import type { TelemetrySettings } from "./settings.js";
import { StepTrace } from "./step-trace.js";
import { EXPORT_FAILED } from "./telemetry-text.js";

/** What the step-level span events carry (events with no span of their own). */
function noteOf(event: TelemetryEvent, content: boolean): [string, Attributes] | null {
  switch (event.type) {
    case "retry":
      return ["retry", { [FLOWER.attempt]: event.attempt, "flower.retry.reason": event.reason }];
    case "lease-wait":
    case "lease-takeover":
      return [event.type, { "flower.lease.holder": `${event.holder.pid}@${event.holder.host}` }];
    case "handoff-request":
      return [
        "handoff-request",
        { "flower.handoff.by": event.by, ...(content && event.next ? { [FLOWER.content]: event.next } : {}) },
      ];
    case "review":
      return ["review", { [FLOWER.guardRound]: event.round, "flower.review.outcome": event.outcome }];
    case "document-frozen":
      return [
        "document-frozen",
        {
          "flower.document.kind": event.kind,
          "flower.document.path": event.path,
          "flower.document.degraded": event.degraded,
        },
      ];
    default:
      return null;
  }
}

class OtelSink implements TelemetrySink {
  readonly #settings: TelemetrySettings;
  readonly #context: TelemetryContext;
  readonly #tracer: Tracer | null;
  readonly #runs: RunSpans | null;
  readonly #metrics: FlowerMetrics | null;
  readonly #shutdown: () => Promise<void>;
  readonly #steps = new Map<string, StepTrace>();
  /** Each step's run and workflow name (from its `workflow-step` event). */
  readonly #members = new Map<string, { run: string; name: string }>();
  /** What each step had cost when it (re)started: the metric counts only what is new. */
  readonly #costAtStart = new Map<string, number>();
  /** Step-level events that came before the step's span (a lease wait): attached when it starts. */
  readonly #early = new Map<string, Array<[string, Attributes, number]>>();

  constructor(
    settings: TelemetrySettings,
    context: TelemetryContext,
    parts: {
      tracer: Tracer | null;
      ids: ForcedIdGenerator;
      metrics: FlowerMetrics | null;
      shutdown: () => Promise<void>;
    },
  ) {
    this.#settings = settings;
    this.#context = context;
    this.#tracer = parts.tracer;
    this.#runs = parts.tracer ? new RunSpans(parts.tracer, parts.ids, (run) => context.runKey(run)) : null;
    this.#metrics = parts.metrics;
    this.#shutdown = parts.shutdown;
  }

  handle(event: TelemetryEvent, at: number): void {
    if (event.type === "workflow-step") this.#members.set(event.step, { run: event.run, name: event.name });
    if (event.type === "step-start")
      this.#costAtStart.set(event.step, this.#context.recordOf(event.step)?.costUsd ?? 0);
    const spent = event.type === "step-end" ? event.costUsd - (this.#costAtStart.get(event.step) ?? 0) : 0;
    this.#metrics?.record(event, spent);
    if (!this.#tracer) return;
    const note = noteOf(event, this.#settings.content);
    const step = this.#steps.get(event.step);
    if (event.type === "workflow-step") this.#runs!.handle(event, at);
    else if (event.type === "step-start") this.#startStep(event, at);
    else if (event.type === "step-end") {
      step?.end(event, at);
      this.#steps.delete(event.step);
    } else if (note && step) step.note(note[0], note[1], at);
    else if (note) this.#early.set(event.step, [...(this.#early.get(event.step) ?? []), [...note, at]]);
    else step?.handle(event, at);
  }

  #startStep(event: EventOf<"step-start">, at: number): void {
    const member = this.#members.get(event.step);
    const parent = (member && this.#runs!.contextOf(member.run)) ?? ROOT_CONTEXT;
    const record = this.#context.recordOf(event.step);
    const content = this.#settings.content;
    const trace = new StepTrace(this.#tracer!, parent, event, at, {
      run: member?.run ?? null,
      name: member?.name ?? null,
      model: record?.settings?.model ?? this.#context.defaultModel,
      prompt: content && record ? this.#context.redact(record.prompt) : null,
      content,
      generationCost: (generation) =>
        this.#context.recordOf(event.step)?.history.find((g) => g.generation === generation)?.costUsd ?? 0,
    });
    for (const [name, attributes, when] of this.#early.get(event.step) ?? [])
      trace.note(name, attributes, when);
    this.#early.delete(event.step);
    this.#steps.set(event.step, trace);
  }

  async shutdown(): Promise<void> {
    const at = performance.timeOrigin + performance.now();
    // A step still open (the process is closing under it) ends as interrupted, with no verdict.
    for (const [step, trace] of this.#steps)
      trace.end(
        {
          type: "step-end",
          step,
          ok: false,
          status: "stopped",
          sessionId: null,
          costUsd: 0,
          numTurns: 0,
          turns: 0,
          generations: 0,
          errors: [],
        },
        at,
      );
    this.#steps.clear();
    this.#runs?.endAll(at);
    await this.#shutdown();
  }
}

/** Builds the providers and exporters the settings ask for; the SDK packages are loaded here. */
export async function startOtelSink(
  settings: TelemetrySettings,
  context: TelemetryContext,
): Promise<TelemetrySink> {
  const { resourceFromAttributes } = await import("@opentelemetry/resources");
  const resource = resourceFromAttributes({ "service.name": settings.serviceName });
  const ids = new ForcedIdGenerator();
  const closers: Array<{ url: string; close: () => Promise<void> }> = [];
  /** Says, once in the process, that an export to `url` failed (the line is redacted: a URL may hold a key). */
  const failed = (url: string) => (error: unknown) =>
    sayOnce(() => context.redact(EXPORT_FAILED[context.locale](url, describeExportError(error))));
  const exporterOptions = (url: string) => ({
    url,
    headers: settings.headers,
    httpAgentOptions: watchedAgent(failed(url)),
  });
  let tracer: Tracer | null = null;
  if (settings.traces) {
    const { TracerProvider, BatchSpanProcessor } = await import("@opentelemetry/sdk-trace");
    const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
    const exporter = new OTLPTraceExporter(exporterOptions(settings.tracesUrl));
    watchResults(exporter, failed(settings.tracesUrl));
    const provider = new TracerProvider({
      resource,
      idGenerator: ids,
      spanProcessors: [new BatchSpanProcessor({ exporter })],
    });
    tracer = provider.getTracer("flower-agent");
    closers.push({ url: settings.tracesUrl, close: () => provider.shutdown() });
  }
  let metrics: FlowerMetrics | null = null;
  if (settings.metrics) {
    const { MeterProvider, PeriodicExportingMetricReader } = await import("@opentelemetry/sdk-metrics");
    const { OTLPMetricExporter } = await import("@opentelemetry/exporter-metrics-otlp-http");
    const exporter = new OTLPMetricExporter(exporterOptions(settings.metricsUrl));
    watchResults(exporter, failed(settings.metricsUrl));
    const provider = new MeterProvider({
      resource,
      readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 })],
    });
    metrics = new FlowerMetrics(provider.getMeter("flower-agent"));
    closers.push({ url: settings.metricsUrl, close: () => provider.shutdown() });
  }
  const shutdown = async () => {
    await Promise.all(closers.map(({ url, close }) => close().catch(failed(url))));
  };
  return new OtelSink(settings, context, { tracer, ids, metrics, shutdown });
}
