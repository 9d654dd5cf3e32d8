/**
 * What the tolerant parser and the quality check need to know about one DocumentSpec: the heading words
 * of each section (both locales' headings, the key, the spec's aliases, and the other-notes block), the
 * frozen title in either locale, and the document's own words that make a section hollow when echoed.
 */
import { LOCALES } from "../locale/locale.js";
import { documentTitle, type DocumentSpec } from "./document.js";
import { aliasTable, type AliasTable } from "./heading-recognition.js";
import type { HollowContext } from "./hollow.js";
import { NOTES_ALIASES, NOTES_KEY } from "./notes.js";
import type { DocumentGrammar } from "./parse.js";
import { EMPTY_SECTION } from "./document-text.js";

const tables = new WeakMap<DocumentSpec, AliasTable>();

/** The spec's heading words (built once per spec object). */
function tableOf(spec: DocumentSpec): AliasTable {
  const known = tables.get(spec);
  if (known) return known;
  const table = aliasTable([
    ...spec.sections.map(
      (section) =>
        [
          section.key,
          [
            ...LOCALES.map((locale) => section.heading[locale]),
            section.key,
            // camelCase keys are also written as words: `inScope` → `in scope`.
            section.key.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[-_]/g, " "),
            ...(section.aliases ?? []),
          ],
        ] as const,
    ),
    [NOTES_KEY, NOTES_ALIASES],
  ]);
  tables.set(spec, table);
  return table;
}

/**
 * The parser's grammar for a spec. `run` is the run id the document was frozen under, when known: a
 * title that is also a section's heading (`# Goal`, `# 目标`) may be a model's heading for that section
 * (`# 目标:把开关做好`), so for such a spec only flower's exact title (with this run id) is the title.
 */
export function grammarOf(spec: DocumentSpec, run = ""): DocumentGrammar {
  const table = tableOf(spec);
  return {
    table,
    isTitle: (first) =>
      LOCALES.some((locale) => {
        const title = `# ${spec.title[locale]}`;
        const ambiguous = table.some(([alias]) => alias === spec.title[locale].toLowerCase());
        if (ambiguous) return run !== "" && first === documentTitle(spec, locale, run);
        return first === title || first.startsWith(`${title}:`) || first.startsWith(`${title}:`);
      }),
  };
}

/** A spec's own words: its headings, its instructions and hints, the empty marker. */
export function hollowContextOf(spec: DocumentSpec): HollowContext {
  const squash = (text: string): string => text.replace(/\s+/g, " ").toLowerCase();
  return {
    prompts: LOCALES.flatMap((locale) => [
      squash(spec.instructions[locale]),
      ...spec.sections.flatMap((section) => (section.hint ? [squash(section.hint[locale])] : [])),
    ]).filter((text) => text !== ""),
    headings: new Set(
      spec.sections.flatMap((section) => LOCALES.map((locale) => section.heading[locale].toLowerCase())),
    ),
    empty: new Set(LOCALES.map((locale) => EMPTY_SECTION[locale].toLowerCase())),
  };
}
