/**
 * Which frozen documents of a run differ on disk from the text in use: once a step has begun
 * with a document, that text is used and a later edit is not (workflow/document-basis.ts). `flower show`
 * reads the files as they are now, so it says so even when the run has not been continued since.
 */
import { readFileSync } from "node:fs";
import type { StepRecord } from "../../records/step-record.js";
import { documentBasis, type DocumentBasis } from "../../workflow/document-basis.js";
import type { StepSource } from "./step-source.js";

/** A document whose file differs from the text in use: that text, and the step that began with it. */
export interface InUse {
  since: string;
  text: string;
}

/**
 * The text in use of the document `frozenBy` froze and the workflow step that began with it, when the
 * file now differs from it; null when it does not (or no later step has begun, or the file is not
 * here). `ordered`: the run's records in workflow order.
 */
export function changedInUse(
  frozenBy: StepRecord,
  ordered: readonly StepRecord[],
  source: StepSource,
): InUse | null {
  const frozen = frozenBy.frozen;
  if (!frozen) return null;
  const basis = documentBasis(ordered.slice(ordered.indexOf(frozenBy) + 1), frozen.kind);
  return differsFromUse(basis, source.locate(frozen.path).file);
}

/** The text in use and the step that began with it, when `file` (null: not here) differs from it. */
export function differsFromUse(basis: DocumentBasis | undefined, file: string | null): InUse | null {
  if (!basis || file === null) return null;
  const text = basis.entry.text;
  return readFileSync(file, "utf8") === text ? null : { since: basis.since, text };
}
