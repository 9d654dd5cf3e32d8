/**
 * Declaring a run as ordered steps (docs/workflows.md). A step is an ordinary agent step with a name, a
 * prompt built when it starts, and optionally a document it must end with (`freeze`). What makes it a
 * workflow is the seam between steps: the next step is a NEW session whose prompt is built from the frozen
 * file(s) as they are on disk at that moment — never a resume of the previous step's session, so a person's
 * edit counts and nothing of the previous conversation leaks across.
 */
import type { AgentSpec } from "../agents/agent-spec.js";
import type { DocumentSpec, ParsedDocument } from "../documents/document.js";
import { ConfigurationError } from "../errors.js";
import type { Locale } from "../locale/locale.js";
import type { RunOptions } from "../runtime/runtime.js";

/**
 * A document an earlier step of the run froze: as it is on disk now (a person may have edited it), or,
 * once a later step has begun with it, as that step read it (document-basis.ts).
 */
export interface WorkflowDocument {
  /** The step (its name in the workflow) that froze it. */
  step: string;
  /** The spec's kind ("requirements", "goal", ...). */
  kind: string;
  path: string;
  /** The text used: the file's text as on disk now, or as the step that began with it read it. */
  text: string;
  /** The same text parsed by its spec; `degraded` says whether it is usable as it now stands. */
  document: ParsedDocument;
  /**
   * Set when the file on disk differs from the text the step `since` began with: `used` false, the
   * recorded text is used (the change is reported); true, the file was re-read as asked (`--reread-goal`).
   */
  changed?: { since: string; used: boolean };
  /** When the text used was read (ISO): when `since` began with it, or now. */
  readAt?: string;
}

/** What a step's prompt and options are built from, when it starts. */
export interface StepInput {
  run: string;
  /** The task the run was started with, as typed. */
  task: string;
  locale: Locale;
  /** Documents frozen by the earlier steps of this run, read from disk now, in step order. */
  documents: WorkflowDocument[];
}

export interface WorkflowStep {
  /** Unique in the workflow; the record's step name is `<run>/<name>`. */
  name: string;
  /** The agent, or a function of the run's locale (a document agent's instructions are per locale). */
  agent: AgentSpec | ((locale: Locale) => AgentSpec);
  /**
   * The step's first prompt. @default the task, then every document frozen so far (their text as on
   * disk), with a header saying they are the confirmed basis and win over the task's wording
   */
  prompt?: (input: StepInput) => string;
  /** The document this step must end with: parsed, checked, frozen; degraded when unusable. */
  freeze?: DocumentSpec;
  /** The run pauses after this step unless `pauseAfter` says otherwise. @default false */
  pause?: boolean;
  /** More run options for this step, computed when it starts (a handoff policy; the work step's goal). */
  options?: (input: StepInput) => Omit<RunOptions, "freeze" | "workflow">;
}

export interface Workflow {
  readonly steps: readonly WorkflowStep[];
  /**
   * The work is judged by the goal guard's reviewer (the default workflow's `review`): recorded with
   * every step of a run, so `flower continue <run>` rebuilds the workflow as the run was started.
   */
  readonly review?: boolean;
}

/** Validates the steps (names unique and file-name safe, an agent each) and returns the workflow. */
export function defineWorkflow(steps: readonly WorkflowStep[]): Workflow {
  if (!Array.isArray(steps) || steps.length === 0)
    throw new ConfigurationError("workflow steps", steps, "a non-empty array of steps");
  const names = new Set<string>();
  for (const step of steps as readonly WorkflowStep[]) {
    const name = (step as { name?: unknown } | null)?.name;
    if (typeof name !== "string" || !STEP_NAME.test(name))
      throw new ConfigurationError("workflow step name", name, "a name of letters, digits, . - or _");
    if (names.has(name)) throw new ConfigurationError("workflow step name", name, "a name used once");
    names.add(name);
    if (!step.agent || (typeof step.agent !== "function" && typeof step.agent !== "object"))
      throw new ConfigurationError(
        `workflow step ${name} agent`,
        step.agent,
        "an AgentSpec or (locale) => AgentSpec",
      );
    for (const field of ["prompt", "options"] as const) {
      if (step[field] !== undefined && typeof step[field] !== "function")
        throw new ConfigurationError(
          `workflow step ${name} ${field}`,
          step[field],
          "a function (input) => ...",
        );
    }
    if (step.pause !== undefined && typeof step.pause !== "boolean")
      throw new ConfigurationError(`workflow step ${name} pause`, step.pause, "a boolean");
  }
  return { steps: [...(steps as readonly WorkflowStep[])] };
}

const STEP_NAME = /^[\p{L}\p{N}_-][\p{L}\p{N}._-]*$/u;
/** A run id: the same characters as a step name (it names files), and not too long. */
export const RUN_ID = /^[\p{L}\p{N}_-][\p{L}\p{N}._-]{0,79}$/u;

/** The record's step name of a workflow step: `<run>/<name>`. */
export function workflowStepName(run: string, name: string): string {
  return `${run}/${name}`;
}
