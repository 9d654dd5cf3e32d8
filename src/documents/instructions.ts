/**
 * What the agent that writes a declared document is told: the spec's instructions, then the exact
 * headings to use (the ones the document is frozen with and the parser knows first), each with its hint
 * and whether it is required. The last line asks for the document itself as the final answer: the
 * answer is what gets frozen.
 */
import type { Locale } from "../locale/locale.js";
import type { DocumentSpec } from "./spec.js";

/** Present in every document request, in both locales: the offline kit's scripts can recognise it. */
export const DOCUMENT_SIGNATURE = "[flower:document]";

const TEXT: Record<
  Locale,
  { format: (title: string) => string; required: string; final: string; again: (title: string) => string }
> = {
  zh: {
    format: (title) =>
      `${DOCUMENT_SIGNATURE} 你这一步的最终回答就是《${title}》本身,它会被原样冻结到磁盘,下一步只读它。严格用下面这些标题(原样照抄,每个一行,用 ##),每段写要点:`,
    required: "(必填)",
    final: "只输出这份文书本身,不写客套话。没有内容的段写 (空),不要编。",
    again: (title) =>
      `${DOCUMENT_SIGNATURE} 现在给出最终回答:《${title}》本身,用上面规定的标题。只输出这份文书。`,
  },
  en: {
    format: (title) =>
      `${DOCUMENT_SIGNATURE} Your final answer in this step is the ${title} itself: it is frozen to disk as written, and the next step reads only it. Use exactly these headings (copied as they are, one per line, with ##) and write to the point:`,
    required: " (required)",
    final:
      "Output only the document, no pleasantries. Write (empty) under a section that has nothing; do not invent anything.",
    again: (title) =>
      `${DOCUMENT_SIGNATURE} Give your final answer now: the ${title} itself, with the headings given above. Output only the document.`,
  },
};

/** Appended to the writing agent's system prompt: the spec's instructions and the document's format. */
export function documentInstructions(spec: DocumentSpec, locale: Locale): string {
  const text = TEXT[locale];
  const sections = spec.sections.map((section) => {
    const heading = `## ${section.heading[locale]}${section.required ? text.required : ""}`;
    return section.hint?.[locale] ? `${heading}\n${section.hint[locale]}` : heading;
  });
  return [spec.instructions[locale], text.format(spec.title[locale]), sections.join("\n\n"), text.final]
    .filter((part) => part.trim() !== "")
    .join("\n\n");
}

/** The prompt that asks a resumed session (after a crash or a stop) for the document as its answer. */
export function documentRequest(spec: DocumentSpec, locale: Locale): string {
  return TEXT[locale].again(spec.title[locale]);
}
