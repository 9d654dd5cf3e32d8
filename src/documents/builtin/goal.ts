/**
 * The goal (`目标`): one sentence and the checks that decide "done". Flower runs the checks
 * itself at the end of the work step (the goal guard), so a goal without a runnable check is
 * incomplete — the guard would have nothing to hold on to — and the document degrades with that reason.
 */
import { parseGoalChecks, type ParsedGoalChecks } from "../../goal/goal-document.js";
import type { ParsedDocument } from "../document.js";
import { defineDocument } from "../spec.js";

/** The runnable checks in a goal document's checks section (what the work step's guard gets). */
export function goalChecks(document: ParsedDocument): ParsedGoalChecks {
  // The section's body under a heading parseGoalChecks knows: subheadings inside it stay in it.
  return parseGoalChecks(`## checks\n${document.section("checks")}`);
}

export const GOAL = defineDocument({
  kind: "goal",
  title: { zh: "目标", en: "Goal" },
  file: { zh: "目标", en: "goal" },
  sections: [
    {
      key: "goal",
      heading: { zh: "目标", en: "Goal" },
      aliases: ["总目标", "the goal", "objective"],
      required: true,
      hint: { zh: "一句话。", en: "One sentence." },
    },
    {
      key: "checks",
      heading: { zh: "检查", en: "Checks" },
      aliases: ["检查项", "检查命令", "验收检查", "验证", "goal checks", "acceptance checks", "verification"],
      required: true,
      hint: {
        zh: "每条一行:反引号里一条 shell 命令,再说通过是什么意思,例如 - `npm test` 退出码为 0,或 - `node app.js` 输出匹配 `/ok/`。这些命令由 flower 自己在工作区里跑,决定做没做完。",
        en: "One per line: a shell command in backticks, then what passing means, e.g. - `npm test` exits 0, or - `node app.js` output matches `/ok/`. Flower runs these commands itself in the workspace to decide whether the work is done.",
      },
    },
    {
      key: "constraints",
      heading: { zh: "约束", en: "Constraints" },
      aliases: ["限制", "limits", "constraint"],
      hint: { zh: "做的时候必须守住的。", en: "What must hold while doing it." },
    },
    {
      key: "nonGoals",
      heading: { zh: "不做的事", en: "Non-goals" },
      aliases: ["非目标", "不做", "non goals", "nongoals", "out of scope"],
      hint: { zh: "明确不追求的。", en: "What is deliberately not pursued." },
    },
  ],
  instructions: {
    zh: [
      "你的任务是根据下面冻结的需求确认书写目标文书,不是做任务本身。你在工作区里只能看(读文件、Glob、Grep、只读的一瞥命令),不能改任何东西;不要向用户提问。",
      "检查必须能跑:先看看工作区里有什么(测试、脚本、构建命令),写出在这个工作区里真的能执行的命令。把每条验收标准尽量落到一条检查上。",
    ].join("\n"),
    en: [
      "Your job is to write the goal from the frozen requirements confirmation below, not to do the task. In the workspace you may only look (read files, Glob, Grep, read-only glance commands); you change nothing and ask the user nothing.",
      "The checks must be runnable: look at what the workspace has (tests, scripts, build commands) and write commands that really run here. Turn each acceptance criterion into a check where you can.",
    ].join("\n"),
  },
  check: (document) =>
    goalChecks(document).checks.length > 0 ? null : "no runnable check in the checks section",
});
