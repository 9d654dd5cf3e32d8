/**
 * Which text of a frozen document a workflow step uses. A person may edit a frozen file until
 * the next step that reads it begins; from then on the text that step read (its record's
 * `workflow.read`) is the one used — by it when it is continued, and by every later step — and a later
 * edit of the file is reported ("changed on disk after the work began — not used"), never used, unless a
 * person asks for it explicitly (`flower continue <run> --reread-goal`: the goal file only).
 *
 * Who changed the file, and when, is unknown (a person, or an agent of the running step): flower says
 * only that the file differs from what the step began with.
 */
import type { ReadDocumentRecord } from "../records/frozen-document-record.js";
import type { StepRecord } from "../records/step-record.js";

/** A step has begun once it has (or had) a session, or a handoff waiting for its successor. */
export function began(record: StepRecord): boolean {
  return (
    record.status === "done" ||
    record.history.length > 0 ||
    !!record.sessionId ||
    !!record.pendingHandoff ||
    !!record.pendingPrompt
  );
}

/** The text a later step that began read, and that step's name in the workflow. */
export interface DocumentBasis {
  /** The workflow step (its name) that first began with this text. */
  since: string;
  entry: ReadDocumentRecord;
}

/**
 * The text of a document of `kind` the steps after its own use: what the first of `later` (the records
 * of the steps after the one that froze it, in workflow order) that began read; undefined when none of
 * them has begun, or their records predate `read` (the file is read as it is then).
 */
export function documentBasis(
  later: readonly (StepRecord | undefined)[],
  kind: string,
): DocumentBasis | undefined {
  for (const record of later) {
    if (!record || !began(record)) continue;
    const entry = record.workflow?.read?.find((read) => read.kind === kind);
    if (entry) return { since: record.workflow?.name ?? record.step, entry };
  }
  return undefined;
}
