/**
 * Which goal a step's guard runs: once the work has begun, the goal recorded at that
 * moment. A continue that brings another goal (an agent rewrote the goal file; a caller passed one) does
 * not change it: the recorded goal runs and the offered one is recorded as ignored. Only an explicit
 * `replaceGoal: true` (the CLI's `--reread-goal`) switches, and the record keeps both and when. Why:
 * nobody changes a goal under running or finished work without saying so (docs/workflows.md, "What a
 * frozen goal means once work began").
 */
import { isDeepStrictEqual } from "node:util";
import { resolveGoalOption, type ResolvedGoal } from "../../goal/goal-option.js";
import type { StoredGoal } from "../../records/guard-record.js";

/** What changed about the goal on this start of the step; the ledger records it and tells the views. */
export type GoalChange =
  | { kind: "ignored"; offered: StoredGoal; path: string | null }
  | { kind: "switched"; from: StoredGoal; path: string | null };

export interface GoalDecision {
  goal: ResolvedGoal | undefined;
  change: GoalChange | null;
}

/** The goal as the record keeps it (plain JSON; null texts left out). */
export function storedGoal(goal: ResolvedGoal): StoredGoal {
  return {
    checks: goal.checks,
    guardRounds: goal.guardRounds,
    review: goal.review,
    ...(goal.goalText !== null ? { goalText: goal.goalText } : {}),
    ...(goal.requirementsText !== null ? { requirementsText: goal.requirementsText } : {}),
  };
}

/**
 * `given`: the goal passed to this call; `recorded`: the one the step's record holds (a continue of a
 * step whose work began with a goal). Without a recorded goal the given one runs (a step that began
 * without a guard may get one: that only makes it stricter).
 */
export function decideGoal(
  given: ResolvedGoal | undefined,
  recorded: StoredGoal | undefined,
  replace: boolean,
  path: string | null,
): GoalDecision {
  if (recorded === undefined) return { goal: given, change: null };
  const kept = resolveGoalOption(recorded);
  if (given === undefined) return { goal: kept, change: null };
  const offered = storedGoal(given);
  // Compared in the record's form: JSON from the store has no undefined fields.
  if (isDeepStrictEqual(JSON.parse(JSON.stringify(offered)), JSON.parse(JSON.stringify(recorded))))
    return { goal: kept, change: null };
  if (replace) return { goal: given, change: { kind: "switched", from: recorded, path } };
  return { goal: kept, change: { kind: "ignored", offered, path } };
}
