/**
 * The run's frozen documents as its end reports them: degraded or not as the following steps used them,
 * not as they were frozen. A person who fills in the missing section at the pause has fixed the document
 * (the next step reads the file again and is not told it is degraded); an end line that still said "the
 * run went on with a degraded one" would be untrue. The record's `frozen.degraded` stays as history.
 *
 * A document is judged by the text the first later step that began read (document-basis.ts: that text
 * is what counts from then on), else by the file as it is now (no later step has read it yet: a pause, a
 * stop). Neither — no later step has read it, and the file is gone — leaves the record's word.
 */
import { readFileSync } from "node:fs";
import { parseDocument } from "../documents/read.js";
import type { DocumentSpec } from "../documents/spec.js";
import type { StepRecord } from "../records/step-record.js";
import { relocatedPath } from "../runtime/workspace-sync.js";
import { documentBasis } from "./document-basis.js";
import type { Workflow } from "./workflow.js";

/** A frozen document of the run, named for the end of the run. */
export interface DocumentAtEnd {
  /** The workflow step that froze it. */
  name: string;
  /** The spec's kind ("requirements", "goal", ...). */
  kind: string;
  /** The frozen file (in this workspace). */
  path: string;
  /** In `degraded`: why it is degraded as it was used. In `filledIn`: why it was degraded when frozen. */
  why: string;
}

export interface DocumentsAtEnd {
  /** Degraded as the following steps used it (or as the file reads now, when none has read it yet). */
  degraded: DocumentAtEnd[];
  /** Frozen degraded, complete as the following steps used it: a person filled it in. */
  filledIn: DocumentAtEnd[];
}

/**
 * Assesses each document the run's steps froze. `records`: the run's step records by workflow step
 * name; `workspace`: where the files are read (a record made on another machine names its own path).
 */
export function documentsAtEnd(
  workflow: Workflow,
  records: ReadonlyMap<string, StepRecord>,
  run: string,
  workspace: string,
): DocumentsAtEnd {
  const result: DocumentsAtEnd = { degraded: [], filledIn: [] };
  for (const [position, step] of workflow.steps.entries()) {
    const frozen = records.get(step.name)?.frozen;
    if (!step.freeze || !frozen) continue;
    const path = relocatedPath(frozen.path, workspace);
    const later = workflow.steps.slice(position + 1).map((next) => records.get(next.name));
    const text = documentBasis(later, frozen.kind)?.entry.text ?? readIfThere(path);
    const why =
      text === null ? (frozen.degraded ? (frozen.why ?? "") : null) : degradedWhy(step.freeze, text, run);
    const entry = { name: step.name, kind: frozen.kind, path };
    if (why !== null) result.degraded.push({ ...entry, why });
    else if (frozen.degraded) result.filledIn.push({ ...entry, why: frozen.why ?? "" });
  }
  return result;
}

/** Why the text is not a usable document (read.ts: the degraded line dropped, judged again); null when it is. */
function degradedWhy(spec: DocumentSpec, text: string, run: string): string | null {
  return parseDocument(spec, text, run).degraded;
}

/** The file's text; null when it is gone or unreadable (the run is over: its result must not be lost). */
function readIfThere(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
