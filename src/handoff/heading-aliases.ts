/**
 * The heading words that open each handoff section, in both languages, and the table the heading
 * recogniser searches. This is a data table: it grows whenever a model is seen writing a new heading, so
 * it lives apart from the recognition rules in heading-recognition.ts, which rarely change.
 */
import { HANDOFF_SECTIONS, type HandoffSectionName } from "../handoff-sections.js";
import { NOTES_ALIASES } from "../documents/notes.js";
import { SECTION_HEADINGS } from "./handoff-document-text.js";

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
export type Target = HandoffSectionName | "notes";

/** Longest first, so `what i am doing now` wins over `doing` when both would match. */
export const ALIAS_TABLE: ReadonlyArray<readonly [string, Target]> = [
  ...HANDOFF_SECTIONS.flatMap((name) => ALIASES[name].map((alias) => [alias, name] as const)),
  ...NOTES_ALIASES.map((alias) => [alias, "notes"] as const),
].sort((a, b) => b[0].length - a[0].length);
