/**
 * The runtime's event bus. The events themselves are declared a layer below (src/events/), so that
 * telemetry, which sits in that layer too, reads the same types; they are re-exported here, and this
 * module stays the one place above that layer to import an event from.
 */
import type { FlowerEvent } from "../events/flower-events.js";

export type * from "../events/flower-events.js";

export type EventListener = (event: FlowerEvent) => void;

/** A tiny synchronous bus. A listener that throws is reported on stderr and never breaks the run. */
export class EventBus {
  readonly #listeners = new Set<EventListener>();
  /** Applied to every event before a listener sees it (the runtime redacts credentials here). */
  readonly #prepare: (event: FlowerEvent) => FlowerEvent;

  constructor(prepare: (event: FlowerEvent) => FlowerEvent = (event) => event) {
    this.#prepare = prepare;
  }

  on(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(raw: FlowerEvent): void {
    if (this.#listeners.size === 0) return;
    const event = this.#prepare(raw);
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        process.stderr.write(`flower: an onEvent listener threw on "${event.type}": ${String(error)}\n`);
      }
    }
  }
}
