/**
 * A step's frozen document for `flower show`, like the current handoff: where it is, whether it was
 * degraded, whether a person changed it after it was frozen, and one summary line per section — read
 * from the file as it is on disk now, because that (not what the agent wrote) is what the next step
 * reads.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { GOAL } from "../documents/builtin/goal.js";
import { REQUIREMENTS } from "../documents/builtin/requirements.js";
import { readFrozenDocument } from "../documents/freeze.js";
import type { FrozenDocumentRecord } from "../documents/record.js";
import type { DocumentSpec } from "../documents/spec.js";
import type { Locale } from "../locale/locale.js";
import { documentSummary, type SummarySection } from "./document-summary.js";
import { oneLine } from "./terminal-text.js";
import { CLI_TEXT } from "./text.js";

/** The documents the CLI knows the sections of; another kind is shown by its file's own headings. */
const KNOWN: readonly DocumentSpec[] = [REQUIREMENTS, GOAL];

/** Edits within this of the freeze are the freeze itself (the file's mtime and `at` differ by a few ms). */
const EDIT_SLACK_MS = 1_000;

export function frozenDocumentLines(frozen: FrozenDocumentRecord, run: string, locale: Locale): string[] {
  const t = CLI_TEXT[locale].show;
  const spec = KNOWN.find((candidate) => candidate.kind === frozen.kind);
  const title = spec ? spec.title[locale] : frozen.kind;
  const notes: string[] = [];
  if (frozen.degraded) notes.push(t.degraded(frozen.why ?? ""));
  if (!existsSync(frozen.path)) return [`${t.frozenDocument(title, frozen.path)} ${t.missingFile}`];
  if (statSync(frozen.path).mtimeMs > Date.parse(frozen.at) + EDIT_SLACK_MS) notes.push(t.editedAfterFreeze);
  const header = `${t.frozenDocument(title, frozen.path)}${notes.map((note) => ` · ${note}`).join("")}`;
  return [header, ...documentSummary(sectionsOf(spec, frozen.path, run, locale), locale)];
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
