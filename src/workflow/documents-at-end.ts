/**
 * The run's frozen documents as its end reports them: degraded or not as the following steps used them,
 * not as they were frozen. A person who fills in the missing section at the pause has fixed the document
 * (the next step reads the file again and is not told it is degraded); an end line that still said "the
 * run went on with a degraded one" would be untrue. The record's `frozen.degraded` stays as history.
 *
 * A document is judged by the text the first later step that began read (document-basis.ts: that text
 * is what counts from then on), else by the file as it is now (no later step has read it yet: a pause, a
 * stop). Neither — no later step has read it, and the file is gone — leaves the record's word.
 * `flower show`, `flower report` and `flower serve` judge a document with the same function, so a view
 * never calls degraded what the end of the run called filled in.
 */
import { readFileSync } from "node:fs";
import { parseDocument } from "../documents/read.js";
import type { DocumentSpec } from "../documents/document.js";
import type { FrozenDocumentRecord } from "../records/frozen-document-record.js";
import type { StepRecord } from "../records/step-record.js";
import { relocatedPath } from "../runtime/files/workspace-sync.js";
import { documentBasis, type DocumentBasis } from "./document-basis.js";
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
    const judged = judgeFrozenDocument(step.freeze, frozen, later, run, path);
    const entry = { name: step.name, kind: frozen.kind, path };
    if (judged.degraded !== null) result.degraded.push({ ...entry, why: judged.degraded });
    else if (judged.filledIn !== null) result.filledIn.push({ ...entry, why: judged.filledIn });
  }
  return result;
}

/** One frozen document judged as the following steps used it. */
export interface FrozenJudgement {
  /** Why it is degraded as used (as the file reads now, when no later step has read it); else null. */
  degraded: string | null;
  /** Why it was degraded when frozen, when it was and is complete as used (a person filled it in). */
  filledIn: string | null;
  /** The later step that began with it and the text it read; undefined when none has (the file counts). */
  basis: DocumentBasis | undefined;
}

/**
 * Judges the document `frozen` records, as `documentsAtEnd` does for each (and `flower show`, `flower
 * report` and `flower serve` for theirs, so every view says the same). `later`: the records of the steps
 * after the one that froze it, in workflow order; `file`: where the file is read here (null: not here).
 * Without a spec (a kind declared in someone's code the reader cannot parse), the record's word stands.
 */
export function judgeFrozenDocument(
  spec: DocumentSpec | undefined,
  frozen: Pick<FrozenDocumentRecord, "kind" | "degraded" | "why">,
  later: readonly (StepRecord | undefined)[],
  run: string,
  file: string | null,
): FrozenJudgement {
  const basis = documentBasis(later, frozen.kind);
  const atFreeze = frozen.degraded ? (frozen.why ?? "") : null;
  const text = basis?.entry.text ?? (file === null ? null : readIfThere(file));
  // read.ts drops flower's own degraded line and judges the text again.
  const degraded = !spec || text === null ? atFreeze : parseDocument(spec, text, run).degraded;
  return { degraded, filledIn: degraded === null ? atFreeze : null, basis };
}

/** The file's text; null when it is gone or unreadable (the run is over: its result must not be lost). */
function readIfThere(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
