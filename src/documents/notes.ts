/**
 * The trailing block of a frozen document that holds what the model wrote outside its sections: a
 * preamble before the first heading, closing remarks after the last section, the text around a fenced
 * document. Nothing a model writes is dropped on the way to the next reader; what belongs to no section
 * lands here, under a heading the parser reads back, so a frozen file keeps it through every round trip.
 * The handoff was the first document with this block; every declared document has it too.
 */
import type { Locale } from "../locale/locale.js";

/** The block's key among a document's sections (a declared section may not use it). */
export const NOTES_KEY = "notes";

/** The block's heading in the frozen file. */
export const NOTES_HEADING: Readonly<Record<Locale, string>> = { zh: "其他说明", en: "Other notes" };

/**
 * Headings that start the block when a model (or a person editing the file) writes them. Kept to
 * unmistakable phrases: a plain "Notes:" inside a section is the section's own content.
 */
export const NOTES_ALIASES: readonly string[] = [
  NOTES_HEADING.zh,
  NOTES_HEADING.en.toLowerCase(),
  "其他备注",
  "补充说明",
  "additional notes",
  "closing remarks",
];
