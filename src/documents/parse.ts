/**
 * Reading a frozen document back from what a model wrote. The prompt asks for fixed headings, but models
 * add a preamble, wrap the document in a code fence, bold the headings, number them, write `doing:`
 * labels, translate them, or reorder the sections. A strict parser would turn each of those into a
 * missing required section, and a missing required section makes the whole document degraded — far
 * worse than a real document in an unusual format. So this parser is deliberately tolerant: it
 * recognises a section by its heading wherever and however it is written, and keeps everything else as
 * written. It also reads the files flower froze (in both locales), after a person edited them.
 * This file holds the document-level work (fences, preamble, closing remarks, joining chunks); what
 * counts as a heading is in heading-recognition.ts; the heading words come from the document's grammar
 * (the handoff's table, or a DocumentSpec's headings and aliases).
 */
import { isRule, normalizeSection } from "./normalize.js";
import { matchHeading, type AliasTable } from "./heading-recognition.js";
import { fenceMask, fenceRanges } from "./fences.js";
import { NOTES_KEY } from "./notes.js";

/** What a parser needs to know about one kind of document. */
export interface DocumentGrammar {
  /** Heading words → section key (`notes` for the block of other notes); longest first. */
  table: AliasTable;
  /** Whether the first non-empty line is the title flower writes when it freezes this kind of document. */
  isTitle: (line: string) => boolean;
}

/** What a model writes for "nothing here": treated as an empty section. `(空)` is toMarkdown's own. */
const EMPTY_MARKER =
  /^[[((]?\s*(?:空|无|暂无|没有|empty|none|nothing|n\/a|nothing yet|none yet)\s*[\]))]?[。.]?$/i;

export interface ParsedSections<Key extends string = string> {
  /** Section text as written (normalised); sections never mentioned are absent. */
  sections: Partial<Record<Key, string>>;
  /** Sections whose heading appeared, in order of first appearance. */
  found: Key[];
  /**
   * Every line that belongs to no section, in order: text before the first heading, a block of other
   * notes, closing remarks after the last section, text around a fenced document. "" when none.
   */
  notes: string;
}

/** The sections found in `text`, by the grammar's headings; nothing outside them is lost (`notes`). */
export function parseSections<Key extends string = string>(
  text: string,
  grammar: DocumentGrammar,
): ParsedSections<Key> {
  const lines = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  return parseLines(lines, grammar) as ParsedSections<Key>;
}

function parseLines(lines: string[], grammar: DocumentGrammar): ParsedSections {
  const { headings, ...direct } = collect(lines, grammar);
  // Any heading outside a fence, a notes heading included, means the document is not wrapped.
  if (headings > 0) return direct;
  // Nothing outside fences: the model probably wrapped the whole document in ```markdown. The text
  // around the fence ("Sure — here's the handoff:", "Good luck!") is kept as notes.
  let best: ParsedSections = direct;
  for (const block of fenceRanges(lines)) {
    const inner = parseLines(lines.slice(block.open + 1, block.close), grammar);
    if (inner.found.length <= best.found.length) continue;
    const before = finishChunk({ inline: "", lines: lines.slice(0, block.open), fenced: [] });
    const after = finishChunk({ inline: "", lines: lines.slice(block.close + 1), fenced: [] });
    best = { ...inner, notes: [before, inner.notes, after].filter((part) => part !== "").join("\n\n") };
  }
  return best;
}

function collect(lines: string[], grammar: DocumentGrammar): ParsedSections & { headings: number } {
  const inFence = fenceMask(lines);
  const frozen = grammar.isTitle((lines.find((line) => line.trim() !== "") ?? "").trim());
  const buffers = new Map<string, Chunk[]>();
  const found: string[] = [];
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
      const heading = matchHeading(line, inFence[i + 1] ? undefined : lines[i + 1], grammar.table);
      if (heading) {
        headings += 1;
        if (heading.section !== NOTES_KEY && !found.includes(heading.section)) found.push(heading.section);
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

  const sections: Partial<Record<string, string>> = {};
  for (const name of found) sections[name] = joinChunks(buffers.get(name) ?? []);
  const notes = joinChunks([preamble, ...(buffers.get(NOTES_KEY) ?? []), ...(closing ? [closing] : [])]);
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

function dedent(lines: string[]): string[] {
  const indents = lines
    .filter((line) => line.trim() !== "")
    .map((line) => /^[ \t]*/.exec(line)?.[0].length ?? 0);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  return common > 0
    ? lines.map((line) => line.slice(Math.min(common, /^[ \t]*/.exec(line)?.[0].length ?? 0)))
    : lines;
}
