/**
 * The goal guard's events: its checks ran, the coordinator was sent back, a subagent's claim was
 * flagged, the reviewer's verdict, and a goal offered for work under way. Part of the one event union
 * (events.ts, which re-exports them); declared apart because they are the guard's own vocabulary, written
 * by its books (guard-books.ts) and read by the views.
 */
import type { CheckFailureRecord, ReviewCriterionRecord } from "../records/guard-record.js";

/** One check's result in a `goal-checks` event. */
export interface GoalCheckSummary {
  index: number;
  command: string;
  passed: boolean;
  exitCode: number | null;
  durationMs: number;
  logPath: string;
  /** Why it failed, in plain English words; null when it passed. */
  reason: string | null;
  /** How it failed, as data, for a view in another language; null when it passed. */
  failure?: CheckFailureRecord | null;
}

/** flower ran the goal's checks itself: after the work step's session ended, and after each guard round. */
export interface GoalChecksEvent {
  type: "goal-checks";
  step: string;
  /** Guard rounds started before this run of the checks (0: after the first session). */
  round: number;
  passed: number;
  total: number;
  results: GoalCheckSummary[];
}

/** The coordinator is sent back to work: a check failed, or the reviewer found a criterion not met. */
export interface GuardRoundEvent {
  type: "guard-round";
  step: string;
  /** This round, 1-based. */
  round: number;
  /** The most rounds there will be (`guardRounds`). */
  rounds: number;
  /** Checks failing in the run that started this round, of `total`. */
  failing: number;
  total: number;
  /** What sent it back. */
  cause: "checks" | "review";
  /** Criteria the reviewer found not met (only when `cause` is "review"). */
  notMet: number;
}

/** A subagent's report claimed success without naming a command or a file. */
export interface ClaimFlaggedEvent {
  type: "claim-flagged";
  step: string;
  /** The subagent (subagent type), when known. */
  agent: string | null;
  matched: string[];
  /** The report's first characters. */
  excerpt: string;
}

/** The goal guard reviewer's verdict (`review: true`). */
export interface ReviewEvent {
  type: "review";
  step: string;
  round: number;
  outcome: "met" | "not-met" | "degraded";
  criteria: ReviewCriterionRecord[];
  why: string | null;
  answerPath: string | null;
}

/**
 * A goal was offered for a step whose work had begun (runtime/judge/frozen-goal.ts): `ignored`, the recorded goal
 * runs; `switched`, a person asked for the new one (`--reread-goal`, `replaceGoal: true`).
 */
export interface GoalChangeEvent {
  type: "goal-change";
  step: string;
  phase: "ignored" | "switched";
  /** The goal file it was read from, when known. */
  path: string | null;
  /** The check commands of the goal recorded when the work began, and of the one offered. */
  checks: { recorded: string[]; offered: string[] };
}
