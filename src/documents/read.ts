/**
 * Reading a declared document from text: a model's answer, or a frozen file after a person edited it.
 * The degraded line under a frozen title (`> [降级:...]`) is flower's own annotation, not content: it is
 * dropped on read-back, and whether the document is degraded is decided again from what it now says
 * (a person who filled in the missing section has fixed it).
 */
import { parseSections } from "./parse.js";
import { ParsedDocument, type DocumentSpec } from "./document.js";
import { grammarOf } from "./grammar.js";
import { assessDocument } from "./quality.js";
import { DEGRADED_LINE_PATTERN } from "./document-text.js";

/**
 * Parses `text` into the spec's sections (tolerant forms, both locales; nothing outside the sections is
 * lost: it goes to `notes`). The result is marked degraded when a required section is missing or
 * hollow, or the spec's own check fails. `run` goes only into the title.
 */
export function parseDocument(spec: DocumentSpec, text: string, run = ""): ParsedDocument {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const { sections, notes } = parseSections(withoutDegradedLine(spec, normalized, run), grammarOf(spec, run));
  const written = new ParsedDocument(spec, { run, sections, notes });
  return written.withDegraded(assessDocument(written).why);
}

/**
 * The text without flower's degraded line (the first line after the title, when it is one) and the
 * blank line that follows it; every other character as it was. The text itself when it has no such
 * line. A prompt that carries a document found complete again uses this, so the model is not told a
 * complete document is degraded by a note the person left in the file.
 */
export function withoutDegradedLine(spec: DocumentSpec, text: string, run = ""): string {
  // Each line keeps its own ending (\n, \r\n or \r), so what is kept is kept byte for byte.
  const lines = text.split(/(?<=\n|\r(?!\n))/);
  const content = (index: number) => (lines[index] ?? "").replace(/^\uFEFF/, "").trim();
  const first = lines.findIndex((_, index) => content(index) !== "");
  if (first === -1 || !grammarOf(spec, run).isTitle(content(first))) return text;
  const second = lines.findIndex((_, index) => index > first && content(index) !== "");
  if (second === -1 || !DEGRADED_LINE_PATTERN.test(content(second))) return text;
  const blankAfter = second + 1 < lines.length && content(second + 1) === "" ? 1 : 0;
  return [...lines.slice(0, second), ...lines.slice(second + 1 + blankAfter)].join("");
}
