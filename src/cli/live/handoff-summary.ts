/**
 * The four summary lines of a handoff (doing / decided / dead ends / next): printed by the live view
 * when a generation hands off, and by `flower show` for the current handoff.
 */
import type { Locale } from "../../locale/locale.js";
import type { HandoffSectionName } from "../../handoff-sections.js";
import { EMPTY_SECTION, SUMMARY_LABELS } from "../../handoff/handoff-document-text.js";
import { DISPLAY_TEXT } from "./display-text.js";
import { cut, oneLine } from "./terminal-text.js";

const SUMMARY_SECTIONS = ["doing", "decided", "deadends", "next"] as const;

/** Summary values longer than this are cut: the document on disk has the rest. */
const SUMMARY_MAX_CHARS = 200;

/** The four summary lines of a handoff (doing / decided / dead ends / next), as printed on a switch. */
export function handoffSummary(
  sections: Partial<Record<HandoffSectionName, string>>,
  locale: Locale,
): string[] {
  return SUMMARY_SECTIONS.map(
    (name) => `  - ${SUMMARY_LABELS[locale][name]}${summaryValue(sections[name], locale)}`,
  );
}

/** One summary value: the section's lines joined into one, bullets dropped, cut when long. */
export function summaryValue(text: string | undefined, locale: Locale): string {
  const items = (text ?? "")
    .split("\n")
    .map((line) => line.trim().replace(/^(?:[-*+]|\d+[.)])\s+/, ""))
    .filter((line) => line !== "" && !/^(`{3,}|~{3,})/.test(line));
  if (items.length === 0) return EMPTY_SECTION[locale];
  const joined = items
    // The items become one line: a full stop inside it would read as the end of the value.
    .map((item, index) => (index < items.length - 1 ? item.replace(/[。.;;]+$/u, "") : item))
    .join(DISPLAY_TEXT[locale].joiner);
  return cut(oneLine(joined), SUMMARY_MAX_CHARS);
}
