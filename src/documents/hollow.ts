/**
 * Is a section written but empty in substance? A model that is out of breath writes headings with
 * nothing under them, echoes the prompt's instruction back, or writes "TBD"; formally the document is
 * complete, in substance the next reader gets nothing. Such sections count as missing. The rules are
 * the same for every frozen document; what differs is the document's own words (its headings, its
 * prompt, its empty marker), which the caller passes in.
 */

/** The document's own words: a section that only repeats one of them says nothing. */
export interface HollowContext {
  /** The writing prompt(s), whitespace collapsed, lowercase: an echoed instruction is hollow. */
  prompts: readonly string[];
  /** The section headings, lowercase: a section that is only a heading is hollow. */
  headings: ReadonlySet<string>;
  /** The empty-section markers (`(空)`, `(empty)`), lowercase. */
  empty: ReadonlySet<string>;
}

/** Placeholders models write instead of content (compared after markup is stripped, lowercase). */
const PLACEHOLDERS = new Set([
  "空",
  "无",
  "暂无",
  "没有",
  "待定",
  "待补充",
  "待填写",
  "略",
  "同上",
  "见上",
  "见上文",
  "未知",
  "不详",
  "empty",
  "none",
  "nothing",
  "n/a",
  "na",
  "tbd",
  "todo",
  "tba",
  "unknown",
  "same as above",
  "see above",
  "placeholder",
  "xxx",
  "...",
  "…",
  "……",
]);

/** Characters that carry meaning: letters and digits count 1, CJK ideographs 2 (one carries a word). */
function substance(text: string): number {
  let weight = 0;
  for (const char of text) {
    if (/\p{Script=Han}/u.test(char)) weight += 2;
    else if (/[\p{L}\p{N}]/u.test(char)) weight += 1;
  }
  return weight;
}

/**
 * Below this weight a section is near-empty: "ok" (2) or "跑" (2) is, "fix" (3) and "跑测试" (6) are not.
 * Kept low on purpose: a hollow required section makes the whole document degraded, which
 * is far worse than a terse real one.
 */
const NEAR_EMPTY = 3;

function stripMarkup(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/^\s*(?:[-*+>]|\d+[.)]|#{1,6})\s*/, ""))
    .join(" ")
    .replace(/[*_`]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** True if the section is written but carries nothing a reader could use. */
export function isHollowText(text: string, known: HollowContext): boolean {
  const plain = stripMarkup(text).toLowerCase();
  if (plain === "") return true;
  const bare = plain
    .replace(/^[[(({<【]\s*|\s*[\]))}>】]$/g, "")
    .replace(/[。.!!]+$/, "")
    .trim();
  if (PLACEHOLDERS.has(bare) || known.empty.has(plain) || known.headings.has(bare)) return true;
  // A template slot such as <what you are doing> or {next}.
  if (/^[<{][^<>{}]*[>}]$/.test(plain)) return true;
  // The prompt's own instruction for the section, echoed back.
  // Long enough that a real line quoting the prompt's examples (`src/shim.h`) is not caught.
  if (plain.length >= 16 && known.prompts.some((prompt) => prompt.includes(plain))) return true;
  return substance(bare) < NEAR_EMPTY;
}
