/**
 * The ONE writer of a step record. Everything that changes the record arrives here: events (spills,
 * denials and store loads from hooks and the store; context from the session stream), a session's
 * outcome and cost, a failed attempt, a handoff; each is folded in and saved at once (a crash loses
 * nothing). The step loop (step-run.ts) decides what happens; this class keeps the books of it.
 *
 * A generation is booked when its session exists, never before: a crash between a handoff and the
 * successor's start must not leave a generation without a session (generations = 1 + handoffs, always).
 */
import type { FrozenDocumentRecord } from "../records/frozen-document-record.js";
import { degradedError } from "../handoff/degraded.js";
import type { HandoffPolicy } from "../handoff/policy.js";
import type { FrozenForSuccessor, ProducedHandoff } from "../handoff/switch.js";
import { nearDue } from "../handoff/trigger.js";
import {
  newGuardRecord,
  type CheckResultRecord,
  type GuardRecord,
  type ReviewRecord,
  type StoredGoal,
} from "../records/guard-record.js";
import {
  newStepRecord,
  toStepResult,
  type GenerationRecord,
  type StepRecord,
  type StepResult,
  type StepSettings,
  type WorkflowMembership,
} from "../records/step-record.js";
import { sessionSpend } from "./accounting.js";
import type { FlowerEvent } from "./events.js";
import type { GoalChange } from "./frozen-goal.js";
import type { SessionOutcome } from "./session-outcome.js";
import { stepTurns } from "../records/turns.js";

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

/** Flagged claims kept word for word in the record (all are counted). */
const MAX_CLAIMS_KEPT = 50;

export class StepLedger {
  readonly #record: StepRecord;
  readonly #options: LedgerOptions;
  /** The near warning was given in this generation (one per generation). */
  #warned = false;
  /** A new generation waits for its session to exist (see expectGeneration). */
  #pendingGeneration = false;
  /** Spills and denials seen before this generation's first response: they belong to its first turn. */
  #early = { spills: 0, denials: 0 };

  constructor(options: LedgerOptions) {
    this.#options = options;
    this.#record = options.continued
      ? { ...options.continued, status: "running", pid: process.pid }
      : newStepRecord(options.step, options.agent, options.prompt, options.now());
    if (options.earlier && !options.continued) {
      const { earlierRuns = [], ...rest } = options.earlier;
      this.#record.earlierRuns = [...earlierRuns, rest];
    }
    if (options.workflow) {
      this.#record.run = options.workflow.run;
      this.#record.workflow = { ...options.workflow };
    }
    const { enabled, window, at, warnAt } = options.policy;
    this.#record.policy = { enabled, window, at, warnAt };
    if (options.settings) this.#record.settings = structuredClone(options.settings);
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
        this.#countInTurn(1, 0);
        this.save();
        break;
      case "tool-denied":
        record.denials += 1;
        this.#countInTurn(0, 1);
        this.save();
        break;
      case "context":
        if (!silent) {
          this.#turn(event.context);
          this.save();
        }
        break;
      case "claim-flagged": {
        const guard = record.guard;
        if (!guard) break;
        guard.claimsFlagged += 1;
        guard.claims.push({
          at: this.#now(),
          agent: event.agent,
          matched: event.matched,
          excerpt: event.excerpt,
        });
        // The count is the measure; the list is for reading and stays short on a long run.
        if (guard.claims.length > MAX_CLAIMS_KEPT)
          guard.claims.splice(0, guard.claims.length - MAX_CLAIMS_KEPT);
        this.save();
        break;
      }
      case "plan":
        // The writing turn's own calls are not the step's plan.
        if (!silent) {
          record.plan = event.items;
          this.save();
        }
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

  /** A main-thread response of the booked generation: one entry of its per-turn series. */
  #turn(context: number): void {
    const generation = this.#generation;
    if (!generation) return;
    (generation.turns ??= []).push([context, this.#early.spills, this.#early.denials]);
    this.#early = { spills: 0, denials: 0 };
  }

  /**
   * Spills and denials go to the turn they belong to. The binary runs a tool as soon as its block is
   * streamed, before the response ends: a denial comes before the context of the response that asked
   * for it, so it waits for the next turn. A spill comes when the tool's output is back, after that
   * response: it belongs to the last turn.
   */
  #countInTurn(spills: number, denials: number): void {
    this.#early.denials += denials;
    const last = this.#generation?.turns?.at(-1);
    if (last) last[1] += spills;
    else this.#early.spills += spills;
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
    this.#early = { spills: 0, denials: 0 };
  }

  /** The generation the running (or next) session belongs to. */
  get generationNumber(): number {
    return this.#record.generations + (this.#pendingGeneration ? 1 : 0);
  }

  /** Adds what one session run cost to the step and its generation. */
  account(outcome: SessionOutcome, countsForContext: boolean): void {
    const record = this.#record;
    const generation = this.#generation;
    if (outcome.sessionId) {
      const spend = sessionSpend(record.sessionCosts[outcome.sessionId], outcome.costTotal);
      if (spend.total !== null) record.sessionCosts[outcome.sessionId] = spend.total;
      record.costUsd += spend.spent;
      if (generation) generation.costUsd += spend.spent;
    }
    record.numTurns += outcome.numTurns;
    if (generation) generation.numTurns += outcome.numTurns;
    if (countsForContext && outcome.mainResponses > 0) {
      record.context = outcome.context;
      if (generation) generation.context = outcome.context;
    }
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
      });
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

  /** A step-level error that ends it (maxGenerations). */
  addError(message: string): void {
    this.#record.errors.push(message);
  }

