/**
 * The ONE writer of a step record. Everything that changes the record arrives here: events (spills,
 * denials and store loads from hooks and the store; context from the session stream), a session's
 * outcome and cost, a failed attempt, a handoff; each is folded in and saved at once (a crash loses
 * nothing). The step loop (step-run.ts) decides what happens; this class keeps the books of it. Parts with
 * rules of their own are kept by helpers this ledger calls on its own record and saves after: the goal
 * guard's page (guard-books.ts), what a handoff leaves (handoff-booking.ts), the per-turn series
 * (turn-series.ts).
 *
 * A generation is booked when its session exists, never before: a crash between a handoff and the
 * successor's start must not leave a generation without a session (generations = 1 + handoffs, always).
 */
import { earlierGenerations, type GenerationSessions } from "../../records/earlier-generations.js";
import type { FrozenDocumentRecord } from "../../records/frozen-document-record.js";
import type { HandoffPolicy } from "../../handoff/policy.js";
import type { FrozenForSuccessor, ProducedHandoff } from "../../handoff/switch.js";
import { nearDue } from "../../handoff/trigger.js";
import {
  newStepRecord,
  toStepResult,
  type DriftPause,
  type GenerationProgress,
  type GenerationRecord,
  type StepRecord,
  type StepResult,
  type StepSettings,
  type WorkflowMembership,
} from "../../records/step-record.js";
import { bookResponse, bookSession, settlePending } from "./accounting.js";
import type { FlowerEvent } from "../events.js";
import { GuardBooks } from "./guard-books.js";
import { bookHandoff } from "./handoff-booking.js";
import { TurnSeries } from "./turn-series.js";
import { WorkBooks } from "./work-books.js";
import type { SessionOutcome } from "../session/session-outcome.js";
import { stepTurns } from "../../records/turns.js";

export interface LedgerOptions {
  step: string;
  agent: string;
  prompt: string;
  policy: HandoffPolicy;
  /** How the step runs, recorded so `continue` runs it the same way. */
  settings?: StepSettings;
  /** Continue this record instead of starting a new one. */
  continued?: StepRecord;
  /** The earlier record of this step name (a new run keeps what it cost). */
  earlier?: StepRecord;
  /** The step is part of a workflow run: recorded as `run` and `workflow`. */
  workflow?: WorkflowMembership;
  save: (record: StepRecord) => void;
  emit: (event: FlowerEvent) => void;
  now: () => Date;
}

export class StepLedger {
  readonly #record: StepRecord;
  readonly #options: LedgerOptions;
  /** The goal guard's page of the record (guard-books.ts), written through this ledger's save. */
  readonly guard: GuardBooks;
  /** The near warning was given in this generation (one per generation). */
  #warned = false;
  /** A new generation waits for its session to exist (see expectGeneration). */
  #pendingGeneration = false;
  /** The booked generation's per-turn series (turn-series.ts). */
  readonly #turns = new TurnSeries();
  /** The work page: checkpoints per generation (work-books.ts). */
  readonly #work = new WorkBooks();

  constructor(options: LedgerOptions) {
    this.#options = options;
    this.#record = options.continued
      ? { ...options.continued, status: "running", pid: process.pid }
      : newStepRecord(options.step, options.agent, options.prompt, options.now());
    // A continuation goes on past a budget stop: the stop is history, the spend stays in costUsd.
    delete this.#record.budgetStop;
    if (options.earlier && !options.continued) {
      const { earlierRuns = [], ...rest } = options.earlier;
      // A start that never got a session (its driver killed before the first answer, as a busy machine
      // makes likely) is not an earlier run: nothing happened in it, and this run is its start again.
      if (rest.history.length === 0 && rest.sessionId === null) {
        this.#record.startedAt = rest.startedAt;
        if (earlierRuns.length > 0) this.#record.earlierRuns = earlierRuns;
      } else this.#record.earlierRuns = [...earlierRuns, rest];
    }
    if (options.workflow) {
      this.#record.run = options.workflow.run;
      this.#record.workflow = { ...options.workflow };
    }
    const { enabled, window, at, warnAt } = options.policy;
    this.#record.policy = { enabled, window, at, warnAt };
    if (options.settings) this.#record.settings = structuredClone(options.settings);
    this.guard = new GuardBooks({
      step: options.step,
      record: this.#record,
      save: () => this.save(),
      emit: (event) => options.emit(event),
      now: () => this.#now(),
    });
  }

  /** A copy of the record as it stands. */
  get record(): StepRecord {
    return structuredClone(this.#record);
  }

  /** The latest plan the main thread wrote (TodoWrite); null before the first. */
  get plan(): StepRecord["plan"] | null {
    return this.#record.plan ?? null;
  }

  /** What the loop needs to read: the current session, its context, attempts so far, generations. */
  get sessionId(): string | null {
    return this.#record.sessionId;
  }
  get context(): number {
    return this.#record.context;
  }
  get attempts(): number {
    return this.#record.attempts;
  }
  get generations(): number {
    return this.#record.generations;
  }
  get hasHistory(): boolean {
    return this.#record.history.length > 0;
  }

  save(): void {
    this.#options.save(this.#record);
  }

  #now(): string {
    return this.#options.now().toISOString();
  }

