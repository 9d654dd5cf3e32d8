/**
 * The fleet as a stream of events, for a team's own service or a page:
 * - a Worker's `events`: what that worker does (a run taken, paused, finished, given back, lost) and
 *   every runtime event of the runs it drives, as they happen;
 * - `watchFleet(store)`: the whole fleet's status changes, whichever machine made them, read from the
 *   store every `intervalMs` (polling: it works through any proxy in front of PostgreSQL, where
 *   LISTEN/NOTIFY does not survive transaction pooling, and a second's delay is nothing next to a turn).
 */
import type { FleetHolder, FleetStatus } from "../records/fleet-run.js";
import type { FlowerEvent } from "../runtime/events.js";
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import { isOpened, listFleetRuns, type FleetRunView, type FleetStoreOption } from "./fleet-runs.js";
import { openFleetStore } from "../storage/fleet-store.js";

export type FleetEvent =
  | {
      type: "run-status";
      run: string;
      /** `lost`: the run was taken from this worker (presumed dead); its new holder goes on. */
      status: FleetStatus | "lost";
      why?: "released" | "worker-gone";
      /** The gone worker, for `worker-gone`. */
      by?: FleetHolder;
      pid?: number;
      host?: string;
      error?: string;
    }
  | { type: "run-event"; run: string; event: FlowerEvent }
  /**
   * The run's own working tree on this worker (made now, or found again); `restored`: the files a new
   * tree took from the run's checkpoints in the store (it went on from another worker).
   */
  | {
      type: "run-workspace";
      run: string;
      path: string;
      created: boolean;
      commit: string | null;
      restored: string[];
      /** Files that looked like secrets where it was submitted: not carried (a new tree). */
      leftOut: string[];
    }
  /** A line the repository's setup command printed in a new working tree. */
  | { type: "run-setup"; run: string; line: string }
  | { type: "worker-error"; message: string }
  /** The fleet's budget for the UTC day is spent: no run is started until the next day (said once a day). */
  | { type: "day-budget-spent"; day: string; spentUsd: number; budgetUsd: number }
  /** A notifier of the run (the worker's `notify` or the run's own) failed; said once per run. */
  | { type: "notify-failed"; run: string; message: string };

/** A tiny synchronous emitter; a listener that throws never breaks the worker. */
export class FleetEvents {
  readonly #listeners = new Set<(event: FleetEvent) => void>();

  /** Subscribe; returns the unsubscribe function. */
  on(listener: (event: FleetEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: FleetEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        process.stderr.write(`flower: a fleet event listener failed: ${String(error)}\n`);
      }
    }
  }
}

export interface FleetChange {
  run: string;
  /** null: the run was not seen before (the first read reports every run). */
  previous: FleetStatus | null;
  status: FleetStatus;
  view: FleetRunView;
}

export interface WatchFleetOptions {
  /** @default 1000 */
  intervalMs?: number;
  /** Ends the stream. */
  signal?: AbortSignal;
}

/** Every status change of the fleet's runs (and each run once at the start), until `signal` aborts. */
export async function* watchFleet(
  store: FleetStoreOption,
  options: WatchFleetOptions = {},
): AsyncGenerator<FleetChange, void, undefined> {
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError("options", options, "an object { intervalMs?, signal? }");
  refuseUnknownOptions(options, { intervalMs: true, signal: true } satisfies Record<
    keyof WatchFleetOptions,
    true
  >);
  const intervalMs = options.intervalMs ?? 1_000;
  if (!(typeof intervalMs === "number" && intervalMs >= 50))
    throw new ConfigurationError("intervalMs", intervalMs, "a number >= 50");
  const fleet = isOpened(store) ? store : openFleetStore(store);
  const seen = new Map<string, string>();
  try {
    while (options.signal?.aborted !== true) {
      for (const view of await listFleetRuns(fleet)) {
        const key = `${view.status}/${view.step ?? ""}/${view.machine ?? ""}/${view.pid ?? ""}`;
        const before = seen.get(view.run);
        if (before === key) continue;
        seen.set(view.run, key);
        yield {
          run: view.run,
          previous: (before?.split("/")[0] as FleetStatus | undefined) ?? null,
          status: view.status,
          view,
        };
      }
      await pause(intervalMs, options.signal);
    }
  } finally {
    if (!isOpened(store)) await fleet.close();
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
