/**
 * Where a run's frozen document stands, for `flower show`, `flower report` and `flower serve`: degraded
 * or filled in as the following steps used it (judged by workflow/documents-at-end.ts, the function the
 * end of the run uses, so a view never contradicts that line), whether the file now differs from the text
 * a later step began with, and whether any step will still read the file.
 */
import { builtInSpec } from "../../documents/builtin/index.js";
import type { StepRecord } from "../../records/step-record.js";
import { judgeFrozenDocument, type FrozenJudgement } from "../../workflow/documents-at-end.js";
import { differsFromUse, type InUse } from "./changed-documents.js";
import { runStatus } from "./run-status.js";
import type { StepSource } from "./step-source.js";

export interface FrozenState {
  /** Degraded, or filled in since the freeze, as the following steps used it; the step that began with it. */
  judged: FrozenJudgement;
  /** The file differs from the text a later step began with: that text is the one used. */
  inUse: InUse | null;
  /** The run is done: no step of it reads the file again. */
  finished: boolean;
}

/**
 * The state of the document `frozenBy` froze. `ordered`: the run's records in workflow order
 * (run-status.ts); a kind the CLI cannot parse keeps the record's word on degraded.
 */
export function frozenState(
  frozenBy: StepRecord,
  ordered: readonly StepRecord[],
  source: StepSource,
): FrozenState | null {
  const frozen = frozenBy.frozen;
  if (!frozen) return null;
  const later = ordered.slice(ordered.indexOf(frozenBy) + 1);
  const file = source.locate(frozen.path).file;
  const judged = judgeFrozenDocument(
    builtInSpec(frozen.kind),
    frozen,
    later,
    frozenBy.run ?? frozenBy.step,
    file,
  );
  // The judgement found the step that began with the document: the change is measured against its text.
  return {
    judged,
    inUse: differsFromUse(judged.basis, file),
    finished: runStatus(ordered).status === "done",
  };
}
