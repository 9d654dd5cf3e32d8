/**
 * The handoff document: a frozen artifact a human can read and edit, in five sections. Each section
 * blocks one mistake the successor would otherwise make (not knowing where it stands, re-opening
 * settled decisions, re-walking dead ends, spending half an hour deciding what to do, hunting for files).
 */
import type { Locale } from "../locale/locale.js";
import { HANDOFF_SECTIONS, REQUIRED, type HandoffSectionName } from "../handoff-sections.js";
import { NOTES_HEADING } from "../documents/notes.js";
import {
  DEGRADED,
  EMPTY_SECTION,
  HANDOFF_TITLE,
  MECHANICAL,
  SECTION_HEADINGS,
} from "./handoff-document-text.js";
import { normalizeSection } from "../documents/normalize.js";

// The parser and the quality check import them from here; they are the same for every document.
export { isRule, normalizeSection } from "../documents/normalize.js";

export type HandoffSections = Record<HandoffSectionName, string>;

/**
 * Why the previous generation handed off, as its successor is told: its context neared the handoff line
 * (or overflowed), or a person asked for it with `flower handoff` (record.handoffRequests).
 */
export type HandoffCause = "context" | "person";

/**
 * How the successor can recall what this handoff left out from the earlier generations' transcripts
 * (agents/recall-subagent.ts): the subagent to send, or the tool to call itself. Absent: no recall. The
 * prompt calls the subagent a worker, the word the rules address the model with (agents/rules.ts).
 */
export type RecallMention = { subagent: string } | { tool: string };

export interface HandoffInit extends Partial<HandoffSections> {
  /** The step's name; used only in the document's title, never parsed back. */
  step?: string;
  /** What the model wrote outside the five sections (preamble, closing remarks); see notes.ts. */
  notes?: string;
}

export class Handoff {
  readonly step: string;
  /** Required: what is being done right now, and how far it got. */
  readonly doing: string;
  /** Decisions already made, each with its reason. */
  readonly decided: string;
  /** What was tried and did not work, with its measured cost: the most expensive thing to rediscover. */
  readonly deadends: string;
  /** Required: the first concrete thing the successor does. */
  readonly next: string;
  /** Paths of key files and outputs: pointers, not contents. */
  readonly scene: string;
  /** Lines that belong to no section, kept for the successor in a trailing block; "" when none. */
  readonly notes: string;

  constructor(init: HandoffInit = {}) {
    this.step = (init.step ?? "").trim();
    this.doing = normalizeSection(init.doing);
    this.decided = normalizeSection(init.decided);
    this.deadends = normalizeSection(init.deadends);
    this.next = normalizeSection(init.next);
    this.scene = normalizeSection(init.scene);
    this.notes = normalizeSection(init.notes);
  }

  /** The sections by name, in document order. */
  sections(): HandoffSections {
    return {
      doing: this.doing,
      decided: this.decided,
      deadends: this.deadends,
      next: this.next,
      scene: this.scene,
    };
  }

  /**
   * Required sections that are empty. Only `doing` and `next`: demanding dead ends would provoke
   * invented ones, and a missing required section is asked for again and then filled in mechanically
   * (switch.ts).
   */
  missing(): HandoffSectionName[] {
    return REQUIRED.filter((name) => this[name] === "");
  }

  complete(): boolean {
    return this.missing().length === 0;
  }

  /** True for a mechanically assembled handoff: `doing` carries the DEGRADED marker. */
  get degraded(): boolean {
    return this.doing.includes(DEGRADED);
  }

  /**
   * Sections flower filled in because the session left them empty or hollow (they start with the
   * MECHANICAL marker, mechanical.ts); every other section is the session's own words.
   */
  get mechanical(): HandoffSectionName[] {
    return HANDOFF_SECTIONS.filter((name) => this[name].startsWith(MECHANICAL));
  }

  /** The document as frozen to disk. Empty sections read `(空)` / `(empty)`, so a reader sees they were left blank. */
  toMarkdown(locale: Locale): string {
    const headings = SECTION_HEADINGS[locale];
    const parts = [HANDOFF_TITLE[locale](this.step)];
    for (const name of HANDOFF_SECTIONS) {
      parts.push(`## ${headings[name]}\n${this[name] || EMPTY_SECTION[locale]}`);
    }
    // Only when there is something: a handoff without stray lines freezes exactly as before.
    if (this.notes) parts.push(`## ${NOTES_HEADING[locale]}\n${this.notes}`);
    return `${parts.join("\n\n")}\n`;
  }

