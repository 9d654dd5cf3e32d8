/**
 * A declared document (docs/workflows.md): what a workflow step must end with, and that document as
 * written. The handoff is one such document with a fixed shape; a DocumentSpec says the same things as
 * data, so the requirements confirmation, the goal and a user's own documents go through one parser,
 * quality check, freeze and degraded path.
 *
 * The spec and the written document are declared together because each names the other: a
 * ParsedDocument holds its spec, and a spec's `check` reads a ParsedDocument. In two files, the two would
 * import each other (scripts/check-layers.mjs refuses a file cycle); `defineDocument`, which validates a
 * spec, is in spec.ts.
 *
 * A ParsedDocument: its sections by key, the lines that belong to none (`notes`), and whether it is
 * degraded (with the reason). The handoff is the same shape with five fixed sections; this class serves
 * every DocumentSpec. Rendering is deterministic, so a frozen file read back and frozen again is the same
 * file.
 */
import type { Locale } from "../locale/locale.js";
import { ConfigurationError } from "../errors.js";
import { normalizeSection } from "./normalize.js";
import { NOTES_HEADING } from "./notes.js";
import { DEGRADED_LINE, EMPTY_SECTION } from "./document-text.js";

/** Text in both languages: the zh side is what a Chinese run shows, the en side an English one. */
export type LocalText = Readonly<Record<Locale, string>>;

export interface DocumentSection {
  /** Stable machine name (`task`, `acceptance`): record fields and code use it, never the heading. */
  key: string;
  /** The heading the document is frozen with and the agent is asked to write, per locale. */
  heading: LocalText;
  /**
   * More heading words a model (or a person) may write for this section, any language, any case.
   * The two headings and the key are always recognised. @default none
   */
  aliases?: readonly string[];
  /** A required section that is missing or hollow makes the document degraded. @default false */
  required?: boolean;
  /** One line telling the agent what goes here, per locale (shown under the heading in the prompt). */
  hint?: LocalText;
}

export interface DocumentSpec {
  /** What kind of document: "requirements", "goal", or your own. Recorded as `frozen.kind`. */
  kind: string;
  /** The document's title per locale (`需求确认书` / `Requirements confirmation`); the run id is added. */
  title: LocalText;
  /** File name stem per locale: frozen to `<notes>/<stem>-<run>.md` (`需求-<run>.md`). */
  file: LocalText;
  /** The sections in document order. */
  sections: readonly DocumentSection[];
  /** What the writing agent is told to do, per locale (appended to its system prompt). */
  instructions: LocalText;
  /**
   * A check beyond the required sections, run on the document as written and again on the file read
   * back: a reason string makes it degraded (e.g. the goal: "no runnable check"); null = fine.
   */
  check?: (document: ParsedDocument) => string | null;
}

export interface ParsedDocumentInit {
  /** The run id; used only in the title, never parsed back. */
  run?: string;
  /** Section text by key; keys the spec does not declare are an error. */
  sections?: Readonly<Partial<Record<string, string>>>;
  /** What was written outside the sections, kept in a trailing block. */
  notes?: string;
  /** Why the document is not usable as written; null (the default) for a usable one. */
  degraded?: string | null;
}

/** One line of a document's summary: a section's heading and its text (for the live view). */
export interface DocumentSummaryLine {
  key: string;
  heading: string;
  text: string;
}

export class ParsedDocument {
  readonly spec: DocumentSpec;
  readonly run: string;
  /** Every declared section by key, in document order; "" for an empty one. */
  readonly sections: Readonly<Record<string, string>>;
  /** Lines that belong to no section; "" when none. */
  readonly notes: string;
  /** Why the document is degraded; null for a usable document. */
  readonly degraded: string | null;

  constructor(spec: DocumentSpec, init: ParsedDocumentInit = {}) {
    this.spec = spec;
    this.run = (init.run ?? "").trim();
    const sections: Record<string, string> = {};
    for (const section of spec.sections)
      sections[section.key] = normalizeSection(init.sections?.[section.key]);
    for (const key of Object.keys(init.sections ?? {})) {
      if (!(key in sections))
        throw new ConfigurationError(
          `${spec.kind} section`,
          key,
          `one of ${spec.sections.map((section) => section.key).join(", ")}`,
        );
    }
    this.sections = sections;
    this.notes = normalizeSection(init.notes);
    this.degraded = init.degraded ? oneLine(init.degraded) : null;
  }

  /** A section's text by key ("" when empty); an undeclared key is an error naming it. */
  section(key: string): string {
    const text = this.sections[key];
    if (text === undefined)
      throw new ConfigurationError(
        `${this.spec.kind} section`,
        key,
        `one of ${this.spec.sections.map((section) => section.key).join(", ")}`,
      );
    return text;
  }

  /** The same document marked degraded with `why` (nothing else changes: nothing written is lost). */
  withDegraded(why: string | null): ParsedDocument {
    return new ParsedDocument(this.spec, {
      run: this.run,
      sections: this.sections,
      notes: this.notes,
      degraded: why,
    });
  }

  /** The title line as frozen: `# 需求确认书:<run>` / `# Requirements confirmation: <run>`. */
  title(locale: Locale): string {
    return documentTitle(this.spec, locale, this.run);
  }

  /**
   * The document as frozen to disk: title, the degraded line when degraded, every declared section
   * (empty ones read `(空)` / `(empty)`), and the other-notes block when there is something in it.
   */
  toMarkdown(locale: Locale): string {
    const parts = [this.title(locale)];
    if (this.degraded) parts.push(DEGRADED_LINE[locale](this.degraded));
    for (const section of this.spec.sections) {
      parts.push(`## ${section.heading[locale]}\n${this.sections[section.key] || EMPTY_SECTION[locale]}`);
    }
    if (this.notes) parts.push(`## ${NOTES_HEADING[locale]}\n${this.notes}`);
    return `${parts.join("\n\n")}\n`;
  }

  /** Heading and text per declared section, in order: what a display shows when the document freezes. */
  summary(locale: Locale): DocumentSummaryLine[] {
    return this.spec.sections.map((section) => ({
      key: section.key,
      heading: section.heading[locale],
      text: this.sections[section.key] ?? "",
    }));
  }
}

/** `# <title>:<run>` (zh, ASCII colon: locale/locale.ts) or `# <title>: <run>` (en). */
export function documentTitle(spec: DocumentSpec, locale: Locale, run: string): string {
  const title = spec.title[locale];
  if (!run) return `# ${title}`;
  return locale === "zh" ? `# ${title}:${run}` : `# ${title}: ${run}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
