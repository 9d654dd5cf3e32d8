/** The built-in documents by kind: what `flower show` needs to read a frozen file back by its record. */
import type { DocumentSpec } from "../document.js";
import { GOAL } from "./goal.js";
import { REQUIREMENTS } from "./requirements.js";

export const BUILT_IN_DOCUMENTS: Readonly<Record<string, DocumentSpec>> = {
  [REQUIREMENTS.kind]: REQUIREMENTS,
  [GOAL.kind]: GOAL,
};

/** The built-in spec of `kind`; undefined for a kind declared in someone's code (read by its headings). */
export function builtInSpec(kind: string): DocumentSpec | undefined {
  return Object.hasOwn(BUILT_IN_DOCUMENTS, kind) ? BUILT_IN_DOCUMENTS[kind] : undefined;
}
