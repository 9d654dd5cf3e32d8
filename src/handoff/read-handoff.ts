/**
 * Reading a handoff back from what a model wrote, or from the frozen file after a person edited it.
 * The tolerant parser is the one every frozen document uses (documents/parse.ts); this file gives it
 * the handoff's grammar: its heading words (heading-aliases.ts) and its title in both locales.
 */
import {
  parseSections as parseDocumentSections,
  type DocumentGrammar,
  type ParsedSections,
} from "../documents/parse.js";
import { LOCALES } from "../locale/locale.js";
import { Handoff } from "./handoff-document.js";
import { ALIAS_TABLE } from "./heading-aliases.js";
import type { HandoffSectionName } from "../handoff-sections.js";
import { HANDOFF_TITLE } from "./handoff-document-text.js";

export type { ParsedSections } from "../documents/parse.js";

/** The handoff's headings, and its frozen title (with or without a step) in either locale. */
const GRAMMAR: DocumentGrammar = {
  table: ALIAS_TABLE,
  isTitle: (first) =>
    LOCALES.some((locale) => {
      const title = HANDOFF_TITLE[locale];
      const withStep = title("\u0000").split("\u0000")[0] ?? "";
      return first === title("") || first.startsWith(withStep);
    }),
};

/** Parses a model's answer (or a frozen handoff file) into a Handoff. `step` goes only into the title. */
export function parseHandoff(text: string, step = ""): Handoff {
  const { sections, notes } = parseSections(text);
  return new Handoff({ step, ...sections, notes });
}

/** The sections found in `text`, without building a Handoff. */
export function parseSections(text: string): ParsedSections<HandoffSectionName> {
  return parseDocumentSections<HandoffSectionName>(text, GRAMMAR);
}
