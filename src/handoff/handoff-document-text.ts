/**
 * The handoff's fixed words, per locale, in one table: the section headings the document is rendered
 * with, the prompt asks for and the parser knows; the empty-section marker; the terminal summary labels;
 * and token formatting shared by the gauge and the prompt.
 *
 * zh punctuation is ASCII `,:;()` inside Chinese text (locale/locale.ts): strings such as
 * `[降级:交接没写成]` and `<- 新会话接手,上下文从 152.0K 重新开始` are byte-exact that way.
 */
import type { Locale } from "../locale/locale.js";
import type { HandoffSectionName } from "../handoff-sections.js";

/** Headings of the five sections (what each one holds: HANDOFF_PROMPT, handoff/prompt.ts). */
export const SECTION_HEADINGS: Readonly<Record<Locale, Readonly<Record<HandoffSectionName, string>>>> = {
  zh: {
    doing: "现在在做什么",
    decided: "已经定下的",
    deadends: "走不通的路",
    next: "下一步",
    scene: "现场",
  },
  en: {
    doing: "What I am doing",
    decided: "Already decided",
    deadends: "Dead ends",
    next: "Next step",
    scene: "Scene",
  },
};

/** What `toMarkdown()` writes for an empty section: the same marker as every frozen document. */
export { EMPTY_SECTION } from "../documents/document-text.js";

/** Document title; `step` is used only here and never parsed back. */
export const HANDOFF_TITLE: Readonly<Record<Locale, (step: string) => string>> = {
  zh: (step) => (step ? `# 交接:${step}` : "# 交接"),
  en: (step) => (step ? `# Handoff: ${step}` : "# Handoff"),
};

/**
 * Marker of a mechanically assembled handoff, written into `doing`. One marker in both locales: it is
 * machine-read (`Handoff.degraded`, manifests, grep) and must not depend on the language of the run.
 */
export const DEGRADED = "[降级:交接没写成]";

/**
 * Marker at the start of a section flower filled in because the session left it empty or hollow, while
 * the rest of the handoff is the session's own. Machine-read like DEGRADED (`Handoff.mechanical`), so one
 * string in both locales; it survives freezing and a person's edit, and the successor's prompt names the
 * sections that carry it.
 */
export const MECHANICAL = "[降级:这段没写成]";

/**
 * Labels of the four summary lines printed on a switch, padded so the values line up. The zh padding:
 * four CJK characters + 2 spaces, three + 4 spaces (a CJK character is two columns wide).
 */
export const SUMMARY_LABELS: Readonly<
  Record<Locale, Readonly<Record<Exclude<HandoffSectionName, "scene">, string>>>
> = {
  zh: { doing: "现在在做  ", decided: "已定的事  ", deadends: "走不通的  ", next: "下一步    " },
  en: { doing: "doing      ", decided: "decided    ", deadends: "dead ends  ", next: "next       " },
};

/**
 * A context size with one decimal, as on the gauge: 130000 → "130.0K", 1_000_000 → "1.0M".
 * Below 1000 the plain number.
 */
export function formatTokens(n: number): string {
  const value = Math.max(0, Math.round(n));
  if (value < 1_000) return String(value);
  const k = (value / 1_000).toFixed(1);
  if (Number(k) < 1_000) return `${k}K`;
  return `${(value / 1_000_000).toFixed(1)}M`;
}

/**
 * A round size for windows and distances, as on the gauge: 200000 → "200K", 20000 → "20K",
 * 1_000_000 → "1M", 1_500_000 → "1.5M", 2500 → "2.5K".
 */
export function formatTokensShort(n: number): string {
  const value = Math.max(0, Math.round(n));
  if (value < 1_000) return String(value);
  const thousands = value / 1_000;
  if (thousands < 10) return `${trimZero(thousands.toFixed(1))}K`;
  if (Math.round(thousands) < 1_000) return `${Math.round(thousands)}K`;
  return `${trimZero((value / 1_000_000).toFixed(1))}M`;
}

function trimZero(fixed: string): string {
  return fixed.endsWith(".0") ? fixed.slice(0, -2) : fixed;
}
