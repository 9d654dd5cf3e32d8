/**
 * Routes the session store's load reports to whoever is resuming that session. The store is shared by
 * every step of a runtime and reports loads by session id; the step that started the resume subscribes
 * for that id just before and unsubscribes right after, so it alone books the report.
 */
import type { RewriteReport } from "../../session-layers/passes/rewrite-report.js";

export type LoadListener = (report: RewriteReport) => void;

export class LoadRouter {
  readonly #listeners = new Map<string, LoadListener>();

  /** Listen for loads of one session; returns the unsubscribe function. */
  watch(sessionId: string, listener: LoadListener): () => void {
    this.#listeners.set(sessionId, listener);
    return () => {
      if (this.#listeners.get(sessionId) === listener) this.#listeners.delete(sessionId);
    };
  }

  /** Called by the store on every load of a main transcript. */
  route(sessionId: string, report: RewriteReport): void {
    const listener = this.#listeners.get(sessionId);
    if (!listener) return;
    // Bookkeeping must never break a resume: a failure here is reported, the load goes on.
    try {
      listener(report);
    } catch (error) {
      process.stderr.write(`flower: could not record a store load for ${sessionId}: ${String(error)}\n`);
    }
  }
}
