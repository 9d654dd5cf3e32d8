/**
 * The goal guard's parts (docs/workflows.md), which runtime/judge/goal-judge.ts wires into the work step:
 *
 * - {@link parseGoalChecks}: the frozen goal document's checks section → `GoalCheck[]` (+ the lines it
 *   could not read, so "no runnable check" is visible).
 * - {@link runChecks}: flower runs those checks itself, in the workspace, each in its own process
 *   group with a timeout, logs to `<logDir>/goal-check-<n>.run-<r>.log` (`goal-check-<n>.log` without
 *   a run number); {@link allPassed} decides the round.
 * - {@link guardRoundMessage}: what the coordinator is sent back with after a failed round;
 *   {@link guardStatusLine}: the live view's line.
 * - {@link assessClaim} + {@link claimFlagLine}: a subagent's report that claims success without naming
 *   a command or a file gets one flag line in the coordinator's view.
 */
export { runChecks, allPassed } from "./checks.js";
export type { RunChecksOptions, CheckResult, CheckFailure } from "./checks.js";
export { validateGoalCheck } from "./goal-check.js";
export type { GoalCheck, GoalCheckExpectation } from "./goal-check.js";
export { guardRoundMessage, guardStatusLine, describeFailure } from "./guard-message.js";
export type { GuardRoundMessageOptions, GuardStatusOptions, CheckOutcome } from "./guard-message.js";
export { assessClaim, claimFlagLine } from "./claims.js";
export type { ClaimAssessment } from "./claims.js";
export { parseGoalChecks, parseChecksSection, findChecksSection } from "./goal-document.js";
export type { ParsedGoalChecks } from "./goal-document.js";
export { GOAL_DEFAULTS } from "../defaults.js";
export { resolveGoalOption, MAX_GUARD_ROUNDS } from "./goal-option.js";
export type { GoalOption, ResolvedGoal } from "./goal-option.js";
export { parseReviewVerdict } from "./review-verdict.js";
export type { ReviewVerdict, ReviewCriterion, ReviewVerdictKind } from "./review-verdict.js";
export { reviewPrompt, reviewRoundMessage, REVIEW_SIGNATURE, REVIEWER_INSTRUCTIONS } from "./review-text.js";
