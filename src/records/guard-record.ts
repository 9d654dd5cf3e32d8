/**
 * What the goal guard keeps in a step's record: every time flower ran the goal's checks,
 * every guard round it started, every subagent report it flagged and every reviewer verdict. The record is
 * the evidence a person reads afterwards (`flower show`), so it holds results, not just counts: exit
 * codes, durations, log paths and the last lines of each failing check.
 */
import type { CheckFailure } from "../goal/check-failure.js";
import type { CheckResult } from "../goal/check-result.js";
import type { GoalOption } from "../goal/goal-option.js";

/** One check's result as kept in the record (the runner's result without the output byte count). */
export interface CheckResultRecord extends Omit<CheckResult, "outputBytes" | "logPath" | "failure"> {
  /**
   * This run's log: `goal-check-<n>.run-<r>.log`, `<r>` the run's position in `checkRuns` (1-based).
   * Records written before logs were kept per run point at `goal-check-<n>.log`, which later runs
   * replaced. Logs of runs older than the last ten are removed; the record keeps their last lines.
   */
  logPath: string;
  /**
   * How it failed, as data, so a view words it in its reader's language; null when it passed. Absent
   * in records written before it was kept (a view shows `reason` then).
   */
  failure?: CheckFailureRecord | null;
}

export type CheckFailureRecord = CheckFailure;

/** One run of all the checks. */
export interface CheckRunRecord {
  /** The guard rounds started before this run: 0 after the first session, r after round r's work. */
  round: number;
  at: string;
  passed: boolean;
  results: CheckResultRecord[];
}

export type ReviewVerdictKind = "met" | "not-met" | "cannot-tell";

export interface ReviewCriterionRecord {
  criterion: string;
  verdict: ReviewVerdictKind;
  evidence: string;
}

/** One reviewer session (`review: true`). */
export interface ReviewRecord {
  /** The guard rounds started before this review. */
  round: number;
  at: string;
  sessionId: string | null;
  /**
   * met: every criterion met or cannot-tell; not-met: at least one not met; degraded: the answer could
   * not be read (or the reviewer session failed), so nothing was decided.
   */
  outcome: "met" | "not-met" | "degraded";
  criteria: ReviewCriterionRecord[];
  /** Why the verdict degraded. */
  why: string | null;
  /** The reviewer's answer as written, saved next to the check logs; null when there was none. */
  answerPath: string | null;
}

/** A subagent report the claim hook flagged (guards/claim-guard.ts). */
export interface FlaggedClaimRecord {
  at: string;
  /** The subagent (subagent type) whose report it was, when known. */
  agent: string | null;
  /** The success phrases found, as written. */
  matched: string[];
  /** The report's first characters. */
  excerpt: string;
}

/** The goal option the step ran with, so `continue` keeps guarding a step without being told again. */
export interface StoredGoal extends Pick<GoalOption, "checks" | "goalText" | "requirementsText"> {
  guardRounds: number;
  review: boolean;
}

/**
 * A goal flower was given for a step whose work had already begun, and did not use: the goal recorded
 * when the work began stays (nobody changes a goal under running or finished work without
 * saying so). Who changed it, and when, is unknown: `at` is when flower noticed.
 */
export interface IgnoredGoalRecord {
  at: string;
  /** The file it was read from, when known; null when a caller passed it. */
  path: string | null;
  /** The goal as it was offered. */
  goal: StoredGoal;
}

/** A switch to another goal a person asked for (`--reread-goal`, `replaceGoal: true`): both versions. */
export interface GoalSwitchRecord {
  at: string;
  /** The file the new goal was read from, when known. */
  path: string | null;
  from: StoredGoal;
  to: StoredGoal;
}

export interface GuardRecord {
  /** The goal the step runs with (absent in records written before it was kept). */
  goal?: StoredGoal;
  /** The last goal offered on a continue and not used (absent when none was). */
  ignoredGoal?: IgnoredGoalRecord;
  /** Every explicit switch of the goal, in order (absent when there was none). */
  goalSwitches?: GoalSwitchRecord[];
  /** Guard rounds allowed (`guardRounds`). */
  maxRounds: number;
  /** Guard rounds started: how often the coordinator was sent back. */
  rounds: number;
  /** Every run of the checks, in order. */
  checkRuns: CheckRunRecord[];
  /** Every reviewer verdict, in order (only with `review: true`). */
  reviews: ReviewRecord[];
  /** Subagent reports flagged as claims without evidence. */
  claimsFlagged: number;
  claims: FlaggedClaimRecord[];
  /**
   * passed: the last check run passed (and the reviewer, if any, found every criterion met);
   * goal-not-met: rounds ran out, or the reviewer's verdict could not be read; null while running.
   */
  outcome: "passed" | "goal-not-met" | null;
  /** The commands of the checks that passed in the last run, in order. */
  passedChecks: string[];
  /** Why the step ended goal-not-met, in one line. */
  why: string | null;
}

export function newGuardRecord(maxRounds: number): GuardRecord {
  return {
    maxRounds,
    rounds: 0,
    checkRuns: [],
    reviews: [],
    claimsFlagged: 0,
    claims: [],
    outcome: null,
    passedChecks: [],
    why: null,
  };
}
