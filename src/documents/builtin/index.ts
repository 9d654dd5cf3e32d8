/** The built-in documents by kind: what `flower show` needs to read a frozen file back by its record. */
import type { DocumentSpec } from "../spec.js";
import { GOAL } from "./goal.js";
import { REQUIREMENTS } from "./requirements.js";

export const BUILT_IN_DOCUMENTS: Readonly<Record<string, DocumentSpec>> = {
  [REQUIREMENTS.kind]: REQUIREMENTS,
  [GOAL.kind]: GOAL,
};
