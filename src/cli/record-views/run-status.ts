/**
 * Where a workflow run stands, for the commands that only read the run directory (`flower runs`,
 * `flower show`, bare `flower`): its steps in workflow order and one status for the run. Read from the
 * step records alone, as another process must.
 */
import type { StepRecord } from "../../records/step-record.js";
import { effectiveStatus, type RunDirectory } from "../../storage/run-directory.js";
import { defaultWorkflow } from "../../workflow/default-workflow.js";

export type RunState =
  "running" | "done" | "failed" | "stopped" | "goal-not-met" | "budget-reached" | "interrupted" | "paused";

export interface RunStatus {
  status: RunState;
  /** True when every recorded step is done and the run stopped after a step that pauses. */
  paused: boolean;
  /** The workflow name of the step the run is on, or paused after; null when done. */
  at: string | null;
  /** The run's records in workflow order (steps of another workflow by start time). */
  steps: StepRecord[];
}

/** The status of one run from its steps' records (all with the same `run`). */
export function runStatus(records: readonly StepRecord[]): RunStatus {
  const workflow = defaultWorkflow().steps;
  const position = (record: StepRecord) => {
    const index = workflow.findIndex((step) => step.name === record.workflow?.name);
    return index === -1 ? workflow.length : index;
  };
  const steps = [...records].sort(
    (a, b) => position(a) - position(b) || a.startedAt.localeCompare(b.startedAt),
  );
  const unfinished = steps.find((record) => effectiveStatus(record) !== "done");
  if (unfinished) {
    return {
      status: effectiveStatus(unfinished),
      paused: false,
      at: unfinished.workflow?.name ?? unfinished.step,
      steps,
    };
  }
  const last = steps.at(-1);
  const name = last?.workflow?.name;
  const index = workflow.findIndex((step) => step.name === name);
  // Steps of the default workflow with more to come: stopped after a step that pauses is the pause
  // itself; after any other, the process ended between two steps (continue goes on from there).
  const ofDefault = steps.every((record) => workflow.some((step) => step.name === record.workflow?.name));
  if (ofDefault && index !== -1 && index < workflow.length - 1) {
    const pauses = workflow[index]!.pause === true;
    return { status: pauses ? "paused" : "interrupted", paused: pauses, at: name ?? null, steps };
  }
  return { status: "done", paused: false, at: null, steps };
}

/** Step names of steps run on their own, and run ids: what `continue` and `show` accept by name. */
export function knownNames(runDirectory: RunDirectory): string[] {
  const names: string[] = [];
  for (const record of runDirectory.steps()) {
    const name = record.run ?? record.step;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}
