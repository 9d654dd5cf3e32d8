/**
 * The `goal` option of a step (`rt.run(step, spec, prompt, { goal })`): the frozen goal's checks and how
 * hard to hold the step to them. Validated once, before the step starts, so a bad check fails the call
 * with a ConfigurationError naming it instead of failing an hour later after the work was done.
 */
import { ConfigurationError } from "../errors.js";
import { GOAL_DEFAULTS } from "../defaults.js";
import { validateGoalCheck, type GoalCheck } from "./goal-check.js";

export interface GoalOption {
  /** The checks flower runs itself when the work step's session ends (from `parseGoalChecks(...).checks`). */
  checks: GoalCheck[];
  /**
   * How often the coordinator may be sent back (a guard round) before the step ends `goal-not-met`.
   * @default 3
   */
  guardRounds?: number;
  /** The frozen goal document as on disk: what the reviewer reads. */
  goalText?: string;
  /** The frozen requirements (with their acceptance criteria): what the reviewer reads. */
  requirementsText?: string;
  /**
   * After the checks pass, a reviewer session with a fresh context and read-only tools judges each
   * acceptance criterion: met / not met / cannot tell. "Not met" starts a guard round.
   * @default false
   */
  review?: boolean;
}

export interface ResolvedGoal {
  checks: GoalCheck[];
  guardRounds: number;
  goalText: string | null;
  requirementsText: string | null;
  review: boolean;
}

/** More rounds than this is a mistake (a unit or a loop), not a policy. */
export const MAX_GUARD_ROUNDS = 20;

/** Validates the option; throws a ConfigurationError naming the bad field (`goal.checks[1].command`). */
export function resolveGoalOption(value: unknown): ResolvedGoal {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ConfigurationError(
      "goal",
      value,
      "an object { checks, guardRounds?, goalText?, requirementsText?, review? }",
    );
  const goal = value as Record<string, unknown>;
  const known = ["checks", "guardRounds", "goalText", "requirementsText", "review"];
  for (const key of Object.keys(goal)) {
    if (!known.includes(key))
      throw new ConfigurationError(`goal.${key}`, goal[key], `a known field (${known.join(", ")})`);
  }
  const review = goal.review ?? false;
  if (typeof review !== "boolean") throw new ConfigurationError("goal.review", review, "a boolean");
  const { checks } = goal;
  if (!Array.isArray(checks)) throw new ConfigurationError("goal.checks", checks, "an array of goal checks");
  // No check and no reviewer would pass vacuously: "done" would again be the agent's word alone.
  if (checks.length === 0 && !review)
    throw new ConfigurationError(
      "goal.checks",
      checks,
      "at least one check (or review: true): an empty list would pass vacuously",
    );
  checks.forEach((check, position) => validateGoalCheck(check, `goal.checks[${position}]`));
  const guardRounds = goal.guardRounds ?? GOAL_DEFAULTS.guardRounds;
  if (
    typeof guardRounds !== "number" ||
    !Number.isInteger(guardRounds) ||
    guardRounds < 1 ||
    guardRounds > MAX_GUARD_ROUNDS
  )
    throw new ConfigurationError(
      "goal.guardRounds",
      guardRounds,
      `a whole number from 1 to ${MAX_GUARD_ROUNDS}`,
    );
  for (const name of ["goalText", "requirementsText"] as const) {
    if (goal[name] !== undefined && typeof goal[name] !== "string")
      throw new ConfigurationError(`goal.${name}`, goal[name], "a string (the frozen document's text)");
  }
  const goalText = typeof goal.goalText === "string" && goal.goalText.trim() !== "" ? goal.goalText : null;
  const requirementsText =
    typeof goal.requirementsText === "string" && goal.requirementsText.trim() !== ""
      ? goal.requirementsText
      : null;
  return {
    checks: (checks as GoalCheck[]).map((check) => structuredClone(check)),
    guardRounds,
    goalText,
    requirementsText,
    review,
  };
}
