/**
 * A step's frozen document for `flower show`, like the current handoff: where it is, whether it was
 * degraded, whether a person changed it after it was frozen, and one summary line per section — read
 * from the file as it is on disk now, because that (not what the agent wrote) is what the next step
 * reads.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { BUILT_IN_DOCUMENTS } from "../documents/builtin/index.js";
import { readFrozenDocument } from "../documents/freeze.js";
import type { FrozenDocumentRecord } from "../documents/record.js";
import { produceDocument } from "../documents/produce.js";
import type { DocumentSpec } from "../documents/spec.js";
import { LOCALES, type Locale } from "../locale/locale.js";
import { documentSummary, type SummarySection } from "./document-summary.js";
import { oneLine } from "./terminal-text.js";
import { CLI_TEXT } from "./text.js";

/** For a kind the CLI cannot render: a file younger than this after the freeze is the freeze itself. */
const EDIT_SLACK_MS = 1_000;

/**
 * The lines of a step's frozen document. `answer` is the step's final answer (its record's `result`):
 * what was frozen is rendered from it again, so a person's edit shows as a difference from it.
 */
export function frozenDocumentLines(
  frozen: FrozenDocumentRecord,
  run: string,
  answer: string | null,
  locale: Locale,
): string[] {
  const t = CLI_TEXT[locale].show;
  // A built-in kind is read with its spec; another kind is shown by its file's own headings.
  const spec = Object.hasOwn(BUILT_IN_DOCUMENTS, frozen.kind) ? BUILT_IN_DOCUMENTS[frozen.kind] : undefined;
  const title = spec ? spec.title[locale] : frozen.kind;
  const notes: string[] = [];
  if (frozen.degraded) notes.push(t.degraded(frozen.why ?? ""));
  if (!existsSync(frozen.path)) return [`${t.frozenDocument(title, frozen.path)} ${t.missingFile}`];
  if (editedAfterFreeze(frozen, spec, run, answer)) notes.push(t.editedAfterFreeze);
  const header = `${t.frozenDocument(title, frozen.path)}${notes.map((note) => ` · ${note}`).join("")}`;
  return [header, ...documentSummary(sectionsOf(spec, frozen.path, run, locale), locale)];
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
  path: string,
  run: string,
  locale: Locale,
): SummarySection[] {
  if (spec) {
    const { document } = readFrozenDocument(spec, path, run);
    return spec.sections.map((section) => ({
      label: section.heading[locale],
      text: document.sections[section.key],
    }));
  }
  // A kind declared in someone's code: its sections are the file's `##` headings.
  const sections: SummarySection[] = [];
  for (const line of readFileSync(path, "utf8").split(/\r?\n/)) {
    const heading = /^##\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) sections.push({ label: oneLine(heading[1]!), text: "" });
    else if (sections.length > 0) sections.at(-1)!.text += `${line}\n`;
  }
  return sections;
}
