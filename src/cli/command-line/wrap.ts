/**
 * Wrapping text to the terminal for the help: at word boundaries (and between Chinese characters, where
 * a line may break), with a hanging indent, never inside a word. A word longer than the line (a long
 * URL) gets a line of its own rather than being cut.
 */
import { columnsOf } from "../live/terminal-text.js";

/** The terminal's width; 80 when it is unknown (a pipe, a file). Never below 40: narrower cannot be read. */
export function terminalWidth(stream: { columns?: number } = process.stdout): number {
  const columns = stream.columns;
  return typeof columns === "number" && columns > 0 ? Math.max(40, columns) : 80;
}

/** A character after which, or before which, a line may break without a space (CJK text has none). */
const BREAKABLE = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uff60]/u;

/**
 * `text` as lines of at most `width` columns: the first starts with `first` (e.g. `  --window N   `),
 * every other with `indent` spaces. Existing whitespace collapses to one space.
 */
export function wrap(text: string, width: number, first = "", indent = columnsOf(first)): string[] {
  const pieces = splitBreakable(text.replace(/\s+/gu, " ").trim());
  const lines: string[] = [];
  let line = first;
  let lineHasText = false;
  for (const piece of pieces) {
    const word = piece.word;
    const gap = lineHasText && piece.spaceBefore ? " " : "";
    if (lineHasText && columnsOf(line) + columnsOf(gap) + columnsOf(word) > width) {
      lines.push(line.trimEnd());
      line = " ".repeat(indent) + word;
    } else {
      line += gap + word;
    }
    lineHasText = true;
  }
  lines.push(line.trimEnd());
  return lines;
}

/** Closing punctuation never starts a line, opening punctuation never ends one (the CJK rule). */
const CLOSING = /[,。、;:!?)」』》〉】]/u;
const OPENING = /[(「『《〈【[(]/u;

/** Words, and single wide characters as words of their own, each knowing whether a space preceded it. */
function splitBreakable(text: string): { word: string; spaceBefore: boolean }[] {
  const pieces: { word: string; spaceBefore: boolean }[] = [];
  for (const [index, spaced] of text.split(" ").entries()) {
    let current = "";
    let spaceBefore = index > 0;
    const flush = () => {
      if (current === "") return;
      pieces.push({ word: current, spaceBefore });
      current = "";
      spaceBefore = false;
    };
    for (const char of spaced) {
      if (CLOSING.test(char)) {
        // Stays with what it closes: on the current word, else on the last piece.
        if (current !== "") current += char;
        else if (pieces.length > 0 && !spaceBefore) pieces[pieces.length - 1]!.word += char;
        else current = char;
      } else if (OPENING.test(char)) {
        flush();
        current = char;
      } else if (BREAKABLE.test(char)) {
        if (!OPENING.test(Array.from(current).at(-1) ?? "")) flush();
        current += char;
        flush();
      } else {
        current += char;
      }
    }
    flush();
  }
  return pieces;
}
