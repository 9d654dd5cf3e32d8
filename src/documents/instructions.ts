/**
 * What the agent that writes a declared document is told: the spec's instructions, then the exact
 * headings to use (the ones the document is frozen with and the parser knows first), each with its hint
 * and whether it is required. The last line asks for the document itself as the final answer: the
 * answer is what gets frozen.
 */
import type { Locale } from "../locale/locale.js";
import type { DocumentSpec } from "./document.js";

/**
 * `[flower:document:<kind>]`: in the writing agent's system prompt and in the request to give the
 * document, in both locales. The offline kit reads it (`ModelRequest.documentKind`), so a scripted
 * model can answer the requirements step with requirements and the goal step with a goal.
 */
export function documentSignature(kind: string): string {
  return `[flower:document:${kind}]`;
}

/** Finds a document signature; group 1 is the kind. */
export const DOCUMENT_SIGNATURE_PATTERN = /\[flower:document:([\p{L}\p{N}_-]+)\]/u;

const TEXT: Record<
  Locale,
  {
    format: (signature: string, title: string) => string;
    required: string;
    final: string;
    again: (signature: string, title: string) => string;
  }
> = {
  zh: {
    format: (signature, title) =>
      `${signature} 你这一步的最终回答就是《${title}》本身,它会被原样冻结到磁盘,下一步只读它。严格用下面这些标题(原样照抄,每个一行,用 ##),每段写要点:`,
    required: "(必填)",
    final: "只输出这份文书本身,不写客套话。没有内容的段写 (空),不要编。",
    again: (signature, title) =>
      `${signature} 接着刚才的做;最终回答是《${title}》本身,用系统提示里规定的标题。只输出这份文书。`,
  },
  en: {
    format: (signature, title) =>
      `${signature} Your final answer in this step is the ${title} itself: it is frozen to disk as written, and the next step reads only it. Use exactly these headings (copied as they are, one per line, with ##) and write to the point:`,
    required: " (required)",
    final:
      "Output only the document, no pleasantries. Write (empty) under a section that has nothing; do not invent anything.",
    again: (signature, title) =>
      `${signature} Continue where you stopped; your final answer is the ${title} itself, with the headings given in your instructions. Output only the document.`,
  },
};

/** Appended to the writing agent's system prompt: the spec's instructions and the document's format. */
export function documentInstructions(spec: DocumentSpec, locale: Locale): string {
  const text = TEXT[locale];
  const sections = spec.sections.map((section) => {
    const heading = `## ${section.heading[locale]}${section.required ? text.required : ""}`;
    return section.hint?.[locale] ? `${heading}\n${section.hint[locale]}` : heading;
  });
  return [
    spec.instructions[locale],
    text.format(documentSignature(spec.kind), spec.title[locale]),
    sections.join("\n\n"),
    text.final,
  ]
    .filter((part) => part.trim() !== "")
    .join("\n\n");
}

/** The prompt that asks a resumed session (after a crash or a stop) for the document as its answer. */
export function documentRequest(spec: DocumentSpec, locale: Locale): string {
  return TEXT[locale].again(documentSignature(spec.kind), spec.title[locale]);
}
