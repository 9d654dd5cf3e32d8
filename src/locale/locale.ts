/**
 * The user-facing language. `zh` came first and its strings are kept byte for byte (tests match them);
 * `en` has the same structure. zh text uses
 * ASCII punctuation inside Chinese (`,:;()`, not the full-width forms), in every table alike. Each
 * feature keeps its own `{ zh, en }` text table next to its code.
 */
export type Locale = "zh" | "en";

export const LOCALES: readonly Locale[] = ["zh", "en"];

/**
 * Option first, then `FLOWER_LANG`, then `LANG`, else en. FLOWER_LANG takes the usual spellings of a
 * tag (`zh_CN.UTF-8`, `en_US`, `EN`): someone who sets it to `en_US` on a Chinese system means English,
 * and must not fall through to a `zh_CN` LANG. A FLOWER_LANG naming another language is passed over
 * (the CLI says so in one line, see `unknownLanguageSetting`).
 */
export function resolveLocale(option?: Locale, env: NodeJS.ProcessEnv = process.env): Locale {
  if (option) return option;
  const flower = localeOfTag(env.FLOWER_LANG);
  if (flower) return flower;
  return localeOfTag(env.LANG) === "zh" ? "zh" : "en";
}

/**
 * The one reading of a language tag, for `--lang` and FLOWER_LANG alike: the primary language, case
 * ignored, with any region, script, encoding or modifier after it (`zh`, `ZH`, `zh-CN`, `zh_CN.UTF-8`,
 * `zh-Hans`, `en_US`, `en-GB@euro`). Undefined for any other language, and for words that merely start
 * with the letters (`english`): a tag that is not understood is reported, not guessed at.
 */
export function localeOfTag(tag: string | undefined): Locale | undefined {
  const primary = tag
    ?.trim()
    .toLowerCase()
    .split(/[-_.@]/, 1)[0];
  return primary === "zh" || primary === "en" ? primary : undefined;
}

/** FLOWER_LANG when it is set to something that is not zh or en (it is then passed over); else undefined. */
export function unknownLanguageSetting(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.FLOWER_LANG?.trim();
  return value && !localeOfTag(value) ? value : undefined;
}

export function isLocale(value: unknown): value is Locale {
  return value === "zh" || value === "en";
}
