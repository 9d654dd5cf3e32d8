/**
 * Running a workflow (docs/workflows.md): its steps in order, each a NEW session (never a resume of the
 * previous step's), each prompt built from the documents as they are on disk when the step starts — unless a
 * step already began with a document: then the text it read is used and a changed file is reported, not used
 * (document-basis.ts; `rereadGoal` takes the goal file as it is). A step whose record is done is never
 * redone; a step cut off (crash, stop) is continued from its record; the run pauses where the workflow (or
 * `pauseAfter`) says, and `continueWorkflow` — in this process or another — goes on from there.
 */
import { GOAL } from "../documents/builtin/goal.js";
import { checkpoint } from "../fs/checkpoint.js";
import { documentRequest } from "../documents/instructions.js";
import type { FrozenDocumentRecord } from "../records/frozen-document-record.js";
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import { toStepResult, type StepRecord, type StepResult } from "../records/step-record.js";
import type { RunOptions, Runtime } from "../runtime/runtime.js";
import { effectiveLocale } from "../runtime/drive/step-settings.js";
import { documentsAtEnd, type DocumentAtEnd } from "./documents-at-end.js";
import { frozenDocuments, runRecords, workflowPosition, workflowRuns } from "./position.js";
import { defaultStepPrompt } from "./step-prompt.js";
import {
  RUN_ID,
  defineWorkflow,
  workflowStepName,
  type Workflow,
  type WorkflowDocument,
} from "./workflow.js";

export interface WorkflowOptions {
  /** The run id (names the frozen files: `需求-<run>.md`). @default a new id from the clock, e.g. `20261130-142600` */
  run?: string;
  /**
   * Where the run pauses for a person: after the named step(s), or `false` to run straight through
   * (the CLI's `--yes`). @default the steps that declare `pause` (the default workflow: requirements)
   */
  pauseAfter?: string | readonly string[] | false;
  /** Passed to each step: wait for another live driver instead of failing (see RunOptions.wait). */
  wait?: boolean | number;
}

export interface ContinueWorkflowOptions extends Omit<WorkflowOptions, "run"> {
  /**
   * Use the goal file as it is on disk now, although the work began with another version (the CLI's
   * `--reread-goal`). Without it, a goal file changed after the work began is reported and not used:
   * the work step's guard runs the goal recorded when it began. The record keeps both goals and the
   * moment of the switch (`guard.goalSwitches`). Only the goal: the requirements the goal step began
   * with stay. @default false
   */
  rereadGoal?: boolean;
}

/** Every option name of runWorkflow and continueWorkflow, checked against their interfaces by the compiler. */
const RUN_KNOWN = { run: true, pauseAfter: true, wait: true } as const satisfies Record<
  keyof WorkflowOptions,
  true
>;
const CONTINUE_KNOWN = { pauseAfter: true, wait: true, rereadGoal: true } as const satisfies Record<
  keyof ContinueWorkflowOptions,
  true
>;

export interface WorkflowStepOutcome {
  /** The step's name in the workflow. */
  name: string;
  /** Its record's step name (`<run>/<name>`). */
  step: string;
  /** `ran`: it ran (or was continued) in this call; `skipped`: it was done before and not redone. */
  how: "ran" | "skipped";
  /** The step's result: cost, turns, generations, errors (from its record when skipped). */
  result: StepResult;
  /** Its frozen document, when it declared one. */
  frozen?: FrozenDocumentRecord;
}

export interface WorkflowPause {
  /** The step the run paused after, and the step `continueWorkflow` starts with. */
  after: string;
  next: string;
  /** The document the paused step froze (its path), as it is on disk now; null without one. */
  document: WorkflowDocument | null;
  /** The document's open questions (its `openQuestions` section), "" when none. */
  openQuestions: string;
}

export interface WorkflowResult {
  run: string;
  /** `done`: every step done; `paused`: stopped for a person (see `paused`); `stopped`: rt.stop(). */
  status: "done" | "paused" | "stopped";
  /** Every step that is done or ran in this call, in order. */
  steps: WorkflowStepOutcome[];
  /** Set when `status` is `paused`. */
  paused: WorkflowPause | null;
  /**
   * Documents of this run that are degraded as the following steps used them (the file as it is now,
   * when no later step has read it yet), with why: the run went on with them, and says so here.
   */
  degraded: DocumentAtEnd[];
  /**
   * Documents frozen degraded that a person filled in before the next step read them, with why they
   * were degraded when frozen. Their records keep `frozen.degraded` as it was at the freeze.
   */
  filledIn: DocumentAtEnd[];
}

