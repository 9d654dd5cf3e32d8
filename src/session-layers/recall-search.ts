/**
 * Recall (docs/handoffs.md): a successor searches its step's earlier generations' transcripts for what
 * the handoff left out — an exact path, a value, a command's output — instead of redoing the work that
 * found it. Modelled on Amp's `read_thread`: the answer is the passages themselves with where they came
 * from (generation, turn, which subagent), and whether later work revised them.
 *
 * Pure: the transcripts come in as entries (session-layers/recall-transcripts.ts loads them), the answer goes out
 * as text. Every passage is redacted before it is matched, so neither the answer nor a query aimed at a
 * credential brings one back. The answer is bounded (DEFAULTS.recallMaxChars), because it lands in a
 * context that the handoff just emptied.
 *
 * Ranking is plain term matching, weighted by rarity: a word that is in every passage (the step's own
 * subject) says little, a path or an identifier that is in two says a lot. The model asking knows what it
 * is looking for and can ask again; a query of distinctive words finds the passage.
 */
import type { Locale } from "../locale/locale.js";
import { HANDOFF_SIGNATURE } from "../handoff/prompt.js";
import {
  contentBlocks,
  isApiErrorRemnant,
  isInterruptedResult,
  isRecord,
  isToolResult,
  isToolUse,
  resultText,
  type Entry,
  type ToolUseBlock,
} from "./passes/transcript-entries.js";
import { RECALL_WORDS, type PassageKind, type PassagePlace } from "./recall-text.js";

/** flower's in-process MCP server and its one tool, as the model calls it: `mcp__flower__recall`. */
export const RECALL_SERVER = "flower";
export const RECALL_TOOL_NAME = "recall";
export const RECALL_TOOL = `mcp__${RECALL_SERVER}__${RECALL_TOOL_NAME}`;
/**
 * The recall subagent's names (the second when a spec already has a subagent called "recall"). Its calls
 * and its own transcripts are left out of a later search: they only repeat older passages.
 */
export const RECALL_SUBAGENTS: readonly string[] = ["recall", "flower-recall"];

/** One earlier generation's transcripts, as stored. */
export interface RecallTranscript {
  generation: number;
  /** The main transcript(s) of the generation's session(s), oldest session first. */
  main: Entry[][];
  /** The subagents' transcripts (subagent subpaths) of those sessions. */
  subagents: Entry[][];
}

export interface RecallOptions {
  locale: Locale;
  /** The whole answer, headers and notes included, in characters. */
  maxChars: number;
  /** One passage's text, in characters. */
  passageChars: number;
  maxPassages: number;
  /** Takes the credentials out of a text (the runtime's SecretRedactor). */
  redact: (text: string) => string;
  /** Earlier generations whose transcripts the store did not have. @default none */
  missing?: readonly number[];
}

export interface RecallPassage extends PassagePlace {
  /** The passage as shown: the lines around the match, cut to `passageChars`. */
  text: string;
  score: number;
  /** What later work did to it: a newer passage that matches too, files it names that changed later. */
  later: string[];
}

export interface RecallAnswer {
  /** The answer as the model reads it. */
  text: string;
  /** Passages searched. */
  searched: number;
  /** Passages that matched. */
  matched: number;
  /** The passages shown, best first. */
  passages: RecallPassage[];
}

