/**
 * The driver's side of `flower say` (records/person-messages.ts): a run's messages as its driver sees
 * them, for the session runner to give to the main thread (session-run.ts) and the step loop to clear
 * once a session's transcript holds them (step-run.ts).
 *
 * A boundary must not wait for the network: with a synchronous store (SQLite) the rows are read right
 * when asked; with a shared store the answer of the read started earlier (at a boundary, or by the poll
 * timer) is used, so a message said on another machine reaches the session at most a poll interval and
 * one boundary later. The poll also tells the session runner when a message arrives during a long tool
 * call or a subagent's work, so it is queued for the main thread's next boundary at once.
 */
import type { PersonMessage, PersonMessages } from "../../records/person-messages.js";

/** What a session sees of the run's messages. */
export interface MessageSource {
  /** The run's messages this driver has not given to a session yet, oldest first. */
  pending(): PersonMessage[];
  /** Tells `listener` when new messages may have arrived; returns the unsubscribe function. */
  onArrival(listener: () => void): () => void;
  /** A session's transcript holds it now: never given again by this driver. */
  given(message: PersonMessage): void;
}

/** What the step loop does with the run's messages besides giving them to sessions. */
export interface RunMessages extends MessageSource {
  /** Reads the channel now and waits for the answer; the messages not given yet. */
  refresh(): Promise<PersonMessage[]>;
  /** A session ended: the rows of the messages it was given go (its transcript is stored). */
  settle(): Promise<void>;
}

/** How often the channel is read between boundaries. */
const POLL_MS = 1_000;

export class MessageInbox implements RunMessages {
  readonly #messages: PersonMessages | undefined;
  readonly #run: string;
  /** Given to a session; their rows go at `settle()`, when that session's transcript is stored. */
  readonly #given = new Map<string, PersonMessage>();
  /** Rows already cleared (a shared store's cached read may still list them). */
  readonly #taken = new Set<string>();
  readonly #listeners = new Set<() => void>();
  #rows: PersonMessage[] = [];
  #reading: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;

  constructor(messages: PersonMessages | undefined, run: string) {
    this.#messages = messages;
    this.#run = run;
  }

  get run(): string {
    return this.#run;
  }

  pending(): PersonMessage[] {
    void this.#read();
    return this.#rows.filter((row) => !this.#given.has(row.id) && !this.#taken.has(row.id));
  }

  /** Reads the channel now and waits for the answer (where a step decides whether anything is waiting). */
  async refresh(): Promise<PersonMessage[]> {
    await this.#read();
    // A read already on its way when this was called may predate the message: one more.
    await this.#read();
    return this.pending();
  }

  onArrival(listener: () => void): () => void {
    this.#listeners.add(listener);
    if (this.#timer === null && this.#messages) {
      this.#timer = setInterval(() => void this.#read(), POLL_MS);
      this.#timer.unref();
    }
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0 && this.#timer !== null) {
        clearInterval(this.#timer);
        this.#timer = null;
      }
    };
  }

  given(message: PersonMessage): void {
    this.#given.set(message.id, message);
  }

  /** Whether this driver gave `id` to a session already (its row may still be there). */
  wasGiven(id: string): boolean {
    return this.#given.has(id) || this.#taken.has(id);
  }

  /**
   * The session ended and its transcript is stored: the rows of the messages it was given go. A row that
   * cannot be cleared stays, and the next session finds the message in its transcript (never twice).
   */
  async settle(): Promise<void> {
    const messages = this.#messages;
    for (const [id] of this.#given) {
      if (this.#taken.has(id)) continue;
      this.#taken.add(id);
      try {
        await messages?.take(this.#run, id);
      } catch (error) {
        process.stderr.write(`flower: could not clear a message to "${this.#run}": ${String(error)}\n`);
      }
    }
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#listeners.clear();
  }

  #read(): Promise<void> {
    const messages = this.#messages;
    if (!messages) return Promise.resolve();
    if (this.#reading) return this.#reading;
    const keep = (rows: PersonMessage[]) => {
      const known = new Set(this.#rows.map((row) => row.id));
      this.#rows = rows;
      if (rows.some((row) => !known.has(row.id) && !this.#given.has(row.id) && !this.#taken.has(row.id)))
        for (const listener of [...this.#listeners]) listener();
    };
    try {
      const read = messages.list(this.#run);
      if (!(read instanceof Promise)) {
        keep(read);
        return Promise.resolve();
      }
      this.#reading = read
        .then(keep, () => {
          // The store is away: the next boundary or poll asks again (a failing store fails the step's saves).
        })
        .finally(() => {
          this.#reading = null;
        });
      return this.#reading;
    } catch {
      // A busy records.db: the next boundary reads again.
      return Promise.resolve();
    }
  }
}
