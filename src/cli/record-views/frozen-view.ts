/**
 * A step's frozen document for `flower show`, like the current handoff: where it is, whether it is
 * degraded or was filled in since it was frozen (judged as the following steps used it, by the function
 * the end of the run uses: the record's `frozen.degraded` is only what was frozen), whether a person
 * changed it after it was frozen and what that change meant, and one summary line per section — read
 * from the file as it is on disk now, because that (not what the agent wrote) is what the next step
 * reads.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { builtInSpec } from "../../documents/builtin/index.js";
import { parseDocument } from "../../documents/read.js";
import type { FrozenDocumentRecord } from "../../records/frozen-document-record.js";
import { produceDocument } from "../../documents/produce.js";
import type { DocumentSpec } from "../../documents/document.js";
import { LOCALES, type Locale } from "../../locale/locale.js";
import { CHANGED_TEXT } from "./changed-text.js";
import { documentSummary, type SummarySection } from "./document-summary.js";
import type { FrozenState } from "./frozen-state.js";
import { oneLine } from "../live/terminal-text.js";
import { CLI_TEXT } from "../cli-text.js";

/** For a kind the CLI cannot render: a file younger than this after the freeze is the freeze itself. */
const EDIT_SLACK_MS = 1_000;

/**
 * The lines of a step's frozen document. `answer` is the step's final answer (its record's `result`):
 * what was frozen is rendered from it again, so a person's edit shows as a difference from it.
 * `state` (frozen-state.ts): degraded or filled in as used; when a later step began with another text
 * than the file holds now (workflow/document-basis.ts), that text is the one used, so its sections are listed
 * and the header says the file's change is not used. Null: the record's word, and the file as it is.
 */
export function frozenDocumentLines(
  frozen: FrozenDocumentRecord,
  run: string,
  answer: string | null,
  locale: Locale,
  state: FrozenState | null = null,
): string[] {
  const t = CLI_TEXT[locale].show;
  // A built-in kind is read with its spec; another kind is shown by its file's own headings.
  const spec = builtInSpec(frozen.kind);
  const title = spec ? spec.title[locale] : frozen.kind;
  if (!existsSync(frozen.path)) return [`${t.frozenDocument(title, frozen.path)} ${t.missingFile}`];
  const changes = changeNotes(frozen, spec, run, answer, locale, state);
  // A change that is not used is the one a reader must not miss.
  const notes = [
    ...degradedNotes(frozen, state, locale),
    ...(state?.inUse ? changes.map((note) => `! ${note}`) : changes),
  ];
  const header = `${t.frozenDocument(title, frozen.path)}${notes.map((note) => ` · ${note}`).join("")}`;
  const text = state?.inUse?.text ?? readFileSync(frozen.path, "utf8");
  return [header, ...documentSummary(sectionsOf(spec, text, run, locale), locale)];
}

/** A frozen document for the report: its sections as the steps read them, and what changed since. */
export interface FrozenDocumentView {
  title: string;
  /**
   * Degraded or filled in since, changed on disk after the freeze, or changed after a later step began
   * and not used.
   */
  notes: string[];
  /** Each section as read; `changed`: it differs from the text as frozen (a person's edit at the pause). */
  sections: Array<SummarySection & { changed?: boolean }>;
}

/**
 * The document as the run's steps read it, as `flower show` shows it: the text a later step began with
 * when the file changed after that (the change not used), else the file as it is (what the next step
 * read, or will). A section that differs from the text as frozen is marked: the report showed the text
 * as first frozen, flagged "changed on disk", while the goal step had read the person's edit. The
 * frozen text of a built-in kind is rendered again from the step's answer (freezing is deterministic),
 * in the language of the file when it is one of them; another kind is read from the file, unmarked.
 * Null when the file is gone and the text cannot be rendered again.
 */
export function frozenDocumentView(
  frozen: FrozenDocumentRecord,
  run: string,
  answer: string | null,
  locale: Locale,
  state: FrozenState | null = null,
): FrozenDocumentView | null {
  const t = CLI_TEXT[locale].show;
  const spec = builtInSpec(frozen.kind);
  const title = spec ? spec.title[locale] : frozen.kind;
  const present = existsSync(frozen.path);
  const notes = [
    ...degradedNotes(frozen, state, locale),
    ...(present ? changeNotes(frozen, spec, run, answer, locale, state) : [t.missingFile]),
  ];
  if (!spec) {
    if (!present) return null;
    return { title, notes, sections: sectionsOf(undefined, readFileSync(frozen.path, "utf8"), run, locale) };
  }
  const produced = produceDocument(spec, answer, { run, error: frozen.why }).document;
  const onDisk = present ? readFileSync(frozen.path, "utf8") : null;
  const language = LOCALES.find((candidate) => produced.toMarkdown(candidate) === onDisk) ?? locale;
  const asFrozen = sectionsOf(spec, produced.toMarkdown(language), run, locale);
  const read = state?.inUse?.text ?? onDisk;
  if (read === null) return { title, notes, sections: asFrozen };
  const asRead = sectionsOf(spec, read, run, locale);
  return {
    title,
    notes,
    sections: asRead.map((section, index) =>
      sameText(section.text, asFrozen[index]?.text) ? section : { ...section, changed: true },
    ),
  };
}

/** Two sections' texts alike but for surrounding blank space (a file saved with another line end). */
function sameText(a: string | undefined, b: string | undefined): boolean {
  return (a ?? "").trim() === (b ?? "").trim();
}

/**
 * Degraded as the following steps used it (or as the file reads now), or degraded when frozen and
 * filled in since; the record's word when there is no state to judge by.
 */
function degradedNotes(frozen: FrozenDocumentRecord, state: FrozenState | null, locale: Locale): string[] {
  const t = CLI_TEXT[locale].show;
  const degraded = state ? state.judged.degraded : frozen.degraded ? (frozen.why ?? "") : null;
  if (degraded !== null) return [t.degraded(degraded)];
  if (state?.judged.filledIn != null) return [t.filledIn(state.judged.filledIn)];
  return [];
}

/**
 * What a change of the (present) file means: not used (a later step began with another text); used
 * (the step that began with it read it changed); still to be read (no later step has begun, the run
 * goes on); or read by nobody (the run is done). Nothing when the file is as frozen.
 */
function changeNotes(
  frozen: FrozenDocumentRecord,
  spec: DocumentSpec | undefined,
  run: string,
  answer: string | null,
  locale: Locale,
  state: FrozenState | null,
): string[] {
  if (state?.inUse) return [CHANGED_TEXT[locale].changed(state.inUse.since, false)];
  if (!editedAfterFreeze(frozen, spec, run, answer)) return [];
  const readBy = state?.judged.basis?.since ?? null;
  return [CLI_TEXT[locale].show.editedAfterFreeze(readBy, readBy === null && state?.finished === true)];
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
