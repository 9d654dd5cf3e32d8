/**
 * Reading the goal guard reviewer's answer: one verdict per acceptance criterion — met / not met / cannot
 * tell — with the evidence it looked at. The reviewer is a model, so the reader is tolerant like the
 * other frozen-document readers: list lines with `—`, `-`, `:` or `→` between the parts, a leading
 * `[met]`, bold, tables, full-width punctuation, English and Chinese words.
 *
 * It is also strict where it matters: a line counts only when its verdict word stands apart (a cell of
 * its own, after a separator, or in brackets), so a prose line that merely contains "met" is not read as
 * a verdict. An answer with no readable criterion is a degraded verdict: the caller must not treat it as
 * a pass.
 */
import { asciiPunctuation } from "./fullwidth.js";

export type ReviewVerdictKind = "met" | "not-met" | "cannot-tell";

/** One acceptance criterion as the reviewer judged it (the run record keeps the same shape). */
export interface ReviewCriterion {
  criterion: string;
  verdict: ReviewVerdictKind;
  evidence: string;
}

export interface ReviewVerdict {
  criteria: ReviewCriterion[];
  /** met: nothing not met; not-met: at least one criterion not met; degraded: nothing readable. */
  outcome: "met" | "not-met" | "degraded";
  /** Why it degraded; null otherwise. */
  why: string | null;
}

/** Verdict words, longest first so "not met" is never read as "met". */
const VERDICT_WORDS: ReadonlyArray<[ReviewVerdictKind, string]> = [
  ["not-met", "not\\s+met|unmet|not\\s+satisfied|not\\s+fulfilled|fails?|failed|no"],
  [
    "cannot-tell",
    "cannot\\s+tell|can\\s*not\\s+tell|can't\\s+tell|cannot\\s+be\\s+determined|cannot\\s+determine|unclear|unknown|undetermined|not\\s+sure",
  ],
  ["met", "met|satisfied|fulfilled|passe?s?|passed|yes"],
  ["not-met", "未满足|不满足|没有满足|没满足|未达成|未达到|不符合|未实现|没有实现"],
  ["cannot-tell", "无法判断|无法确定|不能确定|不确定|说不准|难以判断|无从判断|看不出"],
  ["met", "已满足|满足|已达成|达成|符合|已实现"],
];
const SYMBOLS: ReadonlyArray<[ReviewVerdictKind, string]> = [
  ["not-met", "❌|✗|✘"],
  ["cannot-tell", "❓|\\?"],
  ["met", "✅|✓|✔"],
];

const ALL = [...VERDICT_WORDS, ...SYMBOLS].map(([, words]) => words).join("|");
/** Between a criterion and its verdict. */
const SEPARATOR = String.raw`(?:\s*[—–]+\s*|\s+-{1,2}\s+|\s*:\s*|\s*(?:=>|->|→)\s*)`;
/** After a verdict: the end, a separator, punctuation or the evidence label. */
const AFTER = String.raw`(?=$|\s|[.,;:!)\]—–\-。,、;]|证据|依据)`;

const CRITERION_FIRST = new RegExp(
  String.raw`^(?<criterion>.+?)${SEPARATOR}[\[(]?(?<verdict>${ALL})[\])]?${AFTER}(?<rest>.*)$`,
  "i",
);
const VERDICT_FIRST = new RegExp(String.raw`^(?<verdict>${ALL})${SEPARATOR}(?<rest>.+)$`, "i");
/** A leading "[met]" or "(not met)" even without a separator after it. */
const BRACKETED_FIRST = new RegExp(String.raw`^[\[(](?<verdict>${ALL})[\])]\s*(?<rest>.+)$`, "i");
/** Words that are a verdict only in a table cell or in brackets: in prose they are too common. */
const AMBIGUOUS = /^(?:yes|no|fails?|failed|pass(?:es|ed)?|\?)$/i;
const EVIDENCE_LABEL = /(?:^|[\s;,—–。,、-])(?:evidence|because|证据|依据)\s*[:]?\s*/i;
/** Lines that sum up rather than judge one criterion. */
const SUMMARY = /^(?:(?:overall|verdict|summary|result|conclusion)\b|总体|总结|结论|最终结论|判定|总判定)/i;

