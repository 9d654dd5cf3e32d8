/**
 * The page's live updates: server-sent events. Why SSE rather than the page polling: the updates go one
 * way (server → page), `EventSource` reconnects by itself and needs no library on either side, and the
 * server reads the store once per interval however many pages are open, instead of every tab making the
 * server query the database. WebSockets would add a protocol for nothing the page sends back (its two
 * actions are plain POSTs).
 *
 * The records have no change notification (a step writes its record at each turn, on any machine), so
 * the feed reads the source every `intervalMs` while at least one page listens, and sends a snapshot
 * only when it differs from the last one sent. Reads never overlap: the next starts after one ends.
 */
import type { ServerResponse } from "node:http";
import type { RunSource, RunsSnapshot } from "./page-source.js";

/** A comment line now and then keeps proxies and idle timeouts from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

export class LiveFeed {
  readonly #source: RunSource;
  readonly #actions: boolean;
  readonly #intervalMs: number;
  readonly #clients = new Set<ServerResponse>();
  #last: string | null = null;
  #timer: NodeJS.Timeout | null = null;
  #keepalive: NodeJS.Timeout | null = null;
  #reading: Promise<string> | null = null;
  #closed = false;

  constructor(source: RunSource, options: { actions: boolean; intervalMs: number }) {
    this.#source = source;
    this.#actions = options.actions;
    this.#intervalMs = options.intervalMs;
  }

  /** Reads the source now (one read at a time); a failed read becomes an `error` field, not a crash. */
  async snapshot(): Promise<string> {
    this.#reading ??= (async () => {
      try {
        const runs = await this.#source.runs();
        const snapshot: RunsSnapshot = { where: this.#source.where, actions: this.#actions, runs };
        return JSON.stringify(snapshot);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return JSON.stringify({
          where: this.#source.where,
          actions: this.#actions,
          runs: [],
          error: message,
        });
      } finally {
        this.#reading = null;
      }
    })();
    return this.#reading;
  }

  /** Starts an event stream on `response` with the current snapshot. */
  async attach(response: ServerResponse): Promise<void> {
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
    });
    // A dropped stream is retried after 2 s by the browser itself.
    response.write("retry: 2000\n\n");
    this.#clients.add(response);
    response.on("close", () => this.#clients.delete(response));
    const data = await this.snapshot();
    this.#last = data;
    send(response, data);
    this.#schedule();
    this.#keepalive ??= setInterval(() => {
      for (const client of this.#clients) client.write(": keepalive\n\n");
    }, KEEPALIVE_MS);
  }

  /** Reads now and sends when changed (after an action, so the page does not wait for the interval). */
  async refresh(): Promise<void> {
    const data = await this.snapshot();
    if (data === this.#last) return;
    this.#last = data;
    for (const client of this.#clients) send(client, data);
  }

  #schedule(): void {
    if (this.#timer !== null || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#clients.size === 0) {
        // Nobody listens: stop reading the store until a page connects again.
        this.#last = null;
        return;
      }
      void this.refresh().finally(() => this.#schedule());
    }, this.#intervalMs);
  }

  /** Ends every stream and stops reading. */
  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#keepalive) clearInterval(this.#keepalive);
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }
}

function send(response: ServerResponse, data: string): void {
  response.write(`event: runs\ndata: ${data}\n\n`);
}
