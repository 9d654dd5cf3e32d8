/**
 * The user-facing language. The seeds' strings are Chinese and stay byte-exact as `zh`; `en` has the
 * same structure. Each feature keeps its own `{ zh, en }` text table next to its code.
 */
export type Locale = "zh" | "en";

export const LOCALES: readonly Locale[] = ["zh", "en"];

/** Option first, then `FLOWER_LANG`, then `LANG` (`zh*` → zh), else en. */
export function resolveLocale(option?: Locale, env: NodeJS.ProcessEnv = process.env): Locale {
  if (option) return option;
  const flower = env.FLOWER_LANG?.trim().toLowerCase();
  if (flower === "zh" || flower === "en") return flower;
  if (flower?.startsWith("zh")) return "zh";
  if (env.LANG?.toLowerCase().startsWith("zh")) return "zh";
  return "en";
}

export function isLocale(value: unknown): value is Locale {
  return value === "zh" || value === "en";
}
