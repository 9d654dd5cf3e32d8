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
