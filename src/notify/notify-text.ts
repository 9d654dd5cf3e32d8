/**
 * The words of notifications (their `why`) and of the one line that says a notifier failed, per locale.
 */
import { noProgress, type DriftMeasures } from "../locale/drift-words.js";
import type { Locale } from "../locale/locale.js";

export interface NotifyText {
  /** The one line on stderr (or the fleet's event) when a notifier fails; the run is not affected. */
  failed: (target: string, reason: string) => string;
  exitCode: (code: number, said: string) => string;
  signal: (signal: string) => string;
  notStarted: (message: string) => string;
  timedOut: (seconds: number) => string;
  http: (status: number) => string;
  unreachable: (message: string) => string;
  why: {
    paused: (step: string, document: string | null, openQuestions: number) => string;
    approval: (step: string) => string;
    /** `measures`: what the watch measured (a run without checks is watched by its files alone). */
    drift: (generations: readonly number[], handoff: string, measures: DriftMeasures) => string;
    done: string;
    goalNotMet: string;
    /** The run stopped at its budget (`day`: the fleet's budget for the UTC day). */
    budgetReached: (spent: string, budget: string, by: "run" | "day") => string;
    failed: string;
  };
}

export const NOTIFY_TEXT: Record<Locale, NotifyText> = {
  en: {
    failed: (target, reason) => `flower: notifying ${target} failed (${reason}); the run is not affected`,
    exitCode: (code, said) => `exit code ${code}${said ? `: ${said}` : ""}`,
    signal: (signal) => `ended by ${signal}`,
    notStarted: (message) => `could not start: ${message}`,
    timedOut: (seconds) => `no answer within ${seconds} s, ended`,
    http: (status) => `HTTP ${status}`,
    unreachable: (message) => `not reached: ${message}`,
    why: {
      paused: (step, document, openQuestions) =>
        `paused after ${step} for you to read${document ? ` ${document}` : " its document"} (${openQuestions} open ${openQuestions === 1 ? "question" : "questions"}), then go on`,
      approval: (step) => `paused after ${step}: read its frozen document, then approve`,
      drift: (generations, handoff, measures) =>
        `paused: generations ${generations.join(", ")} ${noProgress(measures, "en")}; read the handoff ${handoff}, add what the next generation should know, then go on`,
      done: "the run is done",
      goalNotMet: "the goal's checks did not pass",
      budgetReached: (spent, budget, by) =>
        `stopped at its budget: spent ${spent} of ${budget}${by === "day" ? " (the fleet's budget for today, UTC)" : ""}`,
      failed: "the step failed",
    },
  },
  zh: {
    failed: (target, reason) => `flower: 通知 ${target} 失败(${reason});运行不受影响`,
    exitCode: (code, said) => `退出码 ${code}${said ? `:${said}` : ""}`,
    signal: (signal) => `被 ${signal} 结束`,
    notStarted: (message) => `无法启动:${message}`,
    timedOut: (seconds) => `${seconds} 秒内没有回应,已结束`,
    http: (status) => `HTTP ${status}`,
    unreachable: (message) => `连不上:${message}`,
    why: {
      paused: (step, document, openQuestions) =>
        `${step} 之后暂停,等你阅读${document ? ` ${document}` : "它的文件"}(${openQuestions} 个待确认问题),然后继续`,
      approval: (step) => `${step} 之后暂停:读一下它冻结的文件,然后批准`,
      drift: (generations, handoff, measures) =>
        `已暂停:第 ${generations.join("、")} 代${noProgress(measures, "zh")};读一下交接书 ${handoff},补上下一代该知道的,然后继续`,
      done: "运行完成",
      goalNotMet: "目标的检查没有通过",
      budgetReached: (spent, budget, by) =>
        `预算用完,已停下:已花 ${spent},预算 ${budget}${by === "day" ? "(车队今天的预算,按 UTC)" : ""}`,
      failed: "这一步失败了",
    },
  },
};
