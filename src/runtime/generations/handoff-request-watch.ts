/**
 * The driver's side of `flower handoff` (records/handoff-requests.ts): the live driver looks for a
 * request addressed to its lease at every message boundary of its main thread, and the step loop acts on
 * it like on a crossed handoff line (session-run.ts, step-run.ts).
 *
 * A boundary must not wait for the network: with a synchronous store (SQLite) the row is read right at
 * the boundary; with a shared store the answer of the read started at an earlier boundary (or by the
 * poll timer, for a long turn without boundaries) is used, so a request made on another machine is acted
 * on at most a poll interval and one boundary later.
 */
import type { HandoffRequest, HandoffRequests } from "../../records/handoff-requests.js";

/** What the step loop sees of the channel. */
export interface HandoffRequestSource {
  /** The request addressed to this driver that it has not acted on yet, or null. */
  pending(): HandoffRequest | null;
  /** The driver acted on it: removed from the channel, never seen again. */
  take(request: HandoffRequest): void;
}

/** How often a shared store is asked between boundaries. */
const POLL_MS = 1_000;

export class HandoffRequestWatch implements HandoffRequestSource {
  readonly #requests: HandoffRequests | undefined;
  readonly #step: string;
  readonly #lease: string;
  readonly #taken = new Set<string>();
  #pending: HandoffRequest | null = null;
  #reading = false;
  #timer: NodeJS.Timeout | null = null;

  constructor(requests: HandoffRequests | undefined, step: string, lease: string) {
    this.#requests = requests;
    this.#step = step;
    this.#lease = lease;
  }

  pending(): HandoffRequest | null {
    this.#read();
    return this.#pending;
  }

  take(request: HandoffRequest): void {
    this.#taken.add(request.id);
    if (this.#pending?.id === request.id) this.#pending = null;
    try {
      const taken = this.#requests?.take(this.#step, request.id);
      if (taken instanceof Promise) taken.catch((error: unknown) => this.#failed(error));
    } catch (error) {
      this.#failed(error);
    }
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  #read(): void {
    if (!this.#requests || this.#reading) return;
    const keep = (request: HandoffRequest | null) => {
      this.#pending = request && !this.#taken.has(request.id) ? request : null;
    };
    try {
      const read = this.#requests.get(this.#step, this.#lease);
      if (!(read instanceof Promise)) return keep(read);
      this.#reading = true;
      read
        .then(keep, () => {
          // The store is away: the next boundary or poll asks again (a failing store fails the step's saves).
        })
        .finally(() => {
          this.#reading = false;
        });
      // Asked again between boundaries: a long tool call would otherwise delay the request by a turn.
      if (this.#timer === null) {
        this.#timer = setInterval(() => this.#read(), POLL_MS);
        this.#timer.unref();
      }
    } catch {
      // A busy records.db: the next boundary reads again.
    }
  }

  #failed(error: unknown): void {
    process.stderr.write(
      `flower: could not clear the handoff request of "${this.#step}": ${String(error)}\n`,
    );
  }
}