/** Searches the transcripts for `query`; `transcripts` empty: the step has no earlier generation. */
export function searchTranscripts(
  transcripts: readonly RecallTranscript[],
  query: string,
  options: RecallOptions,
): RecallAnswer {
  const words = RECALL_WORDS[options.locale];
  const missing = options.missing ?? [];
  const note = missing.length > 0 ? `\n\n${words.missing(words.generations(missing))}` : "";
  const none = (text: string): RecallAnswer => ({ text, searched: 0, matched: 0, passages: [] });
  if (transcripts.length === 0 && missing.length === 0) return none(words.noEarlier);
  // A query naming a credential asks for its marker: it can never match (or show) the value.
  const terms = queryTerms(options.redact(query));
  if (terms.length === 0) return none(words.emptyQuery);

  const { units, edits } = collect(transcripts, options.redact);
  const generations = words.generations([...transcripts.map((t) => t.generation), ...missing]);
  const shownQuery = oneLine(options.redact(query), 120);
  const hits = rank(units, terms, options.redact(query));
  if (hits.length === 0) {
    return {
      text: words.nothing({ query: shownQuery, generations, searched: units.length }) + note,
      searched: units.length,
      matched: 0,
      passages: [],
    };
  }

  // Passages in rank order while the answer stays within its bound.
  const passages: RecallPassage[] = [];
  const blocks: string[] = [];
  const headerFor = (shown: number) =>
    words.header({ query: shownQuery, generations, matched: hits.length, shown });
  const footerFor = (shown: number) =>
    hits.length > shown ? `\n\n${words.more(hits.length - shown, options.maxChars)}` : "";
  const size = (extra: string[]) =>
    headerFor(extra.length).length + footerFor(extra.length).length + note.length + extra.join("").length;
  for (const hit of hits) {
    if (passages.length >= options.maxPassages) break;
    const passage = toPassage(hit, hits, edits, terms, options);
    const block = `\n\n[${passages.length + 1}] ${words.place(passage)}:\n${passage.text}${
      passage.later.length > 0 ? `\n${words.laterPrefix}${passage.later.join("; ")}.` : ""
    }`;
    if (size([...blocks, block]) > options.maxChars) {
      if (passages.length === 0) {
        // Even one passage is too long with its notes: shown shorter, never not at all.
        const room = Math.max(80, options.maxChars - size([]) - words.place(passage).length - 16);
        const cut = { ...passage, text: cutText(passage.text, room), later: [] };
        passages.push(cut);
        blocks.push(`\n\n[1] ${words.place(cut)}:\n${cut.text}`);
      }
      break;
    }
    passages.push(passage);
    blocks.push(block);
  }
  return {
    text: headerFor(passages.length) + blocks.join("") + footerFor(passages.length) + note,
    searched: units.length,
    matched: hits.length,
    passages,
  };
}

/** A searchable piece of a transcript: one text block, tool call or tool result. */
interface Unit extends PassagePlace {
  text: string;
  lower: string;
  /** The label, lower-cased: a result is found by its call's file or command too (`README.md`). */
  labelLower: string;
}

/** A file a tool call changed, and when; `cwd`: where the session ran (a passage may name it relatively). */
interface Edit {
  path: string;
  cwd: string | null;
  generation: number;
  turn: number;
}

const EDITING_TOOLS: ReadonlySet<string> = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/**
 * Every unit of every transcript, each generation's duplicates once (a subagent's brief is also its Agent
 * call).
 */
function collect(
  transcripts: readonly RecallTranscript[],
  redact: (text: string) => string,
): { units: Unit[]; edits: Edit[] } {
  const units: Unit[] = [];
  const edits: Edit[] = [];
  for (const transcript of transcripts) {
    const seen = new Set<string>();
    const add = (unit: Omit<Unit, "lower" | "labelLower" | "generation">) => {
      const text = redact(unit.text).trim();
      if (text === "" || seen.has(text)) return;
      seen.add(text);
      const label = unit.label === null ? null : redact(unit.label);
      units.push({
        ...unit,
        label,
        generation: transcript.generation,
        text,
        lower: text.toLowerCase(),
        labelLower: label?.toLowerCase() ?? "",
      });
    };
    const turnOfCall = new Map<string, number>();
    for (const main of transcript.main)
      readTranscript(main, null, transcript.generation, add, edits, turnOfCall, () => 0);
    for (const subagent of transcript.subagents) {
      const meta = subagent.find((entry) => entry.type === "agent_metadata");
      // Without its type the passage names it "worker", the word recall's answers use (recall-text.ts).
      const type = typeof meta?.["agentType"] === "string" ? meta["agentType"] : "worker";
      if (RECALL_SUBAGENTS.includes(type)) continue;
      const call = typeof meta?.["toolUseId"] === "string" ? meta["toolUseId"] : "";
      const turn = turnOfCall.get(call) ?? 0;
      readTranscript(subagent, type, transcript.generation, add, edits, new Map(), () => turn);
    }
  }
  return { units, edits };
}