/** Starts a new run of `workflow` on `task`. A step that fails throws StepFailedError (continuable). */
export async function runWorkflow(
  rt: Runtime,
  workflow: Workflow,
  task: string,
  options: WorkflowOptions = {},
): Promise<WorkflowResult> {
  const steps = defineWorkflow(workflow?.steps).steps;
  if (typeof task !== "string" || task.trim() === "")
    throw new ConfigurationError("task", task, "a non-empty task");
  checkOptions(options, RUN_KNOWN);
  let run = options.run;
  if (run === undefined) run = newRunId(rt);
  else {
    if (typeof run !== "string" || !RUN_ID.test(run))
      throw new ConfigurationError("run", run, "a run id of letters, digits, . - or _ (at most 80)");
    if (runRecords(rt, run).size > 0)
      throw new ConfigurationError("run", run, "a new run id (this run exists: use continueWorkflow)");
  }
  return drive(rt, withReview(steps, workflow), run, task, options);
}

/**
 * Continues a run where it stopped (a pause, a crash, a stop, a failure): done steps are skipped, a
 * step cut off is continued from its record, the rest run fresh.
 */
export async function continueWorkflow(
  rt: Runtime,
  workflow: Workflow,
  run: string,
  options: ContinueWorkflowOptions = {},
): Promise<WorkflowResult> {
  const steps = defineWorkflow(workflow?.steps).steps;
  checkOptions(options, CONTINUE_KNOWN);
  if (options.rereadGoal !== undefined && typeof options.rereadGoal !== "boolean")
    throw new ConfigurationError("rereadGoal", options.rereadGoal, "a boolean");
  const position = workflowPosition(rt, { steps }, run);
  return drive(rt, withReview(steps, workflow), run, position.task, options);
}

/** The options object of a workflow call: known keys only (`pauseAftr: false` must not pause the run). */
function checkOptions(options: unknown, known: Readonly<Record<string, true>>): void {
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError("options", options, `an object (${Object.keys(known).join(", ")})`);
  refuseUnknownOptions(options, known);
}

/** The validated steps with the workflow's `review` (recorded with each step's settings). */
function withReview(steps: Workflow["steps"], workflow: Workflow): Workflow {
  return workflow.review === undefined ? { steps } : { steps, review: workflow.review };
}

