/**
 * Reading a handoff back from what a model wrote. The prompt asks for fixed headings, but models add a
 * preamble, wrap the document in a code fence, bold the headings, number them, write `doing:` labels,
 * translate them, or reorder the sections. A strict parser would turn each of those into a missing
 * required section, and a missing required section replaces the whole handoff with a degraded one —
 * far worse than a real handoff in an unusual format. So this parser is deliberately tolerant: it
 * recognises a section by its heading wherever and however it is written, and keeps everything else
 * as written. It also reads the files `toMarkdown()` froze (in both locales), after a human edited them.
 */
import { Handoff, isRule, normalizeSection } from "./document.js";
import { HANDOFF_SECTIONS, type HandoffSectionName } from "./sections.js";
import { LOCALES } from "../locale/locale.js";
import { NOTES_ALIASES } from "./notes.js";
import { HANDOFF_TITLE, SECTION_HEADINGS } from "./text.js";

/** Heading words per section, in both languages (lowercase). The rendered headings come first. */
const ALIASES: Readonly<Record<HandoffSectionName, readonly string[]>> = {
  doing: [
    SECTION_HEADINGS.zh.doing,
    SECTION_HEADINGS.en.doing.toLowerCase(),
    "doing",
    "现在在做",
    "正在做什么",
    "正在做",
    "当前在做什么",
    "当前在做",
    "在做什么",
    "当前进度",
    "当前状态",
    "what i'm doing",
    "what i am doing now",
    "what i'm doing now",
    "currently doing",
    "current work",
    "current state",
    "current status",
    "in progress",
    "where we are",
    "where i am",
  ],
  decided: [
    SECTION_HEADINGS.zh.decided,
    SECTION_HEADINGS.en.decided.toLowerCase(),
    "decided",
    "已经定下的事",
    "已定的事",
    "已经决定的",
    "已经决定的事",
    "已决定",
    "已定",
    "定下的事",
    "决定",
    "decisions",
    "decisions made",
    "key decisions",
    "what is decided",
    "what's decided",
    "settled",
  ],
  deadends: [
    SECTION_HEADINGS.zh.deadends,
    SECTION_HEADINGS.en.deadends.toLowerCase(),
    "deadends",
    "dead-ends",
    "dead end",
    "走不通的",
    "走不通",
    "死胡同",
    "试过不行的",
    "试过但不行的",
    "踩过的坑",
    "what did not work",
    "what didn't work",
    "tried and failed",
    "failed attempts",
    "failed approaches",
  ],
  next: [
    SECTION_HEADINGS.zh.next,
    SECTION_HEADINGS.en.next.toLowerCase(),
    "next",
    "next steps",
    "下一步做什么",
    "下一步要做的",
    "接下来",
    "接下来做什么",
    "what next",
    "what's next",
    "what to do next",
  ],
  scene: [
    SECTION_HEADINGS.zh.scene,
    SECTION_HEADINGS.en.scene.toLowerCase(),
    "关键文件",
    "关键路径",
    "关键文件与产出",
    "文件与产出",
    "key files",
    "key paths",
    "key files and outputs",
    "where things are",
  ],
};

/** What a heading can open: one of the five sections, or the trailing block of other notes. */
type Target = HandoffSectionName | "notes";

/** Longest first, so `what i am doing now` wins over `doing` when both would match. */
const ALIAS_TABLE: ReadonlyArray<readonly [string, Target]> = [
  ...HANDOFF_SECTIONS.flatMap((name) => ALIASES[name].map((alias) => [alias, name] as const)),
  ...NOTES_ALIASES.map((alias) => [alias, "notes"] as const),
].sort((a, b) => b[0].length - a[0].length);

/** What a model writes for "nothing here": treated as an empty section. `(空)` is toMarkdown's own. */
const EMPTY_MARKER =
  /^[[((]?\s*(?:空|无|暂无|没有|empty|none|nothing|n\/a|nothing yet|none yet)\s*[\]))]?[。.]?$/i;

export interface ParsedSections {
  /** Section text as written (normalised); sections never mentioned are absent. */
  sections: Partial<Record<HandoffSectionName, string>>;
  /** Sections whose heading appeared, in order of first appearance. */
  found: HandoffSectionName[];
  /**
   * Every line that belongs to no section, in order: text before the first heading, a block of other
   * notes, closing remarks after the last section, text around a fenced document. "" when none.
   */
  notes: string;
}

