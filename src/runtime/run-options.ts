/**
 * What a caller may say about one step (`rt.run()` / `rt.continue()`): the public options of a step,
 * apart from the runtime's own. Validated where the caller hands them over (runtime.ts).
 */
import type { DocumentSpec } from "../documents/document.js";
import type { GoalOption } from "../goal/goal-option.js";
import type { HandoffPolicy } from "../handoff/policy.js";
import type { WorkflowMembership } from "../records/step-record.js";

export interface RunOptions {
  /**
   * Handoff policy for this step only (e.g. per model or per role): its given fields override the
   * runtime's, and on `continue` the step's recorded handoff line (an override event each).
   */
  handoff?: HandoffPolicy | boolean;
  /**
   * When another live driver holds the step: wait for it (true: as long as it takes; a number: at most
   * that many ms) instead of failing with LeaseHeldError at once. @default false
   */
  wait?: boolean | number;
  /**
   * The document this step must end with: its final answer is parsed, checked, and frozen to
   * `<workbench>/notes/<stem>-<run>.md` — marked degraded, with the reason, when it is unusable — and
   * the record gets `frozen`. The file name uses `workflow.run`, else the step name.
   */
  freeze?: DocumentSpec;
  /** The step is part of a workflow run (set by `runWorkflow`): recorded as `run` and `workflow`. */
  workflow?: WorkflowMembership;
  /**
   * The goal guard: when the step's session completes, flower runs these checks itself in the
   * workspace; a failing check sends the session back with the evidence (a guard round), and after
   * `guardRounds` the step ends with status "goal-not-met" (returned, not thrown; the CLI exits 1).
   * Also flags subagent reports that claim success without evidence, and with `review: true` asks a
   * read-only reviewer after the checks pass. On `continue`, given, it replaces the recorded goal (a
   * different `review` is an override event). @default none; on `continue`, the goal recorded with the step
   */
  goal?: GoalOption;
}

export interface ContinueOptions extends RunOptions {
  /** The prompt the resumed session gets. @default "Continue the task." (zh: "继续。") */
  prompt?: string;
  /**
   * A step whose work began with a goal keeps that goal: a different `goal` given here is
   * not used, and the record keeps it as ignored (`guard.ignoredGoal`). `true` says the given goal
   * replaces the recorded one; the record keeps both and when (`guard.goalSwitches`). @default false
   */
  replaceGoal?: boolean;
  /** The file the given goal was read from (the frozen goal document), for the record and the views. */
  goalFile?: string;
}

/** Every option name of `rt.run()`, checked against RunOptions by the compiler. */
export const RUN_OPTION_NAMES = {
  handoff: true,
  wait: true,
  freeze: true,
  workflow: true,
  goal: true,
} as const satisfies Record<keyof RunOptions, true>;

/** Every option name of `rt.continue()`, checked against ContinueOptions by the compiler. */
export const CONTINUE_OPTION_NAMES = {
  ...RUN_OPTION_NAMES,
  prompt: true,
  replaceGoal: true,
  goalFile: true,
} as const satisfies Record<keyof ContinueOptions, true>;
