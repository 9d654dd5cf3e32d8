/**
 * Where a workflow run stands, from its step records alone (so another process, after a pause or a
 * crash, knows): which steps are done (never redone), and which step is next — started fresh, or
 * continued from its record at the generation it reached.
 */
import { existsSync } from "node:fs";
import { readFrozenDocument } from "../documents/freeze.js";
import { parseDocument } from "../documents/read.js";
import { FlowerError, ConfigurationError } from "../errors.js";
import type { StepRecord } from "../records/step-record.js";
import type { Runtime } from "../runtime/runtime.js";
import { relocatedPath } from "../runtime/files/workspace-sync.js";
import { documentBasis } from "./document-basis.js";
import { workflowStepName, type Workflow, type WorkflowDocument } from "./workflow.js";

export interface WorkflowPosition {
  run: string;
  /** The task the run was started with. */
  task: string;
  /** Names of the steps that are done (their documents frozen), in order. */
  done: string[];
  /** The step to run next; null when every step is done. */
  next: {
    name: string;
    /** The record's step name (`<run>/<name>`). */
    step: string;
    index: number;
    /**
     * `start`: no record, or one without a session (cut off before its first session): started fresh.
     * `continue`: the record has a session or a pending handoff: continued at `generation`.
     */
    how: "start" | "continue";
    /** The generation the step reached (0 when it starts fresh). */
    generation: number;
    /** The record's status, when there is one. */
    status: StepRecord["status"] | null;
  } | null;
}

/** The records of a run's steps, by workflow step name. */
export function runRecords(rt: Runtime, run: string): Map<string, StepRecord> {
  const records = new Map<string, StepRecord>();
  for (const record of rt.records.list()) {
    if (record.run === run && record.workflow) records.set(record.workflow.name, record);
  }
  return records;
}

/** The run ids recorded in this run directory, most recently updated last. */
export function workflowRuns(rt: Runtime): string[] {
  const runs: string[] = [];
  for (const record of rt.records.list()) {
    if (record.run === undefined) continue;
    const at = runs.indexOf(record.run);
    if (at !== -1) runs.splice(at, 1);
    runs.push(record.run);
  }
  return runs;
}

/** Where `run` stopped. A run with no recorded step is an error naming the runs there are. */
export function workflowPosition(rt: Runtime, workflow: Workflow, run: string): WorkflowPosition {
  const records = runRecords(rt, run);
  const first = [...records.values()][0];
  if (!first?.workflow) {
    const known = workflowRuns(rt).join(", ") || "none";
    throw new ConfigurationError(
      "run",
      run,
      `a workflow run recorded in ${rt.records.location} (known: ${known})`,
    );
  }
  const done: string[] = [];
  for (const [index, step] of workflow.steps.entries()) {
    const record = records.get(step.name);
    if (record?.status === "done") {
      done.push(step.name);
      continue;
    }
    const continuable = !!record && (!!record.sessionId || !!record.pendingHandoff || !!record.pendingPrompt);
    return {
      run,
      task: first.workflow.task,
      done,
      next: {
        name: step.name,
        step: workflowStepName(run, step.name),
        index,
        how: continuable ? "continue" : "start",
        generation: continuable ? record.generations : 0,
        status: record?.status ?? null,
      },
    };
  }
  return { run, task: first.workflow.task, done, next: null };
}

/**
 * The documents frozen by the steps before `index`. Each is read from disk now, unless a step after the
 * one that froze it (up to and including step `index`, when it is continued) has begun: then the text
 * that step read is used and a different file is marked `changed` (document-basis.ts). `reread`: kinds
 * step `index` takes from disk even so (a person's explicit `--reread-goal`). A missing file is an error.
 */
export function frozenDocuments(
  rt: Runtime,
  workflow: Workflow,
  run: string,
  index: number,
  reread: readonly string[] = [],
): WorkflowDocument[] {
  const records = runRecords(rt, run);
  const current = workflow.steps[index]?.name;
  const now = rt.options.internal.now().toISOString();
  const documents: WorkflowDocument[] = [];
  for (const [position, step] of workflow.steps.slice(0, index).entries()) {
    const recorded = records.get(step.name)?.frozen;
    if (!step.freeze || !recorded) continue;
    // Recorded on another machine (a shared store): the same file in this workspace, when it is here.
    const frozen = { ...recorded, path: relocatedPath(recorded.path, rt.options.workspace) };
    if (!existsSync(frozen.path))
      throw new FlowerError(
        "configuration",
        `The ${frozen.kind} document of run ${run} is gone (${frozen.path}): the next step reads it from disk. Restore the file, or start a new run.`,
      );
    const read = readFrozenDocument(step.freeze, frozen.path, run);
    const later = workflow.steps.slice(position + 1, index + 1).map((next) => records.get(next.name));
    const basis = documentBasis(later, frozen.kind);
    const entry = { step: step.name, kind: frozen.kind, path: frozen.path };
    if (!basis) {
      documents.push({ ...entry, ...read, readAt: now });
      continue;
    }
    const changed = basis.entry.text !== read.text;
    if (basis.since === current && reread.includes(frozen.kind)) {
      documents.push({
        ...entry,
        ...read,
        readAt: now,
        ...(changed ? { changed: { since: basis.since, used: true } } : {}),
      });
      continue;
    }
    documents.push({
      ...entry,
      text: basis.entry.text,
      document: parseDocument(step.freeze, basis.entry.text, run),
      readAt: basis.entry.at,
      ...(changed ? { changed: { since: basis.since, used: false } } : {}),
    });
  }
  return documents;
}
