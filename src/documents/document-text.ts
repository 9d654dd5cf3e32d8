/** The fixed words every frozen document shares, per locale. */
import type { Locale } from "../locale/locale.js";

/** What a frozen document shows for an empty section, so a reader sees it was left blank. */
export const EMPTY_SECTION: Readonly<Record<Locale, string>> = { zh: "(空)", en: "(empty)" };

/**
 * The line under a degraded document's title: `> [降级:<why>]`. A person who fixes the file deletes
 * the line, and the document reads back as usable. Both locales are recognised on read-back.
 */
export const DEGRADED_LINE: Readonly<Record<Locale, (why: string) => string>> = {
  zh: (why) => `> [降级:${why}]`,
  en: (why) => `> [degraded: ${why}]`,
};

/** Recognises the degraded line in either locale; group 1 is the reason. */
export const DEGRADED_LINE_PATTERN = /^>\s*\[(?:降级|degraded)\s*[::]\s*(.*)\]\s*$/i;

/** The entry for a step's `errors` (and so the manifest) when its document degraded. */
export const DOCUMENT_DEGRADED_ERROR: Readonly<Record<Locale, (title: string, why: string) => string>> = {
  zh: (title, why) => `${title}降级(${why})`,
  en: (title, why) => `${title} degraded (${why})`,
};