  /** The booked generation of the running session; undefined while a new one waits for its session. */
  get #generation(): GenerationRecord | undefined {
    return this.#pendingGeneration ? undefined : this.#record.history.at(-1);
  }

  /**
   * Folds one event into the record and shows it unless `silent` (the handoff-writing turn shows
   * nothing, but what its hooks did still counts).
   */
  accept(event: FlowerEvent, silent: boolean): void {
    const record = this.#record;
    switch (event.type) {
      case "spill":
        record.spills += 1;
        record.spilledChars += event.chars;
        this.#turns.count(this.#generation, 1, 0);
        this.save();
        break;
      case "tool-denied":
        record.denials += 1;
        this.#turns.count(this.#generation, 0, 1);
        this.save();
        break;
      case "usage":
        bookResponse(record, this.#generation, event);
        this.save();
        // Booked, not shown: the context event already carries a main response's usage.
        return;
      case "context":
        if (!silent) {
          this.#turns.turn(this.#generation, event.context);
          this.save();
        }
        break;
      case "claim-flagged":
        this.guard.claim(event);
        break;
      case "plan":
        // The writing turn's own calls are not the step's plan.
        if (!silent) {
          record.plan = event.items;
          this.save();
        }
        break;
      case "work-checkpoint":
        this.#work.checkpoint(record, this.#generation, event);
        this.save();
        // An unchanged tree is not news; a checkpoint that changed something is shown (-v).
        if (!event.changed) return;
        break;
      case "work-restored":
        this.#work.restored(record, event);
        this.save();
        break;
      case "work-warning":
        this.#work.warning(record, event.message);
        this.save();
        break;
      case "person-message":
        // Once per message: a session given it again after a driver was killed finds it here already.
        if (!this.#messageDelivered(event)) return;
        break;
      case "store-load": {
        const { type: _type, step: _step, ...report } = event;
        record.storeLoads.push({ ...report, at: this.#now() });
        this.save();
        break;
      }
      default:
        break;
    }
    if (silent) return;
    this.#options.emit(event);
    if (event.type === "context") this.#maybeWarn(event.context);
  }

  /** Books a person's message the main thread was given; false when the record has it already. */
  #messageDelivered(event: Extract<FlowerEvent, { type: "person-message" }>): boolean {
    const messages = (this.#record.personMessages ??= []);
    if (messages.some((message) => message.id === event.id)) return false;
    messages.push({
      id: event.id,
      by: event.by,
      at: event.at,
      text: event.text,
      generation: event.generation,
      deliveredAt: this.#now(),
    });
    this.save();
    return true;
  }

  /** Whether the record has the person's message `id` as given to a session. */
  hasMessage(id: string): boolean {
    return this.#record.personMessages?.some((message) => message.id === id) === true;
  }

  /** One `near` warning per generation when the context crosses warnAt. */
  #maybeWarn(context: number): void {
    const policy = this.#options.policy;
    const warn = nearDue({
      enabled: policy.enabled,
      writing: false,
      context,
      warnAt: policy.warnAt,
      at: policy.at,
      warned: this.#warned,
    });
    if (!warn) return;
    this.#warned = true;
    this.#options.emit({
      type: "handoff",
      step: this.#options.step,
      phase: "near",
      generation: this.generationNumber,
      context,
      window: policy.window,
    });
  }

  /**
   * The next session starts a new generation. It is booked only when that session exists (its id is
   * known): a crash between a handoff and the successor's start must not leave a generation without a
   * session, or `continue` would book a second one for it (generations = 1 + handoffs, always).
   */
  expectGeneration(): void {
    this.#pendingGeneration = true;
    this.#warned = false;
    this.#turns.reset();
  }

  /** Where the run stood when a generation handed off (drift-watch.ts). */
  progress(generation: number, progress: GenerationProgress): void {
    const booked = this.#record.history.find((entry) => entry.generation === generation);
    if (!booked) return;
    booked.progress = progress;
    this.save();
  }

  /** The step stops on a budget: where it stood, saved with the step's end. */
  budgetStop(stop: NonNullable<StepRecord["budgetStop"]>): void {
    this.#record.budgetStop = stop;
  }

  /** What the step has spent so far (all its generations, subagents, writing turns and reviewers). */
  get costUsd(): number {
    return this.#record.costUsd;
  }

  /** The drift watch paused the step at this handoff (the successor starts on `continue`). */
  driftPause(pause: DriftPause): void {
    this.#record.drift = pause;
    this.save();
  }

  /** The generations before the running (or next) session's, with their sessions: what recall searches. */
  earlierGenerations(): GenerationSessions[] {
    return earlierGenerations(this.#record, this.generationNumber);
  }

  /** The generation the running (or next) session belongs to. */
  get generationNumber(): number {
    return this.#record.generations + (this.#pendingGeneration ? 1 : 0);
  }

  /** Before a session runs: what earlier runs priced and no total covered stays, as an estimate. */
  settle(): void {
    if (settlePending(this.#record)) this.save();
  }

  /** Adds what one session run cost to the step and its generation. */
  account(outcome: SessionOutcome, countsForContext: boolean): void {
    bookSession(this.#record, this.#generation, outcome, countsForContext);
  }

  onSession(sessionId: string): void {
    const record = this.#record;
    if (this.#pendingGeneration) {
      this.#pendingGeneration = false;
      record.generations += 1;
      record.history.push({
        generation: record.generations,
        sessionId,
        startedAt: this.#now(),
        endedAt: null,
        costUsd: 0,
        numTurns: 0,
        context: 0,
        handoff: null,
        // The series starts empty, not absent: a session stopped before its first answer has 0 turns,
        // not the SDK's num_turns (which counts the interrupted request) standing in for a missing series.
        turns: [],
      });
      this.#work.booked(record.history.at(-1)!, record.work?.tip ?? null);
    } else if (record.sessionId === sessionId) {
      return;
    } else {
      // A retry that started afresh (its first session never answered) stays in the same generation.
      const generation = this.#generation;
      if (generation) generation.sessionId = sessionId;
    }
    record.sessionId = sessionId;
    record.pendingHandoff = null;
    record.pendingPrompt = null;
    this.save();
  }

  /** A failed attempt: counted, its reason kept. */
  failAttempt(outcome: SessionOutcome, reason: string): void {
    const record = this.#record;
    record.attempts += 1;
    record.errors.push(reason);
    record.failures.push({
      attempt: record.attempts,
      generation: this.generationNumber,
      sessionId: outcome.sessionId,
      reason,
      at: this.#now(),
    });
    this.save();
  }

  /** The step's work begins (or goes on): where its files are, its chain, where the run began. */
  beginWork(work: Parameters<WorkBooks["begin"]>[1]): void {
    this.#work.begin(this.#record, work);
    this.save();
  }

  /** Where the step's files stand: the chain's tip, the run's first checkpoint. */
  get work(): StepRecord["work"] | undefined {
    return this.#record.work ? structuredClone(this.#record.work) : undefined;
  }

  /** A rewind by turn's resume point was used: the session goes on from there, once. */
  resumedAt(sessionId: string): void {
    if (this.#record.resumeAt?.sessionId !== sessionId) return;
    delete this.#record.resumeAt;
    this.save();
  }

  /** A step-level error that ends it (maxGenerations). */
  addError(message: string): void {
    this.#record.errors.push(message);
  }

  /** A finished step's answer. */
  answer(text: string | null): void {
    this.#record.result = text;
  }

  /**
   * The step's document was frozen (degraded or not); `error` goes to `errors` when it degraded. Not
   * saved here: the caller saves it with what follows (the step's end), in one write.
   */
  froze(frozen: FrozenDocumentRecord, error: string | null): void {
    this.#record.frozen = frozen;
    if (error !== null) this.#record.errors.push(error);
  }

  /** A person asked for this handoff (`flower handoff`): recorded with the generation it ends. */
  personAsked(request: { by: string; at: string; next: string | null }): void {
    const asked = { by: request.by, at: request.at, next: request.next, generation: this.generationNumber };
    (this.#record.handoffRequests ??= []).push(asked);
  }

  /** The generation handed off: what was written or why it degraded, where it froze, which session burned. */
  handedOff(
    burned: string | null,
    produced: ProducedHandoff,
    frozen: FrozenForSuccessor,
    prompt: string,
    cutCalls = 0,
    finishedCalls = 0,
  ): void {
    this.#work.summarize(this.#generation, frozen.successor.doing);
    bookHandoff(
      this.#record,
      this.#generation,
      { burned, produced, frozen, prompt, cutCalls, finishedCalls },
      () => this.#now(),
    );
    this.save();
  }

  finish(status: StepRecord["status"]): StepResult {
    const record = this.#record;
    record.status = status;
    const generation = this.#generation;
    if (generation && !generation.endedAt) generation.endedAt = this.#now();
    // The last generation hands nothing off: its line on the branch is the step's answer.
    if (generation?.work?.summary === undefined && record.result !== null)
      this.#work.summarize(generation, record.result);
    this.save();
    this.#options.emit({
      type: "step-end",
      step: record.step,
      ok: status === "done",
      status: status === "running" ? "failed" : status,
      sessionId: record.sessionId,
      costUsd: record.costUsd,
      numTurns: record.numTurns,
      turns: stepTurns(record),
      generations: record.generations,
      errors: [...record.errors],
    });
    return toStepResult(record);
  }
}
