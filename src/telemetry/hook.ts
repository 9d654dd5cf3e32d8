/**
 * Telemetry as one more listener on the event bus, created only when telemetry is on (the runtime
 * subscribes nothing otherwise, so the off path costs nothing per event). This file imports no
 * OpenTelemetry module: the SDK is loaded with import() here, on first use, so a user who never turns
 * telemetry on never loads it.
 *
 * Loading takes a moment, and the runtime's constructor cannot wait: events that arrive meanwhile are
 * queued with the time they happened and replayed, so spans start and end when the work did.
 */
import { claudeTelemetryEnv } from "./child-env.js";
import type { TelemetryEvent } from "./event-shapes.js";
import type { TelemetrySettings } from "./settings.js";
import type { TelemetryContext, TelemetrySink } from "./sink.js";
import { SDK_MISSING } from "./telemetry-text.js";

/** Sub-millisecond wall time: a fast turn must still have a width in the waterfall. */
const now = () => performance.timeOrigin + performance.now();

export class TelemetryHook {
  readonly settings: TelemetrySettings;
  readonly #context: TelemetryContext;
  #sink: TelemetrySink | null = null;
  /** Events waiting for the SDK to load; null once it failed to (they are dropped then). */
  #queue: Array<[TelemetryEvent, number]> | null = [];
  readonly #loading: Promise<void>;
  /** Where each step is now, for the child's resource attributes. */
  readonly #places = new Map<string, { run: string | null; generation: number }>();
  #flushed: Promise<void> | null = null;

  constructor(settings: TelemetrySettings, context: TelemetryContext) {
    this.settings = settings;
    this.#context = context;
    this.#loading = import("./otel-sink.js")
      .then(({ startOtelSink }) => startOtelSink(settings, context))
      .then(
        (sink) => {
          this.#sink = sink;
          for (const [event, at] of this.#queue ?? []) sink.handle(event, at);
          this.#queue = [];
        },
        (error: unknown) => {
          this.#queue = null;
          process.stderr.write(`${SDK_MISSING[context.locale](String(error))}\n`);
        },
      );
  }

  /** One event of the types telemetry reads (TELEMETRY_EVENT_TYPES: the caller filters). */
  handle(event: TelemetryEvent): void {
    this.#track(event);
    const at = now();
    if (this.#sink) this.#sink.handle(event, at);
    else this.#queue?.push([event, at]);
  }

  /** The variables that tie the step's `claude` child to its run, step and generation. */
  childEnv(step: string): Record<string, string> {
    const place = this.#places.get(step) ?? { run: null, generation: 1 };
    return claudeTelemetryEnv(this.settings, this.#context.childEnv, { step, ...place });
  }

  /** Waits until everything was sent (or given up on); later events are not exported. */
  flush(): Promise<void> {
    this.#flushed ??= this.#loading.then(() => this.#sink?.shutdown());
    return this.#flushed;
  }

  #track(event: TelemetryEvent): void {
    if (event.type === "workflow-step" && event.phase === "start")
      this.#places.set(event.step, { run: event.run, generation: 1 });
    const place = this.#places.get(event.step) ?? { run: null, generation: 1 };
    if (event.type === "step-start") place.generation = event.generation;
    if (event.type === "handoff" && event.phase === "done") place.generation = event.generation + 1;
    this.#places.set(event.step, place);
  }
}
