/**
 * The summary lines of a frozen document (requirements, goal, or a step's own): one line per section,
 * its heading as the label and its text joined into one line, like the handoff's four summary lines.
 * Printed by the live view when a document freezes and by `flower show`. A person reads these to decide
 * whether to open the file, so every section is shown, empty ones too: an empty "acceptance" is news.
 */
import type { Locale } from "../../locale/locale.js";
import { EMPTY_SECTION } from "../../handoff/handoff-document-text.js";
import { summaryValue } from "../live/handoff-summary.js";
import { columnsOf } from "../live/terminal-text.js";

export interface SummarySection {
  /** The section's heading in the display language. */
  label: string;
  /** The section's text as frozen (or as edited on disk); undefined or "" when empty. */
  text: string | undefined;
}

/** `  - <label>  <value>` per section, labels padded to one column so the values line up. */
export function documentSummary(sections: readonly SummarySection[], locale: Locale): string[] {
  const width = Math.max(0, ...sections.map((section) => columnsOf(section.label)));
  return sections.map((section) => {
    const pad = " ".repeat(width - columnsOf(section.label) + 2);
    return `  - ${section.label}${pad}${summaryValue(section.text, locale)}`;
  });
}

/**
 * The items of one section as a list (bullets and numbering dropped, blank lines skipped): how the pause
 * prints the open questions, one per line, so a person sees each question they are asked.
 */
export function sectionItems(text: string | undefined): string[] {
  return (text ?? "")
    .split("\n")
    .map((line) => line.trim().replace(/^(?:[-*+]|\d+[.)])\s+/, ""))
    .filter((line) => line !== "" && !/^(`{3,}|~{3,})/.test(line) && !EMPTY_MARKERS.has(line));
}

/** What a frozen file says for an empty section, in either language: no item. */
const EMPTY_MARKERS = new Set<string>(Object.values(EMPTY_SECTION));