async function drive(
  rt: Runtime,
  workflow: Workflow,
  run: string,
  task: string,
  options: ContinueWorkflowOptions,
): Promise<WorkflowResult> {
  // The run's language: as it was started (a later `continue` keeps it), unless the runtime names one.
  const o = rt.options;
  // Only the language is read here (no handoff line is built): each step's settings are decided once, by
  // its driver (step-settings.ts).
  const locale = effectiveLocale(o.given, rt.settingsOf(run), { env: o.childEnv, locale: o.locale });
  const pauseAfter = pausePoints(workflow, options.pauseAfter);
  const outcomes: WorkflowStepOutcome[] = [];
  const total = workflow.steps.length;
  for (const [index, step] of workflow.steps.entries()) {
    const name = workflowStepName(run, step.name);
    const event = { type: "workflow-step", run, step: name, name: step.name, index, total } as const;
    const record = rt.records.get(name);
    if (record?.status === "done" && record.run === run) {
      rt.emit({ ...event, phase: "skip" });
      outcomes.push(outcome(step.name, name, "skipped", record));
      continue;
    }
    // Read now, not earlier: a person may have edited the files while the run was paused. Frozen on
    // another machine (a shared store), they are written into this workspace first.
    await rt.restoreNotes();
    // Once a step has begun with a document, that text is used, not the file (document-basis.ts).
    const reread = options.rereadGoal === true ? [GOAL.kind] : [];
    const documents = frozenDocuments(rt, workflow, run, index, reread);
    const input = { run, task, locale, documents };
    const agent = typeof step.agent === "function" ? step.agent(locale) : step.agent;
    const now = rt.options.internal.now().toISOString();
    const read = documents.map(({ kind, path, text, readAt }) => ({ kind, path, text, at: readAt ?? now }));
    const runOptions: RunOptions = {
      ...(step.options?.(input) ?? {}),
      ...(options.wait !== undefined ? { wait: options.wait } : {}),
      workflow: {
        run,
        name: step.name,
        task,
        ...(step.freeze ? { document: step.freeze.kind } : {}),
        ...(workflow.review !== undefined ? { review: workflow.review } : {}),
        ...(read.length > 0 ? { read } : {}),
      },
      ...(step.freeze ? { freeze: step.freeze } : {}),
    };
    const resumes =
      record?.run === run && (!!record.sessionId || !!record.pendingHandoff || !!record.pendingPrompt);
    rt.emit({ ...event, phase: "start", resumed: resumes });
    for (const document of documents) {
      if (!document.changed) continue;
      const spec = workflow.steps.find((candidate) => candidate.name === document.step)?.freeze;
      rt.emit({
        type: "document-changed",
        run,
        step: name,
        kind: document.kind,
        title: spec ? spec.title[locale] : document.kind,
        path: document.path,
        ...document.changed,
      });
    }
    if (resumes) {
      const goalFile = documents.find((document) => document.kind === GOAL.kind);
      const rereadGoal = options.rereadGoal === true;
      // A goal file re-read as asked must still hold a goal: dropping the guard is not a switch.
      if (rereadGoal && runOptions.goal === undefined && record.guard?.goal)
        throw new ConfigurationError(
          "rereadGoal",
          goalFile?.path ?? run,
          "a goal file with at least one runnable check (the recorded goal stays until then)",
        );
      await rt.continue(name, agent, {
        ...runOptions,
        // A document step cut off mid-way is asked for its document; the work step just goes on.
        ...(step.freeze ? { prompt: documentRequest(step.freeze, locale) } : {}),
        ...(rereadGoal ? { replaceGoal: true } : {}),
        ...(goalFile ? { goalFile: goalFile.path } : {}),
      });
    } else {
      await rt.run(name, agent, (step.prompt ?? defaultStepPrompt)(input), runOptions);
    }
    const after = rt.records.get(name)!;
    if (after.status !== "done") {
      outcomes.push(outcome(step.name, name, "ran", after));
      return finish(rt, workflow, run, "stopped", outcomes, null);
    }
    rt.emit({ ...event, phase: "done" });
    outcomes.push(outcome(step.name, name, "ran", after));
    const next = workflow.steps[index + 1];
    if (next && pauseAfter.has(step.name)) {
      // The pause is the records' state (step done, the next not begun); what follows only reports it.
      checkpoint("workflow-pause");
      rt.emit({ ...event, phase: "paused" });
      const document =
        frozenDocuments(rt, workflow, run, index + 1).find((entry) => entry.step === step.name) ?? null;
      const openQuestions =
        document && "openQuestions" in document.document.sections
          ? (document.document.sections.openQuestions ?? "")
          : "";
      return finish(rt, workflow, run, "paused", outcomes, {
        after: step.name,
        next: next.name,
        document,
        openQuestions,
      });
    }
  }
  return finish(rt, workflow, run, "done", outcomes, null);
}

function outcome(
  name: string,
  step: string,
  how: WorkflowStepOutcome["how"],
  record: StepRecord,
): WorkflowStepOutcome {
  return {
    name,
    step,
    how,
    result: toStepResult(record),
    ...(record.frozen ? { frozen: { ...record.frozen } } : {}),
  };
}

function finish(
  rt: Runtime,
  workflow: Workflow,
  run: string,
  status: WorkflowResult["status"],
  steps: WorkflowStepOutcome[],
  paused: WorkflowPause | null,
): WorkflowResult {
  // As the steps used the documents, not as they were frozen: a person may have filled one in.
  const { degraded, filledIn } = documentsAtEnd(workflow, runRecords(rt, run), run, rt.options.workspace);
  return { run, status, steps, paused, degraded, filledIn };
}

/** The step names the run pauses after. */
function pausePoints(workflow: Workflow, pauseAfter: WorkflowOptions["pauseAfter"]): Set<string> {
  if (pauseAfter === false) return new Set();
  if (pauseAfter === undefined)
    return new Set(workflow.steps.filter((step) => step.pause === true).map((step) => step.name));
  const names = typeof pauseAfter === "string" ? [pauseAfter] : pauseAfter;
  if (!Array.isArray(names))
    throw new ConfigurationError("pauseAfter", pauseAfter, "a step name, a list of them, or false");
  for (const name of names as unknown[]) {
    if (!workflow.steps.some((step) => step.name === name))
      throw new ConfigurationError(
        "pauseAfter",
        name,
        `one of ${workflow.steps.map((step) => step.name).join(", ")}`,
      );
  }
  return new Set(names as readonly string[]);
}

/** `YYYYMMDD-HHMMSS` (UTC) from the runtime's clock; `-2`, `-3`... when that run id is taken. */
function newRunId(rt: Runtime): string {
  const now = rt.options.internal.now().toISOString();
  const base = `${now.slice(0, 10).replace(/-/g, "")}-${now.slice(11, 19).replace(/:/g, "")}`;
  const taken = new Set(workflowRuns(rt));
  let run = base;
  for (let n = 2; taken.has(run); n++) run = `${base}-${n}`;
  return run;
}
