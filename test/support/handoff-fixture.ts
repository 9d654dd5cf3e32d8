/**
 * A handoff as a model writes it in the writing turn, built from its sections, so a test names what
 * the handoff says and not how the markdown is laid out. Headings are the ones the prompt asks for
 * (`SECTION_HEADINGS`), in document order; sections left out are not written at all.
 *
 * Parser tests keep their markdown literal: there the layout is what is under test.
 */
import { HANDOFF_SECTIONS, type HandoffSectionName } from "../../src/handoff-sections.js";
import { SECTION_HEADINGS } from "../../src/handoff/handoff-document-text.js";
import type { Locale } from "../../src/locale/locale.js";

/** A paragraph, or a list (one `- ` item per entry). */
export type SectionText = string | readonly string[];

export type HandoffFixture = Partial<Record<HandoffSectionName, SectionText>> & {
  /** What the model says before the document, as models do. */
  preamble?: string;
  /** @default "en" */
  locale?: Locale;
};

export function handoffMarkdown(fixture: HandoffFixture): string {
  const headings = SECTION_HEADINGS[fixture.locale ?? "en"];
  const sections: string[] = [];
  for (const section of HANDOFF_SECTIONS) {
    const body = fixture[section];
    if (body === undefined) continue;
    const text = typeof body === "string" ? body : body.map((item) => `- ${item}`).join("\n");
    sections.push(`## ${headings[section]}\n${text}`);
  }
  if (sections.length === 0) throw new Error("handoffMarkdown: give at least one section");
  return [...(fixture.preamble === undefined ? [] : [fixture.preamble]), ...sections].join("\n\n");
}
