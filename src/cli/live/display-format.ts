/**
 * The small pieces the live view's lines are made of: the gauge, a path as a person reads it, a
 * setting's value, a short session id. Pure functions of their arguments, so the lines (display-lines.ts)
 * and the stateful view (display.ts) share them.
 */
import { formatUsd } from "../../records/run-spend.js";
import type { SettingName, SettingValue } from "../../runtime/events.js";
import { formatTokens, formatTokensShort } from "../../handoff/handoff-document-text.js";
import type { DisplayText } from "./display-text.js";
import { oneLine } from "./terminal-text.js";

/**
 * A line of the live view: text, cut to the terminal's width, or a path, which is never cut — it goes
 * on its own line (indented under the line that names it) so a person can copy it whole at any width.
 */
export type ViewLine = string | PathLine;

export interface PathLine {
  path: string;
  indent: string;
}

/** `header` (ending in "to:" or the like), then `path` alone on the next line, indented under it. */
export function withPath(header: string, path: string): ViewLine[] {
  const indent = /^ */.exec(header)?.[0] ?? "";
  return [header, { path, indent: `${indent}   ` }];
}

/** `path` with the home directory shown as `~`, on one line. */
export function shownPath(path: string, home: string): string {
  const clean = oneLine(path);
  const trimmed = home.replace(/\/+$/, "");
  if (trimmed && (clean === trimmed || clean.startsWith(`${trimmed}/`)))
    return `~${clean.slice(trimmed.length)}`;
  return clean;
}

/** `# context 45.5K/200K · about 105K until handoff` (or `· at the handoff line`, or no line at all). */
export function gaugeLine(
  t: DisplayText,
  context: number,
  window: number | null,
  at: number | null,
  budget?: { spentUsd: number; budgetUsd: number },
): string {
  let line = t.gauge(formatTokens(context), window ? formatTokensShort(window) : null);
  if (at !== null) line += context < at ? t.remaining(formatTokensShort(at - context)) : t.atLine;
  if (budget) line += t.spentOfBudget(formatUsd(budget.spentUsd), formatUsd(budget.budgetUsd));
  return line;
}

/**
 * Pipe mode: whether a gauge line is worth printing — one every ~5% of the window, not on every turn.
 * `last` is the context of the last gauge line printed for the step.
 */
export function gaugeWorthPrinting(
  last: number | undefined,
  context: number,
  window: number | null,
  at: number | null,
): boolean {
  // At or past the line the writing line follows at once and reports the same number.
  if (at !== null && context >= at) return false;
  if (last === undefined) return true;
  const stride = window ? Math.max(5_000, Math.round(window * 0.05)) : 10_000;
  return Math.abs(context - last) >= stride;
}

export function firstLine(text: string): string {
  const line = text.split("\n").find((candidate) => candidate.trim() !== "") ?? "";
  return oneLine(line);
}

export function shortId(id: string): string {
  return oneLine(id).slice(0, 8);
}

/** The option of `flower continue` behind an override (`headroom` has none: only the library sets it). */
export const SETTING_FLAGS: Record<SettingName, string> = {
  model: "--model",
  window: "--window",
  handoff: "--no-handoff",
  headroom: "headroom",
  rule: "--handoff-rule",
  driftAfter: "--drift-after",
  maxBudgetUsd: "--max-budget-usd",
  budgetUsd: "--budget",
  review: "--review",
  locale: "--lang",
};

/** A setting's value as a person reads it: `90K`, `on`, `$5`, `default`. */
export function settingValue(setting: SettingName, value: SettingValue, t: DisplayText): string {
  if (typeof value === "boolean") return value ? t.settingValues.on : t.settingValues.off;
  if (value === null) return setting === "model" ? t.settingValues.defaultModel : t.settingValues.none;
  if (typeof value === "number")
    return setting === "maxBudgetUsd" || setting === "budgetUsd" ? `$${value}` : formatTokensShort(value);
  return oneLine(value);
}

/** Each distinct text with how often it occurs, in order of first occurrence. */
export function countSame(texts: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
  return counts;
}