/** Parses a model's answer (or a frozen handoff file) into a Handoff. `step` goes only into the title. */
export function parseHandoff(text: string, step = ""): Handoff {
  const { sections, notes } = parseSections(text);
  return new Handoff({ step, ...sections, notes });
}

/** The sections found in `text`, without building a Handoff. */
export function parseSections(text: string): ParsedSections {
  const lines = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  return parseLines(lines);
}

function parseLines(lines: string[]): ParsedSections {
  const { headings, ...direct } = collect(lines);
  // Any heading outside a fence, a notes heading included, means the document is not wrapped.
  if (headings > 0) return direct;
  // Nothing outside fences: the model probably wrapped the whole document in ```markdown. The text
  // around the fence ("Sure — here's the handoff:", "Good luck!") is kept as notes.
  let best: ParsedSections = direct;
  for (const block of fenceRanges(lines)) {
    const inner = parseLines(lines.slice(block.open + 1, block.close));
    if (inner.found.length <= best.found.length) continue;
    const before = finishChunk({ inline: "", lines: lines.slice(0, block.open), fenced: [] });
    const after = finishChunk({ inline: "", lines: lines.slice(block.close + 1), fenced: [] });
    best = { ...inner, notes: [before, inner.notes, after].filter((part) => part !== "").join("\n\n") };
  }
  return best;
}

interface Heading {
  section: Target;
  /** Content written on the heading's own line (`doing: ...`, `**Next:** ...`). */
  inline: string;
  /** Lines consumed (2 for a setext heading). */
  span: number;
}

function collect(lines: string[]): ParsedSections & { headings: number } {
  const inFence = fenceMask(lines);
  const frozen = isFrozenFile(lines);
  const buffers = new Map<Target, Chunk[]>();
  const found: HandoffSectionName[] = [];
  let headings = 0;
  // Lines before the first heading: a model's preamble, kept as notes. In a frozen file, the title.
  const preamble: Chunk = { inline: "", lines: [], fenced: [] };
  let current: Chunk = preamble;
  let titleSkipped = !frozen;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (!titleSkipped && line.trim() !== "") {
      titleSkipped = true;
      continue;
    }
    if (!inFence[i]) {
      const heading = matchHeading(line, inFence[i + 1] ? undefined : lines[i + 1]);
      if (heading) {
        headings += 1;
        if (heading.section !== "notes" && !found.includes(heading.section)) found.push(heading.section);
        current = { inline: heading.inline, lines: [], fenced: [] };
        const chunks = buffers.get(heading.section) ?? [];
        chunks.push(current);
        buffers.set(heading.section, chunks);
        i += heading.span - 1;
        continue;
      }
    }
    current.lines.push(line);
    current.fenced.push(inFence[i] ?? false);
  }

  // Models put closing remarks after a rule below the last section ("---\n\nLet me know…"). They are
  // not part of that section, but they are the model's words: they move to the notes, nothing is cut.
  // Only a rule with section content above it counts (a section may open with a rule), and only in a
  // model's answer: a file flower froze ends with its own notes block, and a human's rule stays put.
  let closing: Chunk | null = null;
  if (current !== preamble && !frozen) {
    const last = current;
    const content = (index: number): boolean =>
      (last.lines[index] ?? "").trim() !== "" && (last.fenced[index] || !isRule(last.lines[index] ?? ""));
    let rule = -1;
    for (let index = last.lines.length - 1; index >= 0; index--) {
      if (!last.fenced[index] && isRule(last.lines[index] ?? "")) {
        rule = index;
        break;
      }
    }
    const contentBefore =
      rule !== -1 && (last.inline !== "" || last.lines.slice(0, rule).some((_, index) => content(index)));
    if (rule !== -1 && contentBefore) {
      closing = { inline: "", lines: last.lines.slice(rule + 1), fenced: last.fenced.slice(rule + 1) };
      last.lines = last.lines.slice(0, rule);
      last.fenced = last.fenced.slice(0, rule);
    }
  }

  const sections: Partial<Record<HandoffSectionName, string>> = {};
  for (const name of found) sections[name] = joinChunks(buffers.get(name) ?? []);
  const notes = joinChunks([preamble, ...(buffers.get("notes") ?? []), ...(closing ? [closing] : [])]);
  return { sections, found, notes, headings };
}

