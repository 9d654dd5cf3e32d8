/**
 * The session store's words, per locale. These strings replace history the model will read on resume, so
 * they are short, neutral and say what to do next. zh keeps its first wording byte for byte, ASCII `,()`
 * inside Chinese text included (locale/locale.ts); en has the same structure.
 */
import type { Locale } from "../locale/locale.js";

/**
 * Replaces a long tool result spilled on load. Only a pointer, no preview (the block's content is
 * replaced by a file pointer: a preview would be read as the result); the path is absolute because Read wants one.
 */
export const TRIM_POINTER: Readonly<Record<Locale, (path: string, chars: number) => string>> = {
  zh: (path, chars) => `[该工具结果共 ${chars} 字符,已移到 ${path},需要全文请用 Read 读取]`,
  en: (path, chars) =>
    `[This tool result (${chars} chars) was moved to ${path}; read it with Read if you need the full text]`,
};

/** Replaces a tool result left by an interruption. It says what happened, not who did it. */
export const INTERRUPTED_NOTE: Readonly<Record<Locale, string>> = {
  zh: "[上一轮在此处被中断,该工具结果未产生]",
  en: "[The previous turn was interrupted here; this tool result was not produced]",
};

/** What replaces an expired glance result when a session is loaded for resume. */
export const EPHEMERAL_EXPIRED: Readonly<Record<Locale, (label: string, turnsAgo: number) => string>> = {
  zh: (label, turnsAgo) =>
    `[\`${label}\` 的结果已过期(第 ${turnsAgo} 轮前),当前状态可能已变。需要请重新执行]`,
  en: (label, turnsAgo) =>
    `[The result of \`${label}\` has expired (${turnsAgo} ${turnsAgo === 1 ? "turn" : "turns"} ago); the state may have changed. Run it again if needed]`,
};

/** Longest label; the expiry hint stays one short line. */
const LABEL_CHARS = 60;

/**
 * A one-line rendering of a command for the expiry hint: whitespace collapsed, backticks (which would
 * break the hint's own quoting) replaced, long commands cut with `…`.
 */
export function ephemeralLabel(command: string): string {
  const flat = command.replace(/\s+/g, " ").trim().replaceAll("`", "'");
  return flat.length > LABEL_CHARS ? `${flat.slice(0, LABEL_CHARS - 1)}…` : flat;
}

/** The text that replaces an expired glance result, e.g. ``[`git status -s` 的结果已过期(第 7 轮前),...]``. */
export function ephemeralExpiredHint(command: string, turnsAgo: number, locale: Locale): string {
  return EPHEMERAL_EXPIRED[locale](ephemeralLabel(command), turnsAgo);
}
