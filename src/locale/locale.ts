/**
 * The user-facing language. The seeds' strings are Chinese and stay byte-exact as `zh`; `en` has the
 * same structure. Each feature keeps its own `{ zh, en }` text table next to its code.
 */
export type Locale = "zh" | "en";

export const LOCALES: readonly Locale[] = ["zh", "en"];

/**
 * Option first, then `FLOWER_LANG`, then `LANG`, else en. FLOWER_LANG takes any `zh*` or `en*` form
 * (`zh_CN.UTF-8`, `en_US`, `EN`): someone who sets it to `en_US` on a Chinese system means English, and
 * must not fall through to a `zh_CN` LANG.
 */
export function resolveLocale(option?: Locale, env: NodeJS.ProcessEnv = process.env): Locale {
  if (option) return option;
  const flower = languageOf(env.FLOWER_LANG);
  if (flower) return flower;
  return languageOf(env.LANG) === "zh" ? "zh" : "en";
}

/** The locale a language tag names (`zh`, `zh_TW.UTF-8`, `en-GB`), or undefined for any other tag. */
function languageOf(tag: string | undefined): Locale | undefined {
  const lower = tag?.trim().toLowerCase();
  if (lower?.startsWith("zh")) return "zh";
  if (lower?.startsWith("en")) return "en";
  return undefined;
}

export function isLocale(value: unknown): value is Locale {
  return value === "zh" || value === "en";
}
