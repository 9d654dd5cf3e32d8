/**
 * What the demo's two document steps write, in both display languages: the requirements confirmation
 * (with the line the demo then edits, playing the person at the pause) and the goal, whose constraints
 * quote that line as the goal step read it — so the run shows the edit reaching the next step.
 *
 * None of this may mention the work step's generation markers (the check script, `notes-01.md`, or a
 * `1–N` range): the work step's prompt carries both documents, and the policy tells the work step's
 * generations apart by those markers.
 */
import type { Locale } from "../../../locale/locale.js";
import { NOTE_COUNT } from "./fixture.js";
import { SUMMARY_FILE } from "./script-text.js";

export interface DemoDocumentsText {
  /** The requirements step's glance before it answers, and the goal step's. */
  requirementsIntro: string;
  goalIntro: string;
  requirements: string;
  /** The one line the demo changes at the pause, before and after. */
  editedLine: { before: string; after: string };
  /** The goal, with the table line as the goal step found it in the requirements file it was given. */
  goal: (tableLine: string) => string;
  /** How the goal step finds the table line in its prompt: the line starts with this. */
  tableLinePrefix: string;
}

export const DEMO_DOCUMENTS_TEXT: Record<Locale, DemoDocumentsText> = {
  en: {
    requirementsIntro: "First a look at what the repository says about itself.",
    goalIntro: "Which test command does the workspace have?",
    requirements: [
      "## Task",
      `Survey the ${NOTE_COUNT} design notes in docs/ and have a summary table of them written to the workbench (${SUMMARY_FILE}), then have it checked; the repo's \`npm test\` must pass too.`,
      "",
      "## In scope",
      "- Reading the design notes in docs/.",
      "- A summary table in the workbench, and a check of it.",
      "",
      "## Out of scope",
      "- Changing the notes themselves.",
      "",
      "## Acceptance",
      `- ${SUMMARY_FILE} exists and is a markdown table with one row per note read.`,
      "- `npm test` exits 0.",
      "",
      "## Assumptions",
      "- The table has two columns: note number and topic.",
      "",
      "## Open questions",
      "- Should the table also list each note's measurement run id (HT0…)?",
    ].join("\n"),
    editedLine: {
      before: "- The table has two columns: note number and topic.",
      after: "- The table has two columns: note number and topic (confirmed by a person: no run ids).",
    },
    tableLinePrefix: "- The table has",
    goal: (tableLine) =>
      [
        "## Goal",
        "A checked summary table of the design notes in the workbench, with `npm test` passing.",
        "",
        "## Checks",
        `- \`test -s ${SUMMARY_FILE}\` exits 0`,
        `- \`grep -c '^. [0-9]' ${SUMMARY_FILE}\` output matches \`^${NOTE_COUNT}$\` (one row per note)`,
        "- `npm test --silent` exits 0",
        "",
        "## Constraints",
        `- From the requirements: ${tableLine.replace(/^-\s*/, "")}`,
        "- The notes in docs/ stay unchanged.",
        "",
        "## Non-goals",
        "- Summarising what each note says.",
      ].join("\n"),
  },
  zh: {
    requirementsIntro: "先看看仓库自己怎么介绍。",
    goalIntro: "工作区里有哪条测试命令?",
    requirements: [
      "## 任务",
      `把 docs/ 里的 ${NOTE_COUNT} 份设计笔记过一遍,让人在工作台写一张汇总表(${SUMMARY_FILE}),再让人核对一遍;仓库的 \`npm test\` 也要通过。`,
      "",
      "## 范围内",
      "- 读 docs/ 里的设计笔记。",
      "- 工作台里的一张汇总表,以及对它的核对。",
      "",
      "## 范围外",
      "- 改笔记本身。",
      "",
      "## 验收标准",
      `- ${SUMMARY_FILE} 存在,是一张 markdown 表格,读过的每份笔记一行。`,
      "- `npm test` 退出码为 0。",
      "",
      "## 假设",
      "- 表格两列:笔记编号和主题。",
      "",
      "## 待确认问题",
      "- 表格要不要也列出每份笔记的测量运行编号(HT0…)?",
    ].join("\n"),
    editedLine: {
      before: "- 表格两列:笔记编号和主题。",
      after: "- 表格两列:笔记编号和主题(已由人确认:不列运行编号)。",
    },
    tableLinePrefix: "- 表格两列",
    goal: (tableLine) =>
      [
        "## 目标",
        "工作台里有一张核对过的设计笔记汇总表,`npm test` 通过。",
        "",
        "## 检查",
        `- \`test -s ${SUMMARY_FILE}\` 退出码为 0`,
        `- \`grep -c '^. [0-9]' ${SUMMARY_FILE}\` 输出匹配 \`^${NOTE_COUNT}$\`(每份笔记一行)`,
        "- `npm test --silent` 退出码为 0",
        "",
        "## 约束",
        `- 来自需求确认书:${tableLine.replace(/^-\s*/, "")}`,
        "- docs/ 里的笔记保持不变。",
        "",
        "## 不做的事",
        "- 概括每份笔记的内容。",
      ].join("\n"),
  },
};
