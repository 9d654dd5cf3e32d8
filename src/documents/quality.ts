/**
 * The quality check of a declared document: its required sections must be there and say something
 * (a heading with "TBD" under it counts as missing), and the spec's own check must pass (the goal must
 * yield a runnable check). Any failure gives one reason, which is what the record and the display show.
 */
import type { ParsedDocument } from "./document.js";
import { hollowContextOf } from "./grammar.js";
import { isHollowText } from "./hollow.js";
import { requiredKeys } from "./spec.js";

export interface DocumentAssessment {
  /** Required sections (keys) that are empty, only a placeholder, or near-empty. */
  missing: string[];
  /** Any section (required or not) that is written but says nothing. */
  hollow: string[];
  /** The spec's own check's reason, when it failed. */
  problem: string | null;
  /** Why the document is not usable (`missing: acceptance`, or the check's reason); null when it is. */
  why: string | null;
}

/** Assesses a document's sections by its spec. */
export function assessDocument(document: ParsedDocument): DocumentAssessment {
  const spec = document.spec;
  const context = hollowContextOf(spec);
  const hollowAt = (key: string): boolean => isHollowText(document.sections[key] ?? "", context);
  const missing = requiredKeys(spec).filter(hollowAt);
  const hollow = spec.sections
    .map((section) => section.key)
    .filter((key) => (document.sections[key] ?? "") !== "" && hollowAt(key));
  let problem: string | null = null;
  if (missing.length === 0 && spec.check) {
    try {
      problem = spec.check(document);
    } catch (error) {
      problem = `the ${spec.kind} check failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  const why = missing.length > 0 ? `missing: ${missing.join(", ")}` : problem;
  return { missing, hollow, problem, why };
}
