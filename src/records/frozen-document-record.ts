/** What a step's record keeps about the document it froze (`StepRecord.frozen`). Plain data: JSON. */

export interface FrozenDocumentRecord {
  /** The spec's kind: "requirements", "goal", or a custom one. */
  kind: string;
  /** The frozen file (under `<workbench>/notes/`). */
  path: string;
  /** Where the previous version was archived, when there was one. */
  archived: string | null;
  /** True when the answer was unusable and the document was frozen marked degraded. */
  degraded: boolean;
  /** Why it degraded (`missing: acceptance`, `no runnable check ...`); null when not degraded. */
  why: string | null;
  /** Required sections (keys) that were missing or hollow in what the agent wrote. */
  missing: string[];
  /** When it was frozen (ISO). */
  at: string;
}

/**
 * A document of an earlier workflow step as a step read it when it began (`WorkflowMembership.read`).
 * From then on this text is the one used: a later edit of the file is reported, not used, unless a
 * person asks for it (`flower continue <run> --reread-goal` for the goal).
 */
export interface ReadDocumentRecord {
  /** The spec's kind ("requirements", "goal", ...). */
  kind: string;
  path: string;
  /** The file's text as read. */
  text: string;
  /** When it was read (ISO). */
  at: string;
}