/**
 * The units of one transcript. The main thread counts its turns as `flower show` does (one per model
 * response, the binary's synthetic messages left out); a subagent's units all belong to the main turn that
 * sent it (`fixedTurn`).
 */
function readTranscript(
  entries: readonly Entry[],
  subagent: string | null,
  generation: number,
  add: (unit: Omit<Unit, "lower" | "labelLower" | "generation">) => void,
  edits: Edit[],
  turnOfCall: Map<string, number>,
  fixedTurn: () => number,
): void {
  const responses = new Set<string>();
  const calls = new Map<string, ToolUseBlock>();
  const skipped = new Set<string>();
  const turnNow = () => (subagent === null ? responses.size : fixedTurn());
  for (const entry of entries) {
    if (subagent === null && entry["isSidechain"] === true) continue;
    if (entry["isMeta"] === true) continue;
    const message = entry["message"];
    // The writing turn and what follows it: the handoff the successor was started from, which it has.
    if (subagent === null && entry.type === "user" && userText(message).includes(HANDOFF_SIGNATURE)) return;
    if (entry.type === "assistant") {
      if (!isRecord(message) || message["model"] === "<synthetic>" || isApiErrorRemnant(entry)) continue;
      const id = typeof message["id"] === "string" ? message["id"] : `entry:${entry.uuid ?? responses.size}`;
      responses.add(id);
      const turn = turnNow();
      for (const block of contentBlocks(entry) ?? []) {
        if (!isRecord(block)) continue;
        if (block["type"] === "text" && typeof block["text"] === "string")
          add({ turn, subagent, kind: "text", tool: null, label: null, text: block["text"] });
        else if (block["type"] === "thinking" && typeof block["thinking"] === "string")
          add({ turn, subagent, kind: "thinking", tool: null, label: null, text: block["thinking"] });
        else if (isToolUse(block)) {
          calls.set(block.id, block);
          if (subagent === null) turnOfCall.set(block.id, turn);
          if (isRecallCall(block)) {
            skipped.add(block.id);
            continue;
          }
          const path = editedPath(block);
          const cwd = typeof entry["cwd"] === "string" ? entry["cwd"] : null;
          if (path !== null) edits.push({ path, cwd, generation, turn });
          const agent = block.name === "Agent" || block.name === "Task";
          const label = agent ? callLabel(block) : null;
          add({ turn, subagent, kind: "call", tool: block.name, label, text: callText(block) });
        }
      }
    } else if (entry.type === "user") {
      const content = isRecord(message) ? message["content"] : undefined;
      const prompt = { turn: turnNow() + (subagent === null ? 1 : 0), subagent, kind: "prompt" as const };
      if (typeof content === "string") {
        add({ ...prompt, tool: null, label: null, text: content });
        continue;
      }
      for (const block of contentBlocks(entry) ?? []) {
        if (isToolResult(block)) {
          if (skipped.has(block.tool_use_id) || isInterruptedResult(entry, block)) continue;
          const call = calls.get(block.tool_use_id);
          const raw = resultText(block);
          if (raw === undefined) continue;
          const text = call?.name === "Agent" || call?.name === "Task" ? subagentReport(raw) : raw;
          add({
            turn: subagent === null ? (turnOfCall.get(block.tool_use_id) ?? responses.size) : fixedTurn(),
            subagent,
            kind: "result",
            tool: call?.name ?? null,
            label: call ? callLabel(call) : null,
            text,
          });
        } else if (isRecord(block) && block["type"] === "text" && typeof block["text"] === "string") {
          add({ ...prompt, tool: null, label: null, text: block["text"] });
        }
      }
    }
  }
}

