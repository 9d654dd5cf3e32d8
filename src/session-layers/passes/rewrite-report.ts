import type { Entry } from "./transcript-entries.js";

/** What a load rewrote. The same six numbers reach the runtime's `store-load` event and the manifest. */
export interface RewriteReport {
  /** Ephemeral command results replaced by the expiry hint. */
  expired: number;
  /** Long tool results spilled to `<workspace>/.flower/spill/` and replaced by a pointer. */
  trimmed: number;
  /** Denied tool calls removed together with their tool_use. */
  prunedDenials: number;
  /** Synthetic API-error entries (`isApiErrorMessage` assistants, `system/api_error`) dropped. */
  prunedApiErrors: number;
  /** Tool results left by an interruption, replaced by the neutral note. */
  interrupted: number;
  /** Characters of message content (text, tool results, tool inputs) no longer fed back to the model. */
  charsSaved: number;
}

export function emptyReport(): RewriteReport {
  return { expired: 0, trimmed: 0, prunedDenials: 0, prunedApiErrors: 0, interrupted: 0, charsSaved: 0 };
}

export function addReports(a: RewriteReport, b: Partial<RewriteReport>): RewriteReport {
  return {
    expired: a.expired + (b.expired ?? 0),
    trimmed: a.trimmed + (b.trimmed ?? 0),
    prunedDenials: a.prunedDenials + (b.prunedDenials ?? 0),
    prunedApiErrors: a.prunedApiErrors + (b.prunedApiErrors ?? 0),
    interrupted: a.interrupted + (b.interrupted ?? 0),
    charsSaved: a.charsSaved + (b.charsSaved ?? 0),
  };
}

/** What every pass returns: a new entry list (the input is never mutated) and its share of the report. */
export interface PassResult {
  entries: Entry[];
  report: Partial<RewriteReport>;
}