function joinChunks(chunks: readonly Chunk[]): string {
  return chunks
    .map(finishChunk)
    .filter((chunk) => chunk !== "")
    .join("\n\n");
}

interface Chunk {
  /** Text on the heading's own line; it starts at column 0, so it takes no part in dedenting. */
  inline: string;
  lines: string[];
  /** Per line: inside a code fence (where `---` is code, not a rule). */
  fenced: boolean[];
}

function finishChunk(chunk: Chunk): string {
  // Content indented under a numbered heading ("1. 现在在做什么\n   ...") is dedented as a block.
  // normalizeSection drops the rules at the edges: they separate sections, they are not part of one.
  const body = dedent(chunk.lines);
  const text = normalizeSection(chunk.inline ? [chunk.inline, ...body].join("\n") : body.join("\n"));
  return EMPTY_MARKER.test(text) ? "" : text;
}

/** Does the text start with the title `toMarkdown()` writes, in either locale, with or without a step? */
function isFrozenFile(lines: string[]): boolean {
  const first = (lines.find((line) => line.trim() !== "") ?? "").trim();
  return LOCALES.some((locale) => {
    const title = HANDOFF_TITLE[locale];
    const withStep = title("\u0000").split("\u0000")[0] ?? "";
    return first === title("") || first.startsWith(withStep);
  });
}

function dedent(lines: string[]): string[] {
  const indents = lines
    .filter((line) => line.trim() !== "")
    .map((line) => /^[ \t]*/.exec(line)?.[0].length ?? 0);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  return common > 0
    ? lines.map((line) => line.slice(Math.min(common, /^[ \t]*/.exec(line)?.[0].length ?? 0)))
    : lines;
}

/** Recognises a section heading in any of the forms models write. `next` is the following line (setext). */
function matchHeading(line: string, next: string | undefined): Heading | null {
  const trimmed = line.trim();
  if (trimmed === "") return null;

  // ## Heading   (ATX, any level, optional closing hashes; content after a colon is inline)
  const atx = /^#{1,6}\s+(.*?)(?:\s+#+)?$/.exec(trimmed);
  if (atx) return fromTitle(atx[1] ?? "", "loose");

  // **Heading**, **Heading:** text, - **Heading**: text, __Heading__
  const bold = /^(?:[-*+]\s+)?(?:\d+[.)]\s*)?(\*\*|__)(.+?)\1\s*(.*)$/.exec(trimmed);
  if (bold) {
    const title = bold[2] ?? "";
    const after = bold[3] ?? "";
    const matched = fromTitle(title, "loose");
    if (matched) {
      const inline = [matched.inline, after.replace(/^[::\-—–]\s*/, "").trim()].filter((part) => part !== "");
      return { ...matched, inline: inline.join(" ") };
    }
  }

  // Heading                (setext: the next line is === or ---)
  // ---------
  if (next !== undefined && /^\s{0,3}(=+|-+)\s*$/.test(next)) {
    const section = lookup(cleanTitle(trimmed), "strict");
    if (section) return { section: section.section, inline: "", span: 2 };
  }

  // doing: text  /  1. Next step: text  /  - `scene`: text  /  现场:text
  const label = /^(?:[-*+]\s+)?([^::]{1,48}?)\s*[::]\s*(.*)$/.exec(trimmed);
  if (label) {
    const section = lookup(cleanTitle(label[1] ?? ""), "decorated");
    if (section) return { section: section.section, inline: (label[2] ?? "").trim(), span: 1 };
  }

  // 1. 现在在做什么  /  一、下一步  /  【现场】  /  Next step   (a line that is only a heading)
  const section = lookup(cleanTitle(trimmed), "strict");
  if (section) return { section: section.section, inline: "", span: 1 };
  return null;
}