function kindOf(word: string): ReviewVerdictKind | null {
  const lower = word.toLowerCase().replace(/\s+/g, " ");
  for (const [kind, words] of [...VERDICT_WORDS, ...SYMBOLS]) {
    if (new RegExp(`^(?:${words})$`, "i").test(lower)) return kind;
  }
  return null;
}

/** The evidence part of what follows a verdict: separators and the label removed. */
function evidenceOf(rest: string): string {
  const labelled = EVIDENCE_LABEL.exec(rest);
  const text = labelled ? rest.slice(labelled.index + labelled[0].length) : rest;
  return text.replace(/^[\s—–:;,.。,、-]+/, "").trim();
}

function clean(line: string): string {
  return asciiPunctuation(line)
    .replace(/\*\*|__|`/g, "")
    .replace(/^\s*(?:[-*+•]|\d+[.)、]|[一二三四五六七八九十]+[、.])\s+/, "")
    .replace(/^\s*(?:[-*+]\s+)?\[[ x]\]\s+/i, "")
    .trim();
}

/** A table row: the cell that is a verdict word, the first cell before it, the cells after it. */
function readTableRow(line: string): ReviewCriterion | null {
  const cells = line
    .replace(/^\s*\||\|\s*$/g, "")
    .split("|")
    .map((cell) => clean(cell));
  if (cells.length < 2 || cells.every((cell) => /^:?-{2,}:?$/.test(cell) || cell === "")) return null;
  const at = cells.findIndex((cell, position) => position > 0 && kindOf(cell) !== null);
  if (at < 1) return null;
  const criterion = cells.slice(0, at).filter(Boolean).join(" · ");
  if (criterion === "" || SUMMARY.test(criterion)) return null;
  return {
    criterion,
    verdict: kindOf(cells[at]!)!,
    evidence: evidenceOf(
      cells
        .slice(at + 1)
        .filter(Boolean)
        .join("; "),
    ),
  };
}

function readLine(raw: string): ReviewCriterion | null {
  if (/^\s*#/.test(raw)) return null;
  if ((raw.match(/\|/g) ?? []).length >= 2) return readTableRow(asciiPunctuation(raw));
  const line = clean(raw);
  if (line === "") return null;
  const bracketed = BRACKETED_FIRST.exec(line);
  const separated = bracketed ? null : VERDICT_FIRST.exec(line);
  const leading = bracketed ?? (separated && !AMBIGUOUS.test(separated.groups!.verdict!) ? separated : null);
  if (leading?.groups) {
    const verdict = kindOf(leading.groups.verdict!);
    const rest = leading.groups.rest!;
    const label = EVIDENCE_LABEL.exec(rest);
    const criterion = (label ? rest.slice(0, label.index) : rest).replace(/[\s—–:;,-]+$/, "").trim();
    if (verdict && criterion !== "" && !SUMMARY.test(criterion))
      return { criterion, verdict, evidence: label ? evidenceOf(rest.slice(label.index)) : "" };
  }
  const match = CRITERION_FIRST.exec(line);
  if (!match?.groups) return null;
  const criterion = match.groups.criterion!.trim();
  const verdict = kindOf(match.groups.verdict!);
  if (!verdict || SUMMARY.test(criterion) || AMBIGUOUS.test(match.groups.verdict!)) return null;
  return { criterion, verdict, evidence: evidenceOf(match.groups.rest ?? "") };
}

/** Reads a reviewer's answer; never throws. */
export function parseReviewVerdict(answer: string | null): ReviewVerdict {
  if (typeof answer !== "string" || answer.trim() === "")
    return { criteria: [], outcome: "degraded", why: "the reviewer gave no answer" };
  const criteria: ReviewCriterion[] = [];
  let inFence = false;
  for (const line of answer.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const criterion = readLine(line);
    if (criterion) criteria.push(criterion);
  }
  if (criteria.length === 0)
    return {
      criteria,
      outcome: "degraded",
      why: "no line of the reviewer's answer names a criterion with met / not met / cannot tell",
    };
  const outcome = criteria.some((criterion) => criterion.verdict === "not-met") ? "not-met" : "met";
  return { criteria, outcome, why: null };
}
