/**
 * The team `flower "<task>"`, `flower continue` and `flower demo` run: a coordinator with one subagent
 * that changes things and one that only looks. Exported (src/index.ts) as the starting point for a
 * library user who wants what `flower` does with one change; the CLI imports this same function.
 */
import type { AgentSpec } from "./agent-spec.js";
import { coordinator } from "./coordinator.js";
import { subagent } from "./subagent.js";
import type { Locale } from "../locale/locale.js";
import { ConfigurationError } from "../errors.js";
import { isLocale } from "../locale/locale.js";

const TEAM_GOAL: Record<Locale, string> = {
  en: "Goal: carry out the user's task in this workspace, end to end, and report what was done and how it was checked.",
  zh: "目标:在这个工作区里把用户的任务从头做到尾,汇报做了什么、怎么验证的。",
};

/** The default team: one subagent that changes things, one that only looks. */
export function defaultTeam(locale: Locale = "en"): AgentSpec {
  if (!isLocale(locale)) throw new ConfigurationError("defaultTeam locale", locale, '"en" or "zh"');
  const en = locale === "en";
  return coordinator("lead", TEAM_GOAL[locale], {
    engineer: subagent(
      en
        ? "Engineer: changes code and files, runs builds and tests, installs. Send it anything hands-on."
        : "工程师:改代码和文件,跑构建和测试,安装依赖。一切动手的活都派给它。",
      en
        ? "Make the change the brief asks for, run the checks it names, and report the result with evidence (command + outcome)."
        : "按任务书改,跑任务书要求的检查,汇报结果并附证据(命令 + 结果)。",
      { tools: ["Read", "Write", "Edit", "Bash", "Glob", "Grep"] },
    ),
    analyst: subagent(
      en
        ? "Analyst: reads, searches, counts and compares without changing anything. Send it questions about the code or data."
        : "分析员:只读、搜索、统计、比较,不改任何东西。关于代码或数据的问题派给它。",
      en
        ? "Answer the question in the brief from evidence you gathered with the tools; never estimate by hand."
        : "用工具拿到的证据回答任务书里的问题,不要凭感觉估。",
      { tools: ["Read", "Bash", "Glob", "Grep"] },
    ),
  });
}