  /**
   * The new session's first prompt. The header says plainly that it is taking over, so it does not
   * turn around and ask for background; a degraded handoff says it is incomplete and to look at the scene;
   * a handoff with mechanical sections names them, so the successor knows which parts are the session's
   * words (trust them) and which are flower's (check them against the scene). `cause`: a handoff a person
   * asked for says so, not that the context was nearly full. `recall`: the successor is told it can
   * search the earlier generations for a detail the handoff does not have, and how.
   */
  promptBlock(locale: Locale, cause: HandoffCause = "context", recall?: RecallMention): string {
    const text = PROMPT_HEADER[locale];
    const lines = [text.header(this.step, cause)];
    const mechanical = this.mechanical;
    if (this.degraded) lines.push(text.degraded);
    else if (mechanical.length > 0) {
      lines.push(text.mechanical(mechanical.map((name) => SECTION_HEADINGS[locale][name])));
    }
    if (recall) lines.push(text.recall(recall));
    lines.push(this.toMarkdown(locale));
    return lines.join("\n\n");
  }
}

const PROMPT_HEADER: Record<
  Locale,
  {
    header: (step: string, cause: HandoffCause) => string;
    degraded: string;
    mechanical: (headings: string[]) => string;
    recall: (recall: RecallMention) => string;
  }
> = {
  zh: {
    header: (step, cause) =>
      `你在接手${step ? `「${step}」这一步` : "这一步"}。` +
      (cause === "person"
        ? `有人用 flower handoff 要求上一条会话交接(不是上下文满了),它写下下面这份交接书后退场,你是新开的会话,接着它往下做。`
        : `上一条会话的上下文快满了,它写下下面这份交接书后退场,你是新开的会话,接着它往下做。`) +
      `背景都在这份交接书和磁盘上的文件里 —— 不要回头问人要背景,也不要从头再来;已经定下的别重新讨论,走不通的路别再走一遍,从"下一步"开始。`,
    degraded:
      "注意:这份交接是降级件 —— 上一条会话没能写成交接书,下面是机械拼出来的,不完整。先自己去现场看(工作区里的文件、工作台的 notes/ 和 artifacts/),弄清做到哪了,再接着做。",
    mechanical: (headings) =>
      `注意:这份交接书是上一条会话自己写的,只有${headings.map((h) => `"${h}"`).join("、")}除外 —— 它把这${headings.length > 1 ? "几" : ""}段留空或没写实,是 flower 机械补上的(开头标着 ${MECHANICAL})。其余各段都是它的原话,照着用;机械补的部分先到现场核对。`,
    recall: (recall) =>
      `回忆:你之前几代的记录都还在。需要交接书里没有的细节 —— 确切的路径、某个值、某条命令的输出、某件事为什么这么定 —— ` +
      ("subagent" in recall
        ? `就派 "${recall.subagent}" 执行者去找(任务书写清要找什么),`
        : `就用几个有区分度的词调用 ${recall.tool} 工具去找,`) +
      `不要把找到它的活重做一遍;回答是原文和出处(第几代、第几轮)。先照交接书做:只回忆它没写的。`,
  },
  en: {
    header: (step, cause) =>
      `You are taking over ${step ? `the step "${step}"` : "this step"}. ` +
      (cause === "person"
        ? `A person asked the previous session to hand over (with flower handoff; its context was not full); it wrote the handoff below and retired. You are the new session and continue from where it stopped. `
        : `The previous session's context was nearly full; it wrote the handoff below and retired. You are the new session and continue from where it stopped. `) +
      `The background is in this handoff and in the files on disk — do not ask anyone for background and do not start over; do not re-open what is decided, do not re-walk the dead ends, start with the next step.`,
    degraded:
      "Note: this handoff is degraded — the previous session could not write one, so what follows was assembled mechanically and is incomplete. Look at the scene yourself first (the files in the workspace, the workbench's notes/ and artifacts/), find out how far the work got, then continue.",
    mechanical: (headings) =>
      `Note: the previous session wrote this handoff itself, except ${headings.map((h) => `"${h}"`).join(" and ")}: it left ${headings.length > 1 ? "those sections" : "that section"} empty or hollow, and flower filled ${headings.length > 1 ? "them" : "it"} in mechanically (marked ${MECHANICAL} at the start). Every other section is the session's own words: rely on them; check the mechanical parts against the scene.`,
    recall: (recall) =>
      `Recall: the transcripts of the generations before you are kept. When you need a detail this handoff does not have — an exact path, a value, a command's output, why something was decided — ` +
      ("subagent" in recall
        ? `send the "${recall.subagent}" worker with what you are looking for`
        : `call the ${recall.tool} tool with a few distinctive words`) +
      ` instead of redoing the work that found it; the answer is the passages and where they came from (generation, turn). Start from the handoff: recall only what it leaves out.`,
  },
};
