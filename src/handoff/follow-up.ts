/**
 * One more ask for the weak sections. A writing turn that left `next` as "TBD" usually knows what comes
 * next; it ran out of breath on the last section, not out of knowledge. So before anything is filled in
 * mechanically the same session (it still has the context) gets one short turn naming the weak sections,
 * if the window has room for it. What it answers replaces only those sections, and only where the answer
 * is not weak itself (and fills a section left empty the first time, when the answer has it); the sections
 * it wrote the first time are kept as they were.
 */
import type { Locale } from "../locale/locale.js";
import { Handoff } from "./handoff-document.js";
import { parseSections } from "./read-handoff.js";
import { HANDOFF_SIGNATURE } from "./prompt.js";
import { isHollow } from "./handoff-quality.js";
import { HANDOFF_SECTIONS, type HandoffSectionName } from "../handoff-sections.js";
import { SECTION_HEADINGS } from "./handoff-document-text.js";

/** What each section must say, as the writing prompt asks it. */
const WHAT: Record<Locale, Partial<Record<HandoffSectionName, string>>> = {
  zh: {
    doing: "手上正在做的那件事,做到了哪一步",
    next: "接手的人进来该做的第一件事,具体到命令或文件",
  },
  en: {
    doing: "the one thing you are in the middle of, and how far it got",
    next: "the first concrete thing the successor does, down to the command or file",
  },
};

const TEXT: Record<Locale, (sections: string, count: number) => string> = {
  // The signature marks a writing turn (the offline kit answers it; the threshold exempts it).
  zh: (sections, count) =>
    `${HANDOFF_SIGNATURE} 你的交接书里这${count > 1 ? "几" : ""}段是空的或没写实("TBD"、占位符、一两个字),接手的人从中得不到东西。其余各段照你写的保留。只把下面${count > 1 ? "这几段" : "这一段"}重写一遍,标题原样照抄,写具体:\n\n${sections}\n\n不调用工具,直接输出。`,
  en: (sections, count) =>
    `${HANDOFF_SIGNATURE} ${count > 1 ? "These sections" : "This section"} of your handoff ${count > 1 ? "are" : "is"} empty or hollow ("TBD", a placeholder, a word or two): the successor gets nothing from ${count > 1 ? "them" : "it"}. The other sections are kept as you wrote them. Write only the following again, with the heading copied as it is, concretely:\n\n${sections}\n\nCall no tools; answer with the text.`,
};

/** The follow-up turn's prompt: the weak sections' headings, each with what it must say. */
export function followUpPrompt(weak: readonly HandoffSectionName[], locale: Locale): string {
  const sections = weak
    .map((name) => {
      const what = WHAT[locale][name];
      return `## ${SECTION_HEADINGS[locale][name]}${what ? `\n${what}` : ""}`;
    })
    .join("\n\n");
  return TEXT[locale](sections, weak.length);
}

/**
 * The handoff with the weak sections taken from the follow-up answer where it says something. An
 * answer without any heading is taken as the one section asked for, when only one was.
 */
export function takeFollowUp(handoff: Handoff, answer: string, weak: readonly HandoffSectionName[]): Handoff {
  const parsed = parseSections(answer);
  const sections = handoff.sections();
  const bare = parsed.found.length === 0 && weak.length === 1 ? parsed.notes : "";
  for (const name of weak) {
    const written = parsed.sections[name] ?? (name === weak[0] ? bare : "");
    if (written && !isHollow(written)) sections[name] = written;
  }
  // A first answer with no sections at all ("Done.") is often followed by the whole handoff: a section the
  // session left empty the first time and writes now is kept too. What it wrote the first time stays.
  for (const name of HANDOFF_SECTIONS) {
    const written = parsed.sections[name];
    if (!weak.includes(name) && isHollow(sections[name]) && written && !isHollow(written))
      sections[name] = written;
  }
  return new Handoff({ ...sections, step: handoff.step, notes: handoff.notes });
}
