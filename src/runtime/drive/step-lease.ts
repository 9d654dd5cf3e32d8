/**
 * The lease a running step holds (see records/lease.ts for the rules): taken before the step starts,
 * refreshed by a heartbeat while it runs, released when it ends. Every record write carries the lease's
 * token, so a driver whose lease was taken over stops writing instead of corrupting the new driver's record.
 */
import { randomUUID } from "node:crypto";
import { LeaseHeldError, type LeaseHolder } from "../../errors.js";
import { holderOf, killLeftoverChildren, ownerGone, type LeaseTiming } from "../../records/lease.js";
import { currentProcess, type ProcessIdentity } from "../../records/process-identity.js";
import type { RunRecords } from "../../records/run-records.js";
import { HandoffRequestWatch } from "../generations/handoff-request-watch.js";

export interface LeaseOptions {
  records: RunRecords;
  step: string;
  timing: LeaseTiming;
  now: () => Date;
  /** Wait for a live holder to finish instead of failing: true = as long as it takes, a number = ms. */
  wait?: boolean | number;
  /** Told once when the step is held and we wait. */
  onWait?: (error: LeaseHeldError) => void;
  /** Told when a dead owner's lease was taken over (telemetry counts takeovers). */
  onTakeover?: (holder: LeaseHolder) => void;
  signal?: AbortSignal;
}

export class StepLease {
  readonly step: string;
  readonly token: string;
  readonly #records: RunRecords;
  readonly #children = new Set<number>();
  readonly #timer: NodeJS.Timeout;
  readonly #now: () => Date;
  #released = false;
  /** Requests of `flower handoff` addressed to this lease (handoff-request-watch.ts). */
  readonly requests: HandoffRequestWatch;

  private constructor(options: LeaseOptions, token: string) {
    this.step = options.step;
    this.token = token;
    this.#records = options.records;
    this.#now = options.now;
    this.requests = new HandoffRequestWatch(options.records.requests, options.step, token);
    this.#timer = setInterval(() => this.#beat(), options.timing.heartbeatMs);
    // The heartbeat must not keep a finished process alive.
    this.#timer.unref();
  }

  /** Takes the step's lease, taking over a dead owner's; throws LeaseHeldError (or waits) when it is held. */
  static async acquire(options: LeaseOptions): Promise<StepLease> {
    const self: ProcessIdentity = currentProcess();
    const token = randomUUID();
    const deadline =
      options.wait === true ? Infinity : typeof options.wait === "number" ? Date.now() + options.wait : 0;
    let told = false;
    while (true) {
      const now = options.now();
      // A shared store answers with promises; awaiting a plain value costs nothing.
      const result = await options.records.acquire(options.step, { self, now, token });
      if (result.kind === "acquired") return new StepLease(options, token);
      let current = result.lease;
      if (ownerGone(current, self, now, options.timing)) {
        // Only once the dead owner's children are gone: a child left running would go on driving the session.
        const left = await killLeftoverChildren(current, self);
        if (left.length === 0) {
          if (await options.records.takeOver(options.step, current.token, { self, now, token })) {
            options.onTakeover?.(holderOf(current));
            return new StepLease(options, token);
          }
          // Another driver took the dead owner's lease first (two runtimes racing for it). The row read
          // before the takeover names the dead owner; the error must name the live winner, so read again.
          const after = await options.records.acquire(options.step, { self, now: options.now(), token });
          if (after.kind === "acquired") return new StepLease(options, token);
          current = after.lease;
        }
      }
      const error = new LeaseHeldError(options.step, holderOf(current));
      if (Date.now() >= deadline || options.signal?.aborted) throw error;
      if (!told) options.onWait?.(error);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /** A `claude` child this driver started: the lease names it, so a takeover can make sure it is gone. */
  addChild(pid: number): void {
    this.#children.add(pid);
    this.#beat();
  }

  #beat(): void {
    if (this.#released) return;
    const failed = (error: unknown) =>
      // A busy database or a dropped connection must not crash the run; the next beat tries again.
      process.stderr.write(`flower: lease heartbeat for "${this.step}" failed: ${String(error)}\n`);
    try {
      const beat = this.#records.heartbeat(this.step, this.token, this.#now(), [...this.#children]);
      if (beat instanceof Promise) beat.catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  /**
   * Gives the step up. With a synchronous store (SQLite) the lease is gone when this returns, before the
   * promise settles; a shared store first flushes the record writes still on their way (they are fenced
   * by this lease, so they must land before it is released).
   */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    clearInterval(this.#timer);
    this.requests.stop();
    await this.#records.release(this.step, this.token);
  }
}