/** A heading's title; text after a colon on the heading line is the section's first line. */
function fromTitle(raw: string, mode: "loose"): Heading | null {
  const colon = /^(.*?)\s*[::]\s*(.*)$/.exec(raw);
  if (colon?.[2]) {
    const head = lookup(cleanTitle(colon[1] ?? ""), "decorated");
    if (head) return { section: head.section, inline: colon[2].trim(), span: 1 };
  }
  const found = lookup(cleanTitle(raw), mode);
  return found ? { section: found.section, inline: headingRest(raw, found.rest), span: 1 } : null;
}

/**
 * Words after the section's name on a heading line (`## Next — run the tests first`, `## Doing right
 * now`) are the section's first line, in the case they were written in: they are the model's words. A
 * parenthesis or bracket alone (`## 下一步 (next)`, `Decided (with reasons)`) decorates the heading and is
 * not kept.
 */
function headingRest(raw: string, rest: string): string {
  const words = rest.replace(/^[\s—–\-::,,]+/, "").trim();
  if (words === "" || /^[(([【〔][^()()]*[))\]】〕]$/.test(words)) return "";
  const at = raw.toLowerCase().lastIndexOf(words);
  return (at === -1 ? words : raw.slice(at, at + words.length)).replace(/(\*\*|__)$/, "").trim();
}

/**
 * Lowercased title without markup, numbering, brackets or a trailing colon.
 * "**1. 现在在做什么**" → "现在在做什么"; "【Scene】" → "scene"; "`doing`:" → "doing".
 */
function cleanTitle(raw: string): string {
  let text = raw.trim().replace(/[’‘]/g, "'");
  for (let round = 0; round < 3; round++) {
    const before = text;
    text = text
      .replace(/^(\*\*|__|\*|_|`)(.+)\1$/, "$2")
      .replace(/^[[【〔](.+)[\]】〕]$/, "$1")
      .replace(/^(?:\d{1,2}|[一二三四五六七八九十]{1,3}|[a-e])\s*[.)、.:]\s*/i, "")
      .replace(/^[((]\d{1,2}[))]\s*/, "")
      .replace(/^(?:(?:section|part)\b\s*\d*|第[一二三四五六七八九十\d]+(?:段|部分))\s*[:.:、]?\s*/i, "")
      .replace(/\s*[::]$/, "")
      .trim();
    if (text === before) break;
  }
  return text.toLowerCase().replace(/\s+/g, " ");
}

/**
 * strict: the whole title is an alias. decorated: an alias, optionally followed by a parenthesis or a
 * dash (`Decided (with reasons)`). loose: an alias followed by any separator and anything (headings only).
 */
function lookup(
  title: string,
  mode: "strict" | "decorated" | "loose",
): { section: Target; rest: string } | null {
  if (title === "") return null;
  for (const [alias, section] of ALIAS_TABLE) {
    if (title === alias) return { section, rest: "" };
    if (mode === "strict" || !title.startsWith(alias)) continue;
    const rest = title.slice(alias.length);
    // A hyphen or slash glued to the word makes another word (`scene-graph`, `next/prev`), not a decoration.
    const separated =
      mode === "loose" ? /^(?:\s|[((—–::,,[【])/.test(rest) : /^\s*[((—–【[]|^\s+[-/|]/.test(rest);
    if (separated) return { section, rest };
  }
  return null;
}

/** For each line: is it inside (or a delimiter of) a closed code fence? An unclosed fence is plain text. */
function fenceMask(lines: string[]): boolean[] {
  const mask = lines.map(() => false);
  for (const block of fenceRanges(lines)) {
    for (let i = block.open; i <= block.close; i++) mask[i] = true;
  }
  return mask;
}

function fenceRanges(lines: string[]): Array<{ open: number; close: number }> {
  const ranges: Array<{ open: number; close: number }> = [];
  let i = 0;
  while (i < lines.length) {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(lines[i] ?? "");
    if (!opening) {
      i++;
      continue;
    }
    const fence = opening[1] ?? "```";
    const closing = new RegExp(`^\\s{0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
    let close = -1;
    for (let j = i + 1; j < lines.length; j++) {
      if (closing.test(lines[j] ?? "")) {
        close = j;
        break;
      }
    }
    if (close === -1) {
      i++;
      continue;
    }
    ranges.push({ open: i, close });
    i = close + 1;
  }
  return ranges;
}
