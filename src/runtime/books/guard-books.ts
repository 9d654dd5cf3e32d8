/**
 * The goal guard's page of the step record (`record.guard`): its goal and goal switches, flagged claims,
 * check runs, reviews, rounds and how it ended, each saved at once and shown as an event.
 *
 * The ledger (step-ledger.ts) stays the record's one writer: it owns the record, builds these books
 * over it and hands them its own save; they write `record.guard` (and, when the guard ends goal-not-met,
 * the step's `errors`) and nothing else. Apart from the ledger because the guard's bookkeeping is its own
 * concept, read by the goal judge (goal-judge.ts) alone.
 */
import {
  newGuardRecord,
  type CheckResultRecord,
  type GuardRecord,
  type ReviewRecord,
  type StoredGoal,
} from "../../records/guard-record.js";
import type { StepRecord } from "../../records/step-record.js";
import type { ClaimFlaggedEvent, FlowerEvent } from "../events.js";
import type { GoalChange } from "../judge/frozen-goal.js";

/** Flagged claims kept word for word in the record (all are counted). */
const MAX_CLAIMS_KEPT = 50;

export interface GuardBooksOptions {
  step: string;
  /** The ledger's record (live, not a copy). */
  record: StepRecord;
  /** The ledger's save. */
  save: () => void;
  emit: (event: FlowerEvent) => void;
  /** Now, as the record writes it (ISO). */
  now: () => string;
}

export class GuardBooks {
  readonly #options: GuardBooksOptions;

  constructor(options: GuardBooksOptions) {
    this.#options = options;
  }

  /**
   * The goal guard's part of the record. Kept across `continue`; a step that had ended goal-not-met and
   * is continued gets its rounds again (a person chose to go on), its earlier evidence stays.
   */
  start(maxRounds: number, goal: StoredGoal, change: GoalChange | null = null): void {
    const record = this.#options.record;
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
    const at = this.#options.now();
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

  /** A subagent's report claimed success without evidence: counted; the latest kept word for word. */
  claim(event: ClaimFlaggedEvent): void {
    const guard = this.#options.record.guard;
    if (!guard) return;
    guard.claimsFlagged += 1;
    guard.claims.push({
      at: this.#options.now(),
      agent: event.agent,
      matched: event.matched,
      excerpt: event.excerpt,
    });
    // The count is the measure; the list is for reading and stays short on a long run.
    if (guard.claims.length > MAX_CLAIMS_KEPT) guard.claims.splice(0, guard.claims.length - MAX_CLAIMS_KEPT);
    this.#options.save();
  }

  get #guard(): GuardRecord {
    const guard = this.#options.record.guard;
    if (!guard) throw new Error("the goal guard was not started for this step");
    return guard;
  }

  /** Guard rounds started so far (how often the coordinator was sent back). */
  get rounds(): number {
    return this.#options.record.guard?.rounds ?? 0;
  }

  /** Check runs recorded over the step's whole history (`continue` restarts the rounds, not the runs). */
  get checkRuns(): number {
    return this.#guard.checkRuns.length;
  }

  /** Reviews recorded over the step's whole history. */
  get reviews(): number {
    return this.#guard.reviews.length;
  }

  /** One run of the goal's checks: kept whole, shown as a summary. */
  checkRun(results: CheckResultRecord[]): void {
    const guard = this.#guard;
    const round = guard.rounds;
    guard.checkRuns.push({ round, at: this.#options.now(), passed: results.every((r) => r.passed), results });
    this.#options.save();
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
    const entry: ReviewRecord = { round: guard.rounds, at: this.#options.now(), ...review };
    guard.reviews.push(entry);
    this.#options.save();
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
  round(cause: "checks" | "review", failing: number, total: number, notMet: number): void {
    const guard = this.#guard;
    guard.rounds += 1;
    this.#options.save();
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
  end(outcome: "passed" | "goal-not-met", passedChecks: string[], why: string | null): void {
    const guard = this.#guard;
    guard.outcome = outcome;
    guard.passedChecks = passedChecks;
    guard.why = why;
    if (why) this.#options.record.errors.push(why);
    this.#options.save();
  }
}