  /** A finished step's answer. */
  answer(text: string | null): void {
    this.#record.result = text;
  }

  /** The step's document was frozen (degraded or not); `error` goes to `errors` when it degraded. */
  froze(frozen: FrozenDocumentRecord, error: string | null): void {
    this.#record.frozen = frozen;
    if (error !== null) this.#record.errors.push(error);
    this.save();
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
    const record = this.#record;
    const { why } = produced;
    if (why !== null) {
      record.degraded += 1;
      record.errors.push(degradedError(why, "zh"));
    }
    if (frozen.path) {
      // The previous generation's file moved to the archive: its records follow it.
      if (frozen.archived) this.#followArchived(frozen.path, frozen.archived);
      record.handoffs.push(frozen.path);
      record.pendingHandoff = frozen.path;
    } else {
      record.pendingPrompt = prompt;
    }
    if (burned) record.retired.push(burned);
    const generation = this.#generation;
    if (generation) {
      generation.endedAt = this.#now();
      generation.handoff = {
        path: frozen.path,
        degraded: why !== null,
        why,
        missing: produced.missing,
        weak: produced.weak,
        askedAgain: produced.askedAgain,
        ...(produced.from !== null ? { from: produced.from } : {}),
        scene: frozen.scene,
        cutCalls,
        finishedCalls,
      };
    }
    this.save();
  }

  #followArchived(from: string, to: string): void {
    const record = this.#record;
    record.handoffs = record.handoffs.map((path) => (path === from ? to : path));
    for (const generation of record.history) {
      if (generation.handoff?.path === from) generation.handoff.path = to;
    }
  }

  /**
   * The goal guard's part of the record. Kept across `continue`; a step that had ended goal-not-met and
   * is continued gets its rounds again (a person chose to go on), its earlier evidence stays.
   */
  guardStart(maxRounds: number, goal: StoredGoal, change: GoalChange | null = null): void {
    const record = this.#record;
    if (!record.guard) record.guard = newGuardRecord(maxRounds);
    const guard = record.guard;
    guard.goal = goal;
    if (change) this.#goalChange(guard, goal, change);
    if (guard.outcome === "goal-not-met") guard.rounds = 0;
    guard.maxRounds = maxRounds;
    guard.outcome = null;
    guard.why = null;
  }

  /** A goal offered for work under way: kept as ignored, or (asked for) a switch with both versions. */
  #goalChange(guard: GuardRecord, goal: StoredGoal, change: GoalChange): void {
    const at = this.#now();
    if (change.kind === "switched")
      (guard.goalSwitches ??= []).push({ at, path: change.path, from: change.from, to: goal });
    else guard.ignoredGoal = { at, path: change.path, goal: change.offered };
    const [from, to] = change.kind === "switched" ? [change.from, goal] : [goal, change.offered];
    this.#options.emit({
      type: "goal-change",
      step: this.#options.step,
      phase: change.kind,
      path: change.path,
      checks: {
        recorded: from.checks.map((check) => check.command),
        offered: to.checks.map((check) => check.command),
      },
    });
  }

  get #guard(): GuardRecord {
    const guard = this.#record.guard;
    if (!guard) throw new Error("the goal guard was not started for this step");
    return guard;
  }

  /** Guard rounds started so far (how often the coordinator was sent back). */
  get guardRounds(): number {
    return this.#record.guard?.rounds ?? 0;
  }

  /** One run of the goal's checks: kept whole, shown as a summary. */
  checkRun(results: CheckResultRecord[]): void {
    const guard = this.#guard;
    const round = guard.rounds;
    guard.checkRuns.push({ round, at: this.#now(), passed: results.every((r) => r.passed), results });
    this.save();
    this.#options.emit({
      type: "goal-checks",
      step: this.#options.step,
      round,
      passed: results.filter((result) => result.passed).length,
      total: results.length,
      results: results.map(({ index, command, passed, exitCode, durationMs, logPath, reason, failure }) => ({
        index,
        command,
        passed,
        exitCode,
        durationMs,
        logPath,
        reason,
        failure: failure ?? null,
      })),
    });
  }

  /** The reviewer's verdict. */
  reviewed(review: Omit<ReviewRecord, "round" | "at">): void {
    const guard = this.#guard;
    const entry: ReviewRecord = { round: guard.rounds, at: this.#now(), ...review };
    guard.reviews.push(entry);
    this.save();
    this.#options.emit({
      type: "review",
      step: this.#options.step,
      round: entry.round,
      outcome: entry.outcome,
      criteria: entry.criteria,
      why: entry.why,
      answerPath: entry.answerPath,
    });
  }

  /** The coordinator is sent back: one more guard round. */
  guardRound(cause: "checks" | "review", failing: number, total: number, notMet: number): void {
    const guard = this.#guard;
    guard.rounds += 1;
    this.save();
    this.#options.emit({
      type: "guard-round",
      step: this.#options.step,
      round: guard.rounds,
      rounds: guard.maxRounds,
      failing,
      total,
      cause,
      notMet,
    });
  }

  /** How the guard ended; `why` (for goal-not-met) also goes to the step's errors. */
  guardEnd(outcome: "passed" | "goal-not-met", passedChecks: string[], why: string | null): void {
    const guard = this.#guard;
    guard.outcome = outcome;
    guard.passedChecks = passedChecks;
    guard.why = why;
    if (why) this.#record.errors.push(why);
    this.save();
  }

  finish(status: StepRecord["status"]): StepResult {
    const record = this.#record;
    record.status = status;
    const generation = this.#generation;
    if (generation && !generation.endedAt) generation.endedAt = this.#now();
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
