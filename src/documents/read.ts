/**
 * Reading a declared document from text: a model's answer, or a frozen file after a person edited it.
 * The degraded line under a frozen title (`> [降级:...]`) is flower's own annotation, not content: it is
 * dropped on read-back, and whether the document is degraded is decided again from what it now says
 * (a person who filled in the missing section has fixed it).
 */
import { parseSections } from "./parse.js";
import { ParsedDocument } from "./document.js";
import { grammarOf } from "./grammar.js";
import { assessDocument } from "./quality.js";
import type { DocumentSpec } from "./spec.js";
import { DEGRADED_LINE_PATTERN } from "./text.js";

/**
 * Parses `text` into the spec's sections (tolerant forms, both locales; nothing outside the sections is
 * lost: it goes to `notes`). The result is marked degraded when a required section is missing or
 * hollow, or the spec's own check fails. `run` goes only into the title.
 */
export function parseDocument(spec: DocumentSpec, text: string, run = ""): ParsedDocument {
  const grammar = grammarOf(spec, run);
  const lines = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first !== -1 && grammar.isTitle((lines[first] ?? "").trim())) {
    const second = lines.findIndex((line, index) => index > first && line.trim() !== "");
    if (second !== -1 && DEGRADED_LINE_PATTERN.test((lines[second] ?? "").trim())) lines.splice(second, 1);
  }
  const { sections, notes } = parseSections(lines.join("\n"), grammar);
  const written = new ParsedDocument(spec, { run, sections, notes });
  return written.withDegraded(assessDocument(written).why);
}
