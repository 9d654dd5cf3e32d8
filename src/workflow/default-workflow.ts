/**
 * The default run (docs/workflows.md): requirements → goal → work. The first two steps are read-only agents
 * that end in frozen documents; the run pauses after the requirements so a person can read and edit them; the
 * work step is the coordinator as before, given the goal's checks for the goal guard.
 */
import type { AgentSpec } from "../agents/agent-spec.js";
import { defaultTeam } from "../agents/default-team.js";
import { GOAL, goalChecks } from "../documents/builtin/goal.js";
import { REQUIREMENTS } from "../documents/builtin/requirements.js";
import type { Locale } from "../locale/locale.js";
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import { documentAgent } from "./document-agent.js";
import { promptText, workStepPrompt } from "./step-prompt.js";
import { defineWorkflow, type StepInput, type Workflow, type WorkflowStep } from "./workflow.js";
import type { RunOptions } from "../runtime/runtime.js";

export interface DefaultWorkflowOptions {
  /**
   * The work step's agent, or a function of the locale. @default defaultTeam — the CLI's coordinator
   * with an engineer and an analyst, in the run's language
   */
  work?: AgentSpec | ((locale: Locale) => AgentSpec);
  /** Model of the two document agents. @default the runtime's model */
  model?: string;
  /** The goal guard's reviewer after the work step's checks pass (CLI `--review`). @default false */
  review?: boolean;
}

/** The names of the default workflow's steps, in order. */
export const DEFAULT_STEPS = ["requirements", "goal", "work"] as const;

/**
 * requirements (pauses after) → goal → work. `defaultWorkflow()` is exactly what `flower "<task>"` runs
 * (`{ review: true }` what `flower --review` runs); the CLI builds its workflow with this function.
 */
export function defaultWorkflow(options: DefaultWorkflowOptions = {}): Workflow {
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError("defaultWorkflow options", options, "an object, e.g. { review: true }");
  refuseUnknownOptions(
    options,
    { work: true, model: true, review: true } satisfies Record<keyof DefaultWorkflowOptions, true>,
    "defaultWorkflow ",
  );
  if (
    options.work !== undefined &&
    ((typeof options.work !== "object" && typeof options.work !== "function") || options.work === null)
  )
    throw new ConfigurationError(
      "defaultWorkflow work",
      options.work,
      "the work step's AgentSpec or (locale) => AgentSpec",
    );
  const work = options.work ?? ((locale: Locale) => defaultTeam(locale));
  const model = options.model ? { model: options.model } : {};
  const workflow = defineWorkflow([
    {
      name: "requirements",
      agent: (locale) => documentAgent(REQUIREMENTS, locale, model),
      freeze: REQUIREMENTS,
      pause: true,
    },
    { name: "goal", agent: (locale) => documentAgent(GOAL, locale, model), freeze: GOAL },
    {
      name: "work",
      agent: work,
      prompt: workStepPrompt,
      options: (input: StepInput) => goalOption(input, options.review ?? false),
    },
  ] satisfies WorkflowStep[]);
  return { ...workflow, review: options.review ?? false };
}

/**
 * The goal guard's option for the work step: the frozen goal's runnable checks (read from the file as
 * it is now) and the two documents' text for the reviewer. No checks and no reviewer, no option: the
 * work step ends as it did before the guard.
 */
export function goalOption(input: StepInput, review = false): Pick<RunOptions, "goal"> {
  const goal = input.documents.find((entry) => entry.kind === GOAL.kind);
  const requirements = input.documents.find((entry) => entry.kind === REQUIREMENTS.kind);
  const checks = goal ? goalChecks(goal.document).checks : [];
  if (checks.length === 0 && !review) return {};
  return {
    goal: {
      checks,
      ...(review ? { review } : {}),
      // As the prompts carry them: a stale degraded line must not tell the reviewer otherwise.
      ...(goal ? { goalText: promptText(goal) } : {}),
      ...(requirements ? { requirementsText: promptText(requirements) } : {}),
    },
  };
}
