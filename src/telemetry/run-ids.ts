/**
 * One trace per workflow run, even when its steps run in different processes (the pause, `flower
 * continue`, another machine on a shared store). The trace id and the run's root span id are derived
 * from the run's key (its run directory and id), so every process that drives a step of the run puts its
 * spans under the same root without talking to the others.
 *
 * The SDK draws ids from an IdGenerator; this one hands out the derived ids when told to, for the one
 * span being started, and random ids otherwise.
 */
import { createHash, randomBytes } from "node:crypto";

export interface RunIds {
  traceId: string;
  rootSpanId: string;
}

export function runIds(key: string): RunIds {
  const digest = createHash("sha256").update(`flower-run\0${key}`).digest("hex");
  return { traceId: digest.slice(0, 32), rootSpanId: digest.slice(32, 48) };
}

export class ForcedIdGenerator {
  #next: RunIds | null = null;

  /** Runs `start` with the next trace and span id set to `ids` (for the run's root span). */
  withIds<T>(ids: RunIds, start: () => T): T {
    this.#next = ids;
    try {
      return start();
    } finally {
      this.#next = null;
    }
  }

  generateTraceId(): string {
    return this.#next?.traceId ?? randomBytes(16).toString("hex");
  }

  generateSpanId(): string {
    return this.#next?.rootSpanId ?? randomBytes(8).toString("hex");
  }
}
