/**
 * Run records in a shared store (PostgreSQL), behind the synchronous face the runtime writes through.
 *
 * The design, and why: a step's record is saved at every turn by the ledger (runtime/books/step-ledger.ts),
 * synchronously, from deep inside the step loop; making every save awaitable would reshape the ledger,
 * the step loop and everything that reads records, for a store that is one of two. Instead:
 * - a local SQLite copy in the run directory (records.db + manifest.json, exactly as without a store)
 *   answers `get`/`list` and takes every `put` at once, so nothing the runtime does waits on the network
 *   and a person on this machine still has the readable manifest;
 * - every `put` is written through to Postgres in the background, in order per step, each write fenced
 *   by the lease's token in the database (postgres/postgres-run-records.ts): a driver whose lease was taken over
 *   cannot overwrite its successor there, and learns it: the failure is kept and the step's next `put`
 *   throws it (LeaseLostError, or the StoreError of a write that did not reach the store);
 * - the lease itself lives only in Postgres (the local leases table is not used): acquiring, taking over,
 *   heartbeats and release are asynchronous, and StepLease awaits them;
 * - `release` first flushes the step's pending writes, so the record in the store is complete before the
 *   next machine may take the step; `pull` brings records from the store into the local copy before the
 *   runtime reads a step it may not have seen (a fresh checkout on another machine has no run directory).
 * A write that cannot reach the store fails the step at its next save rather than going on silently.
 */
import { LeaseLostError } from "../errors.js";
import type { LeaseRow } from "../records/lease.js";
import { currentProcess, sameMachine } from "../records/process-identity.js";
import type { PostgresRunRecords } from "./postgres/postgres-run-records.js";
import type { AcquireOptions, AcquireResult, RunRecords } from "../records/run-records.js";
import type { SqliteRunRecords } from "./sqlite/sqlite-run-records.js";
import type { StepRecord } from "../records/step-record.js";
import type { HandoffRequests } from "../records/handoff-requests.js";
import type { PersonMessages } from "../records/person-messages.js";

export class SharedRunRecords implements RunRecords {
  readonly location: string;
  readonly local: SqliteRunRecords;
  readonly remote: PostgresRunRecords;
  /** Per step, the chain of writes on their way to the store. */
  readonly #pending = new Map<string, Promise<void>>();
  /** Per step, why a write did not reach the store; thrown by the step's next put. */
  readonly #failures = new Map<string, Error>();

  constructor(local: SqliteRunRecords, remote: PostgresRunRecords) {
    this.local = local;
    this.remote = remote;
    this.location = remote.location;
  }

  /** `flower handoff` asks from any machine: the channel lives in the store. */
  get requests(): HandoffRequests {
    return this.remote.requests;
  }

  /** `flower say` leaves a message from any machine: the channel lives in the store. */
  get messages(): PersonMessages {
    return this.remote.messages;
  }

  get(step: string): StepRecord | undefined {
    return this.local.get(step);
  }

  list(): StepRecord[] {
    return this.local.list();
  }

  daySpent(day: string): number {
    return this.local.daySpent(day);
  }

  runSpent(run: string): number {
    return this.local.runSpent(run);
  }

  put(record: StepRecord, options: { lease?: string } = {}): void {
    const failure = this.#failures.get(record.step);
    if (failure !== undefined) throw failure;
    this.local.put(record);
    // The same record, updatedAt included, as the local copy now holds.
    const stored = this.local.get(record.step) ?? record;
    this.#enqueue(record.step, () => this.remote.put(stored, options));
  }

  delete(step: string): boolean {
    const deleted = this.local.delete(step);
    this.#enqueue(step, async () => {
      await this.remote.delete(step);
    });
    return deleted;
  }

  async acquire(step: string, options: AcquireOptions & { token: string }): Promise<AcquireResult> {
    const result = await this.remote.acquire(step, options);
    // A new lease starts clean: an earlier driver's failure in this process is not ours.
    if (result.kind === "acquired") this.#failures.delete(step);
    return result;
  }

  async takeOver(
    step: string,
    deadToken: string,
    options: AcquireOptions & { token: string },
  ): Promise<boolean> {
    const taken = await this.remote.takeOver(step, deadToken, options);
    if (taken) this.#failures.delete(step);
    return taken;
  }

  async heartbeat(step: string, token: string, now: Date, children?: number[]): Promise<boolean> {
    const held = await this.remote.heartbeat(step, token, now, children);
    // Taken over while we were alive (a long pause, a partition): the next save must stop the step.
    if (!held && !this.#failures.has(step)) this.#failures.set(step, new LeaseLostError(step));
    return held;
  }

  /** Lets the step's writes settle (a failed one is reported by `flush` and the next `put`), then releases. */
  async release(step: string, token: string): Promise<void> {
    await this.#pending.get(step);
    await this.remote.release(step, token);
  }

  leases(): Promise<LeaseRow[]> {
    return this.remote.leases();
  }

  /**
   * Copies the step's record (every record without `step`) from the store into the local copy — except a
   * record another driver on this machine holds the lease of. That driver writes the local copy first and
   * the store after, so the store's copy can be older than the local one (a worker's two runs, or two
   * workers in one checkout, share the run directory): copied over it, the step's end read back as
   * "running". `lease`: the caller's own lease of `step`; under it the store's copy is taken (the step
   * may have moved on another machine).
   *
   * The leases are read before the records: a holder releases only after its writes reached the store,
   * so a lease seen gone means the records read after it are the newest.
   */
  async pull(step?: string, options: { lease?: string } = {}): Promise<void> {
    const self = currentProcess();
    const drivenHere = new Set(
      (await this.remote.leases())
        .filter((lease) => lease.token !== options.lease && sameMachine(lease, self))
        .map((lease) => lease.step),
    );
    const records = step === undefined ? await this.remote.list() : [await this.remote.get(step)];
    this.local.putCopies(
      records.filter(
        (record): record is StepRecord =>
          record !== undefined && !(drivenHere.has(record.step) && this.local.get(record.step) !== undefined),
      ),
    );
  }

  /**
   * Resolves once every write so far of `step` (of every step without one) reached the store; rejects
   * with why one did not.
   */
  async flush(step?: string): Promise<void> {
    const steps =
      step === undefined ? [...new Set([...this.#pending.keys(), ...this.#failures.keys()])] : [step];
    for (const name of steps) await this.#settled(name);
  }

  close(): void {
    this.local.close();
  }

  async #settled(step: string): Promise<void> {
    await this.#pending.get(step);
    const failure = this.#failures.get(step);
    if (failure !== undefined) throw failure;
  }

  #enqueue(step: string, write: () => Promise<void>): void {
    const previous = this.#pending.get(step) ?? Promise.resolve();
    const next = previous.then(async () => {
      // After a failure nothing more of this step is written: the store keeps the last good record.
      if (this.#failures.has(step)) return;
      try {
        await write();
      } catch (error) {
        this.#failures.set(step, error instanceof Error ? error : new Error(String(error)));
      }
    });
    this.#pending.set(step, next);
    void next.then(() => {
      if (this.#pending.get(step) === next) this.#pending.delete(step);
    });
  }
}