/** The text of a user message: its string, or its text blocks joined. */
function userText(message: unknown): string {
  if (!isRecord(message)) return "";
  const content = message["content"];
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => (isRecord(block) && typeof block["text"] === "string" ? block["text"] : ""))
    .join("\n");
}

/**
 * A subagent's report as the coordinator got it, without the binary's frame around it (the tools it used,
 * the hand-back notice, its indent, its agent id and usage): the report's words are what a query matches.
 * A result without that frame is kept as it is.
 */
export function subagentReport(text: string): string {
  const follows = text.indexOf("The report follows:\n");
  if (!text.includes("[Subagent hand-back]") || follows < 0) return text;
  let report = text.slice(follows + "The report follows:\n".length);
  const id = report.search(/\nagentId: /);
  if (id >= 0) report = report.slice(0, id);
  return report
    .split("\n")
    .map((line) => (line.startsWith("  ") ? line.slice(2) : line))
    .join("\n");
}

function isRecallCall(block: ToolUseBlock): boolean {
  if (block.name === RECALL_TOOL) return true;
  const input = isRecord(block.input) ? block.input : {};
  return (
    (block.name === "Agent" || block.name === "Task") &&
    typeof input["subagent_type"] === "string" &&
    RECALL_SUBAGENTS.includes(input["subagent_type"])
  );
}

function editedPath(block: ToolUseBlock): string | null {
  if (!EDITING_TOOLS.has(block.name) || !isRecord(block.input)) return null;
  const path = block.input["file_path"] ?? block.input["notebook_path"];
  return typeof path === "string" && path !== "" ? path : null;
}

/** A call as text: what a person would read in a log (the command, the file and what went in). */
function callText(block: ToolUseBlock): string {
  const input = isRecord(block.input) ? block.input : {};
  const field = (name: string) => (typeof input[name] === "string" ? input[name] : null);
  if (block.name === "Bash" && field("command") !== null) return `$ ${field("command")}`;
  if (block.name === "Write" && field("file_path") !== null)
    return `${field("file_path")}\n${field("content") ?? ""}`;
  if (block.name === "Edit" && field("file_path") !== null)
    return `${field("file_path")}\n- ${field("old_string") ?? ""}\n+ ${field("new_string") ?? ""}`;
  // The brief alone: the subagent's transcript starts with the same text, and is kept once.
  if ((block.name === "Agent" || block.name === "Task") && field("prompt") !== null) return field("prompt")!;
  return JSON.stringify(input);
}

/** The short summary a result's place names its call by. */
function callLabel(block: ToolUseBlock): string | null {
  const input = isRecord(block.input) ? block.input : {};
  for (const name of ["subagent_type", "command", "file_path", "pattern", "url", "query", "description"]) {
    const value = input[name];
    if (typeof value === "string" && value.trim() !== "") return oneLine(value, 60);
  }
  return null;
}

/** A matched unit, with where each term matched. */
interface Hit {
  unit: Unit;
  score: number;
  at: Array<{ index: number; length: number; term: number }>;
}

