/**
 * A declared document (docs/workflows.md): what a workflow step must end with. The handoff is one such
 * document with a fixed shape; a DocumentSpec says the same things as data, so the requirements confirmation,
 * the goal and a user's own documents go through one parser, quality check, freeze and degraded path.
 */
import { ConfigurationError } from "../errors.js";
import { LOCALES, type Locale } from "../locale/locale.js";
import type { ParsedDocument } from "./document.js";
import { NOTES_KEY } from "./notes.js";

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

/** Validates a spec and returns it: every error names the bad field and value. */
export function defineDocument(spec: DocumentSpec): DocumentSpec {
  if (!spec || typeof spec !== "object")
    throw new ConfigurationError("document", spec, "a DocumentSpec object");
  if (typeof spec.kind !== "string" || !/^[\p{L}\p{N}_-]+$/u.test(spec.kind))
    throw new ConfigurationError("document kind", spec.kind, "a non-empty name of letters, digits, - or _");
  checkLocalText(`document ${spec.kind} title`, spec.title);
  checkLocalText(`document ${spec.kind} file`, spec.file);
  checkLocalText(`document ${spec.kind} instructions`, spec.instructions, true);
  for (const locale of LOCALES) {
    if (/[\\/]/.test(spec.file[locale]))
      throw new ConfigurationError(
        `document ${spec.kind} file.${locale}`,
        spec.file[locale],
        "a file name stem without / or \\",
      );
  }
  if (!Array.isArray(spec.sections) || spec.sections.length === 0)
    throw new ConfigurationError(`document ${spec.kind} sections`, spec.sections, "at least one section");
  const keys = new Set<string>();
  for (const section of spec.sections as readonly DocumentSection[]) {
    const key = (section as { key?: unknown })?.key;
    if (typeof key !== "string" || !/^[A-Za-z][A-Za-z0-9_-]*$/.test(key) || key === NOTES_KEY)
      throw new ConfigurationError(
        `document ${spec.kind} section key`,
        key,
        `a name of ASCII letters, digits, - or _ other than "${NOTES_KEY}"`,
      );
    if (keys.has(key))
      throw new ConfigurationError(`document ${spec.kind} section key`, key, "a key used once");
    keys.add(key);
    checkLocalText(`document ${spec.kind} section ${key} heading`, section.heading);
    if (section.hint !== undefined)
      checkLocalText(`document ${spec.kind} section ${key} hint`, section.hint, true);
    if (
      section.aliases !== undefined &&
      (!Array.isArray(section.aliases) ||
        (section.aliases as unknown[]).some((alias) => typeof alias !== "string" || alias.trim() === ""))
    )
      throw new ConfigurationError(
        `document ${spec.kind} section ${key} aliases`,
        section.aliases,
        "an array of non-empty strings",
      );
  }
  if (spec.check !== undefined && typeof spec.check !== "function")
    throw new ConfigurationError(
      `document ${spec.kind} check`,
      spec.check,
      "a function (document) => reason | null",
    );
  return spec;
}

/** The required sections' keys, in document order. */
export function requiredKeys(spec: DocumentSpec): string[] {
  return spec.sections.filter((section) => section.required === true).map((section) => section.key);
}

function checkLocalText(name: string, value: unknown, allowEmpty = false): void {
  const text = value as Record<string, unknown> | null | undefined;
  for (const locale of LOCALES) {
    const entry = text?.[locale];
    if (typeof entry !== "string" || (!allowEmpty && entry.trim() === ""))
      throw new ConfigurationError(`${name}.${locale}`, entry, "a non-empty string");
  }
}
