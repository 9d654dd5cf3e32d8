/**
 * Recall's words, per locale (session-layers/recall-search.ts): what an answer says about where a passage came
 * from, what later work did to it, and what to do when nothing matched. A model reads them, so each says
 * what to do next; zh has ASCII `,:()` inside Chinese text (locale/locale.ts).
 */
import type { Locale } from "../locale/locale.js";

/** What a passage is: a prompt, the model's text or thinking, a tool call, or a tool's result. */
export type PassageKind = "prompt" | "text" | "thinking" | "call" | "result";

export interface PassagePlace {
  generation: number;
  turn: number;
  /**
   * The subagent (its type) whose transcript holds it; null: the main thread. The words below call it a
   * worker, as the rules the model reads do (agents/rules.ts).
   */
  subagent: string | null;
  kind: PassageKind;
  /** The tool called or answered (`call`, `result`). */
  tool: string | null;
  /** A short summary of the call's input (its command, file, pattern), when it has one. */
  label: string | null;
}

export interface RecallWords {
  /** "generation 1", "generations 1–3" / "第 1 代", "第 1–3 代". */
  generations(list: readonly number[]): string;
  place(place: PassagePlace): string;
  header(values: { query: string; generations: string; matched: number; shown: number }): string;
  /** A later passage that also matches: it may say something newer. */
  laterMatch(generation: number, turn: number): string;
  /** A file the passage names was changed later. */
  laterChange(path: string, generation: number, turn: number): string;
  laterPrefix: string;
  more(left: number, maxChars: number): string;
  nothing(values: { query: string; generations: string; searched: number }): string;
  noEarlier: string;
  emptyQuery: string;
  missing(generations: string): string;
}

const en: RecallWords = {
  generations: (list) => `${list.length === 1 ? "generation" : "generations"} ${numbers(list)}`,
  place: ({ generation, turn, subagent, kind, tool, label }) => {
    const parts = [`generation ${generation}, turn ${turn}`];
    if (subagent !== null) parts.push(`worker "${subagent}"`);
    const what =
      kind === "call"
        ? `call to ${tool ?? "a tool"}`
        : kind === "result"
          ? `result of ${tool ?? "a tool"}`
          : kind;
    parts.push(label ? `${what} (${label})` : what);
    return parts.join(", ");
  },
  header: ({ query, generations, matched, shown }) =>
    `Searched ${generations} of this step (the sessions before yours) for "${query}": ` +
    `${matched} ${matched === 1 ? "passage matches" : "passages match"}; ` +
    `${shown === matched ? (shown === 1 ? "here it is" : "here they are") : `the best ${shown} follow`}, ` +
    `each with where it came from, newer first among equals.`,
  laterMatch: (generation, turn) => `generation ${generation}, turn ${turn} also matches (newer)`,
  laterChange: (path, generation, turn) =>
    `\`${path}\` was changed later (generation ${generation}, turn ${turn})`,
  laterPrefix: "Later: ",
  more: (left, maxChars) =>
    `${left} more ${left === 1 ? "passage matches" : "passages match"}, left out to keep this answer under ` +
    `${maxChars} characters: ask with more specific words for ${left === 1 ? "it" : "them"}.`,
  nothing: ({ query, generations, searched }) =>
    `Nothing in ${generations} of this step matches "${query}" (searched ${searched} passages). ` +
    `Ask again with other words: a file name, an identifier, an error message, a command.`,
  noEarlier:
    "This step has no earlier generation: yours is its first session, so there is nothing to recall; what " +
    "it did so far is in your own context.",
  emptyQuery: "Give the words to look for: a file name, an identifier, an error message, a command.",
  missing: (generations) =>
    `The transcripts of ${generations} are not in the store (deleted with flower forget?); they were not searched.`,
};

const zh: RecallWords = {
  generations: (list) => `第 ${numbers(list)} 代`,
  place: ({ generation, turn, subagent, kind, tool, label }) => {
    const parts = [`第 ${generation} 代第 ${turn} 轮`];
    if (subagent !== null) parts.push(`执行者 "${subagent}"`);
    const what =
      kind === "call"
        ? `调用 ${tool ?? "工具"}`
        : kind === "result"
          ? `${tool ?? "工具"} 的结果`
          : { prompt: "提示", text: "文字", thinking: "思考" }[kind];
    parts.push(label ? `${what}(${label})` : what);
    return parts.join(",");
  },
  header: ({ query, generations, matched, shown }) =>
    `在这一步${generations}(你之前的会话)的记录里找 "${query}":${matched} 段相符;` +
    `${shown === matched ? "全列在下面" : `下面是最相关的 ${shown} 段`},各自标明出处,同样相关时新的在前。`,
  laterMatch: (generation, turn) => `第 ${generation} 代第 ${turn} 轮也有相符内容(更新)`,
  laterChange: (path, generation, turn) => `\`${path}\` 之后被改过(第 ${generation} 代第 ${turn} 轮)`,
  laterPrefix: "之后:",
  more: (left, maxChars) =>
    `还有 ${left} 段相符,为了让回答不超过 ${maxChars} 字符没有列出:换更具体的词再查。`,
  nothing: ({ query, generations, searched }) =>
    `这一步${generations}的记录里没有和 "${query}" 相符的内容(查了 ${searched} 段)。换个词再查:文件名、标识符、报错信息、命令。`,
  noEarlier: "这一步没有更早的一代:你就是它的第一条会话,没有可回忆的;到目前为止做过的都在你自己的上下文里。",
  emptyQuery: "请给出要找的词:文件名、标识符、报错信息、命令。",
  missing: (generations) => `${generations}的记录不在存储里(被 flower forget 删了?),没有查。`,
};

export const RECALL_WORDS: Readonly<Record<Locale, RecallWords>> = { en, zh };

/** 1 → "1"; 1,2,3 → "1–3"; 1,3 → "1, 3"; 1,2,3,5 → "1–3, 5". */
function numbers(list: readonly number[]): string {
  const sorted = [...new Set(list)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let index = 0; index < sorted.length;) {
    let end = index;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end += 1;
    runs.push(end > index ? `${sorted[index]}–${sorted[end]}` : String(sorted[index]));
    index = end + 1;
  }
  return runs.join(", ");
}