/** Words too common in a question to tell passages apart. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be by did do does for from had has have how in is it its of on or that the this " +
    "to was were what when where which who why with"
  ).split(" "),
);

const HAN = /\p{Script=Han}/u;

/**
 * The query's terms: its words (lower case, stop words left out; a run of Chinese characters as its
 * pairs, which is how Chinese words are found without a dictionary), and each token that holds
 * punctuation whole (a path, a file name, an identifier such as `DEPLOY-7731`).
 */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const raw of query.toLowerCase().split(/\s+/)) {
    const token = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    if (token.length >= 3 && /[^\p{L}\p{N}_]/u.test(token)) terms.add(token);
    for (const word of token.match(/[\p{L}\p{N}_]+/gu) ?? []) {
      for (const piece of word.match(/\p{Script=Han}+|[^\p{Script=Han}]+/gu) ?? []) {
        if (HAN.test(piece)) {
          if (piece.length === 1) terms.add(piece);
          for (let index = 0; index + 1 < piece.length; index += 1) terms.add(piece.slice(index, index + 2));
        } else if (piece.length >= 2 && !STOP_WORDS.has(piece)) terms.add(piece);
      }
    }
  }
  return [...terms];
}

/** A term's pattern: a word matches at the start of a word (`token` finds `tokens`), the rest anywhere. */
function termPattern(term: string): RegExp {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return /^[\p{L}\p{N}_]/u.test(term) && !HAN.test(term[0]!)
    ? new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}`, "gu")
    : new RegExp(escaped, "gu");
}

/**
 * Matched units, best first. A term weighs ln(1 + units / units holding it); a unit scores the weights of
 * the terms it holds (a little more for repeats), and the weights of all terms again when it holds the
 * whole query as written. Equal scores: the newer first, since later work is likelier to be current.
 */
function rank(units: readonly Unit[], terms: readonly string[], query: string): Hit[] {
  const patterns = terms.map(termPattern);
  const found: Array<Hit | null> = units.map((unit) => {
    const at: Hit["at"] = [];
    patterns.forEach((pattern, term) => {
      pattern.lastIndex = 0;
      let count = 0;
      // Found only in the label (a result's file or command): it counts, with no place in the text.
      if (unit.labelLower !== "" && !pattern.test(unit.lower)) {
        pattern.lastIndex = 0;
        if (pattern.test(unit.labelLower)) at.push({ index: -1, length: 0, term });
        return;
      }
      pattern.lastIndex = 0;
      for (
        let match = pattern.exec(unit.lower);
        match !== null && count < 50;
        match = pattern.exec(unit.lower)
      ) {
        at.push({ index: match.index, length: match[0].length, term });
        count += 1;
      }
    });
    return at.length > 0 ? { unit, score: 0, at } : null;
  });
  const holding = terms.map((_, term) => found.filter((hit) => hit?.at.some((a) => a.term === term)).length);
  const weight = holding.map((count) => (count === 0 ? 0 : Math.log(1 + units.length / count)));
  const phrase = query.toLowerCase().replace(/\s+/g, " ").trim();
  const hits = found.filter((hit): hit is Hit => hit !== null);
  for (const hit of hits) {
    for (let term = 0; term < terms.length; term += 1) {
      const repeats = hit.at.filter((a) => a.term === term).length;
      if (repeats > 0) hit.score += weight[term]! * (1 + 0.2 * Math.log(repeats));
    }
    const flat = `${hit.unit.labelLower} ${hit.unit.lower}`.replace(/\s+/g, " ");
    if (terms.length > 1 && phrase.length >= 6 && flat.includes(phrase))
      hit.score += weight.reduce((sum, value) => sum + value, 0);
  }
  return hits.sort(
    (a, b) => b.score - a.score || newer(b.unit, a.unit) || KIND_ORDER[a.unit.kind] - KIND_ORDER[b.unit.kind],
  );
}

/**
 * Equal passages of one turn: what came back (a result, the model's words) before what was asked (a
 * call, a prompt). A command that prints a path matches as well as its output, and the output is the
 * finding.
 */
const KIND_ORDER: Readonly<Record<PassageKind, number>> = {
  result: 0,
  text: 1,
  thinking: 2,
  call: 3,
  prompt: 4,
};

/** Positive when `a` comes after `b` (a later generation, or a later turn of the same one). */
function newer(
  a: Pick<PassagePlace, "generation" | "turn">,
  b: Pick<PassagePlace, "generation" | "turn">,
): number {
  return a.generation - b.generation || a.turn - b.turn;
}

/** A hit as shown: its best window, and what later work did to it. */
function toPassage(
  hit: Hit,
  hits: readonly Hit[],
  edits: readonly Edit[],
  terms: readonly string[],
  options: RecallOptions,
): RecallPassage {
  const words = RECALL_WORDS[options.locale];
  const { unit } = hit;
  const later: string[] = [];
  // The newest passage after this one that matches about as well: it may revise what this one says.
  const rival = hits
    .filter((other) => other !== hit && newer(other.unit, unit) > 0 && other.score >= hit.score / 2)
    .sort((a, b) => newer(b.unit, a.unit))[0];
  if (rival) later.push(words.laterMatch(rival.unit.generation, rival.unit.turn));
  // Files this passage names that a later call wrote or edited (the newest change of each, two at most).
  const changed = new Map<string, Edit>();
  for (const edit of edits) {
    if (newer(edit, unit) <= 0) continue;
    const relative =
      edit.cwd !== null && edit.path.startsWith(`${edit.cwd}/`) ? edit.path.slice(edit.cwd.length + 1) : null;
    const named = [edit.path, relative].some((form) => form !== null && mentions(unit.text, form));
    if (named) changed.set(edit.path, edit);
  }
  for (const edit of [...changed.values()].slice(-2))
    later.push(words.laterChange(edit.path, edit.generation, edit.turn));
  return {
    generation: unit.generation,
    turn: unit.turn,
    subagent: unit.subagent,
    kind: unit.kind,
    tool: unit.tool,
    label: unit.label,
    text: windowAround(unit, hit.at, terms.length, options.passageChars),
    score: Math.round(hit.score * 100) / 100,
    later,
  };
}

/**
 * The part of a unit shown: the whole text when it fits, else the `width` characters that hold the most
 * different terms, starting at a line's start where one is near, with `…` where it was cut.
 */
function windowAround(unit: Unit, found: Hit["at"], termCount: number, width: number): string {
  const text = unit.text;
  const at = found.filter((a) => a.index >= 0);
  if (text.length <= width) return text;
  // Positions are in the lower-cased text; a character whose lower case is longer shifts them.
  const source = unit.lower.length === text.length ? text : unit.lower;
  let best = { start: 0, covered: -1 };
  for (const { index } of [...at].sort((a, b) => a.index - b.index)) {
    const start = Math.max(0, Math.min(index - Math.floor(width / 4), source.length - width));
    const covered = new Set(
      at.filter((a) => a.index >= start && a.index + a.length <= start + width).map((a) => a.term),
    ).size;
    if (covered > best.covered) best = { start, covered };
    if (covered === termCount) break;
  }
  let start = best.start;
  const firstMatch = at.find((a) => a.index >= start)?.index ?? start;
  const lineStart = source.lastIndexOf("\n", firstMatch) + 1;
  if (lineStart > start && lineStart <= firstMatch) start = lineStart;
  else if (lineStart < start && start - lineStart <= 80) start = lineStart;
  let end = Math.min(source.length, start + width);
  const lineEnd = source.lastIndexOf("\n", end);
  if (end < source.length && lineEnd > start + width / 2) end = lineEnd;
  return `${start > 0 ? "…" : ""}${source.slice(start, end).trim()}${end < source.length ? "…" : ""}`;
}

/** Whether `text` names the path `form` as a path of its own (not as the tail of a longer one). */
function mentions(text: string, form: string): boolean {
  if (form.length < 4) return false;
  for (let index = text.indexOf(form); index >= 0; index = text.indexOf(form, index + 1)) {
    if (index === 0 || !/[\w./-]/.test(text[index - 1]!)) return true;
  }
  return false;
}

function cutText(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

function oneLine(text: string, chars: number): string {
  return cutText(text.replace(/\s+/g, " ").trim(), chars);
}
