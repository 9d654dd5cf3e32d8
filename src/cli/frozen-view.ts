/**
 * A step's frozen document for `flower show`, like the current handoff: where it is, whether it was
 * degraded, whether a person changed it after it was frozen, and one summary line per section — read
 * from the file as it is on disk now, because that (not what the agent wrote) is what the next step
 * reads.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { BUILT_IN_DOCUMENTS } from "../documents/builtin/index.js";
import { parseDocument } from "../documents/read.js";
import type { FrozenDocumentRecord } from "../records/frozen-document-record.js";
import { produceDocument } from "../documents/produce.js";
import type { DocumentSpec } from "../documents/spec.js";
import { LOCALES, type Locale } from "../locale/locale.js";
import type { InUse } from "./changed-documents.js";
import { CHANGED_TEXT } from "./changed-text.js";
import { documentSummary, type SummarySection } from "./document-summary.js";
import { oneLine } from "./terminal-text.js";
import { CLI_TEXT } from "./text.js";

/** For a kind the CLI cannot render: a file younger than this after the freeze is the freeze itself. */
const EDIT_SLACK_MS = 1_000;

/**
 * The lines of a step's frozen document. `answer` is the step's final answer (its record's `result`):
 * what was frozen is rendered from it again, so a person's edit shows as a difference from it.
 * `inUse`: a later step began with another text than the file holds now (issue 22): that text is the
 * one used, so its sections are listed and the header says the file's change is not used.
 */
export function frozenDocumentLines(
  frozen: FrozenDocumentRecord,
  run: string,
  answer: string | null,
  locale: Locale,
  inUse: InUse | null = null,
): string[] {
  const t = CLI_TEXT[locale].show;
  // A built-in kind is read with its spec; another kind is shown by its file's own headings.
  const spec = Object.hasOwn(BUILT_IN_DOCUMENTS, frozen.kind) ? BUILT_IN_DOCUMENTS[frozen.kind] : undefined;
  const title = spec ? spec.title[locale] : frozen.kind;
  const notes: string[] = [];
  if (frozen.degraded) notes.push(t.degraded(frozen.why ?? ""));
  if (!existsSync(frozen.path)) return [`${t.frozenDocument(title, frozen.path)} ${t.missingFile}`];
  if (inUse) notes.push(`! ${CHANGED_TEXT[locale].changed(inUse.since, false)}`);
  else if (editedAfterFreeze(frozen, spec, run, answer)) notes.push(t.editedAfterFreeze);
  const header = `${t.frozenDocument(title, frozen.path)}${notes.map((note) => ` · ${note}`).join("")}`;
  const text = inUse?.text ?? readFileSync(frozen.path, "utf8");
  return [header, ...documentSummary(sectionsOf(spec, text, run, locale), locale)];
}

/** A frozen document for the report (issue 23): its sections as frozen, and what changed since. */
export interface FrozenDocumentView {
  title: string;
  /** Degraded, changed on disk after the freeze, or changed after a later step began and not used. */
  notes: string[];
  sections: SummarySection[];
}

/**
 * The document as frozen: for a built-in kind its text is rendered again from the step's answer
 * (freezing is deterministic), in the language of the file when it is one of them; another kind is
 * read from the file. Null when the file is gone and the text cannot be rendered again.
 */
export function frozenDocumentView(
  frozen: FrozenDocumentRecord,
  run: string,
  answer: string | null,
  locale: Locale,
  inUse: InUse | null = null,
): FrozenDocumentView | null {
  const t = CLI_TEXT[locale].show;
  const spec = Object.hasOwn(BUILT_IN_DOCUMENTS, frozen.kind) ? BUILT_IN_DOCUMENTS[frozen.kind] : undefined;
  const title = spec ? spec.title[locale] : frozen.kind;
  const notes: string[] = [];
  if (frozen.degraded) notes.push(t.degraded(frozen.why ?? ""));
  const present = existsSync(frozen.path);
  if (!present) notes.push(t.missingFile);
  if (inUse) notes.push(CHANGED_TEXT[locale].changed(inUse.since, false));
  else if (present && editedAfterFreeze(frozen, spec, run, answer)) notes.push(t.editedAfterFreeze);
  if (!spec) {
    if (!present) return null;
    return { title, notes, sections: sectionsOf(undefined, readFileSync(frozen.path, "utf8"), run, locale) };
  }
  const produced = produceDocument(spec, answer, { run, error: frozen.why }).document;
  const onDisk = present ? readFileSync(frozen.path, "utf8") : null;
  const language = LOCALES.find((candidate) => produced.toMarkdown(candidate) === onDisk) ?? locale;
  return { title, notes, sections: sectionsOf(spec, produced.toMarkdown(language), run, locale) };
}

/**
 * Whether the file differs from what was frozen. For a known kind, the frozen text is rendered again
 * from the step's answer (freezing is deterministic) in either language; for another kind, only the
 * file's time can tell.
 */
function editedAfterFreeze(
  frozen: FrozenDocumentRecord,
  spec: DocumentSpec | undefined,
  run: string,
  answer: string | null,
): boolean {
  if (!spec) return statSync(frozen.path).mtimeMs > Date.parse(frozen.at) + EDIT_SLACK_MS;
  const text = readFileSync(frozen.path, "utf8");
  const produced = produceDocument(spec, answer, { run, error: frozen.why }).document;
  return !LOCALES.some((language) => produced.toMarkdown(language) === text);
}

function sectionsOf(
  spec: DocumentSpec | undefined,
  text: string,
  run: string,
  locale: Locale,
): SummarySection[] {
  if (spec) {
    const document = parseDocument(spec, text, run);
    return spec.sections.map((section) => ({
      label: section.heading[locale],
      text: document.sections[section.key],
    }));
  }
  // A kind declared in someone's code: its sections are the file's `##` headings.
  const sections: SummarySection[] = [];
  for (const line of text.split(/\r?\n/)) {
    const heading = /^##\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) sections.push({ label: oneLine(heading[1]!), text: "" });
    else if (sections.length > 0) sections.at(-1)!.text += `${line}\n`;
  }
  return sections;
}
