/**
 * The requirements confirmation (`需求确认书`): the first step of the default workflow turns
 * the task as typed into something a person can check before hours of work are built on it. The reason:
 * a misunderstood goal is the one failure no context layer fixes — once the material is gone it looks
 * exactly like a right decision; what helps is clarifying up front.
 */
import { defineDocument } from "../spec.js";

export const REQUIREMENTS = defineDocument({
  kind: "requirements",
  title: { zh: "需求确认书", en: "Requirements confirmation" },
  file: { zh: "需求", en: "requirements" },
  sections: [
    {
      key: "task",
      heading: { zh: "任务", en: "Task" },
      aliases: ["需求", "任务描述", "the task", "task description", "request"],
      required: true,
      hint: {
        zh: "一段话,用用户自己的说法复述要做的事。",
        en: "One paragraph: what is to be done, in the user's own terms.",
      },
    },
    {
      key: "inScope",
      heading: { zh: "范围内", en: "In scope" },
      aliases: ["范围", "要做的", "包含", "scope", "in-scope"],
      hint: { zh: "这次要做的部分。", en: "What this piece of work covers." },
    },
    {
      key: "outOfScope",
      heading: { zh: "范围外", en: "Out of scope" },
      aliases: ["不做的", "不包含", "out-of-scope", "not in scope"],
      hint: { zh: "这次明确不做的部分。", en: "What it deliberately does not cover." },
    },
    {
      key: "acceptance",
      heading: { zh: "验收标准", en: "Acceptance" },
      aliases: ["验收", "验收条件", "acceptance criteria", "done when", "definition of done"],
      required: true,
      hint: {
        zh: "可观察的标准:做完以后,看什么、跑什么就能判断做成了。",
        en: "Observable criteria: what one looks at or runs afterwards to tell that it is done.",
      },
    },
    {
      key: "assumptions",
      heading: { zh: "假设", en: "Assumptions" },
      aliases: ["前提", "前提假设", "assumed"],
      hint: {
        zh: "你替用户做的、他没说的决定,每条一行。",
        en: "Decisions you made that the user did not state, one per line.",
      },
    },
    {
      key: "openQuestions",
      heading: { zh: "待确认问题", en: "Open questions" },
      aliases: ["待确认", "未决问题", "开放问题", "问题", "questions", "unresolved questions"],
      hint: {
        zh: "只有用户能回答的问题,每条一行;没有就写 (空)。",
        en: "Questions only the user can answer, one per line; (empty) when there are none.",
      },
    },
  ],
  instructions: {
    zh: [
      "你的任务是写需求确认书,不是做任务本身。你在工作区里只能看(读文件、Glob、Grep、只读的一瞥命令),不能改任何东西。",
      "不要向用户提问,也不要等待回答:你拿不准的,先按最合理的理解写进“假设”,只有用户才能回答的写进“待确认问题”。一个人会在下一步开始前读这份文书,可能改掉其中一行。",
      "验收标准要可观察:做完以后看什么、跑什么能判断做成了。",
    ].join("\n"),
    en: [
      "Your job is to write the requirements confirmation, not to do the task. In the workspace you may only look (read files, Glob, Grep, read-only glance commands); you change nothing.",
      "Ask the user nothing and wait for no answer: what you cannot decide, decide as reasonably as you can and write it under Assumptions; what only the user can answer goes under Open questions. A person reads this document before the next step starts and may change a line.",
      "Acceptance criteria must be observable: what one looks at or runs afterwards to tell it is done.",
    ].join("\n"),
  },
});
