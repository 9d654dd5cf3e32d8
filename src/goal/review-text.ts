/**
 * The goal guard reviewer's words: its instructions, the prompt it gets (only the frozen requirements and
 * goal, never the coordinator's conversation), and the message that sends the coordinator back when the
 * reviewer found a criterion not met.
 */
import { ConfigurationError } from "../errors.js";
import type { Locale } from "../locale/locale.js";
import type { ReviewCriterion } from "./review-verdict.js";

/** Marks the reviewer's first prompt; a test's scripted model recognises the reviewer by it. */
export const REVIEW_SIGNATURE = "[flower reviewer]";

/** Appended to the reviewer session's system prompt. */
export const REVIEWER_INSTRUCTIONS: Readonly<Record<Locale, string>> = {
  en: [
    "You are flower's reviewer. You judge finished work against its frozen requirements and goal, nothing else.",
    "Your context is fresh on purpose: you have not seen the work being done and you do not take anyone's word for it.",
    "Your tools are read-only. Look at the workspace yourself (read the files, search them); change nothing.",
  ].join("\n"),
  zh: [
    "你是 flower 的评审。你只按冻结的需求和目标评判已完成的工作。",
    "你的上下文是特意全新的:你没看见工作是怎么做的,也不采信任何人的说法。",
    "你的工具都是只读的。自己去工作区看(读文件、搜索),什么也不要改。",
  ].join("\n"),
};

const TEXT = {
  en: {
    intro: `${REVIEW_SIGNATURE} Review the work in this workspace against the frozen documents below.`,
    format: [
      "For every acceptance criterion in them, write one line in this form:",
      "- <criterion> — met | not met | cannot tell — evidence: <what you looked at: a file and what it holds, a line you read>",
      '"met" only when you saw it yourself; "not met" when the workspace shows it is not; "cannot tell" when the workspace cannot show it either way.',
      "End with one line: `verdict: met` when every criterion is met, else `verdict: not met`.",
    ].join("\n"),
    requirements: "Requirements (frozen)",
    goal: "Goal (frozen)",
    task: "Task (no frozen requirements or goal were given: review against the task as stated)",
  },
  zh: {
    intro: `${REVIEW_SIGNATURE} 按下面冻结的文档评审这个工作区里的工作。`,
    format: [
      "文档里的每条验收标准,各写一行,格式如下:",
      "- <验收标准> —— 满足 | 未满足 | 无法判断 —— 证据:<你看了什么:哪个文件、里面是什么、读到的哪一行>",
      "“满足”只在你亲眼看到时写;工作区表明没做到写“未满足”;工作区两方面都证明不了写“无法判断”。",
      "最后一行写:全部满足写 `结论: 满足`,否则写 `结论: 未满足`。",
    ].join("\n"),
    requirements: "需求(已冻结)",
    goal: "目标(已冻结)",
    task: "任务(没有给出冻结的需求或目标:按原样的任务评审)",
  },
} as const satisfies Record<Locale, unknown>;

export interface ReviewPromptInput {
  locale: Locale;
  requirementsText: string | null;
  goalText: string | null;
  /** Used only when neither document was given. */
  task: string;
}

/** The reviewer's one prompt: the documents as frozen, and the answer format. */
export function reviewPrompt(input: ReviewPromptInput): string {
  const text = TEXT[input.locale];
  const parts: string[] = [text.intro, text.format];
  if (input.requirementsText) parts.push(`## ${text.requirements}\n\n${input.requirementsText.trim()}`);
  if (input.goalText) parts.push(`## ${text.goal}\n\n${input.goalText.trim()}`);
  if (!input.requirementsText && !input.goalText) parts.push(`## ${text.task}\n\n${input.task.trim()}`);
  return parts.join("\n\n");
}

const ROUND_TEXT = {
  en: {
    header: (round: number, rounds: number, notMet: number, total: number) =>
      `[flower goal guard] Round ${round} of ${rounds}: the goal's checks pass, but a reviewer with a fresh context found ${notMet} of ${total} acceptance ${total === 1 ? "criterion" : "criteria"} not met:`,
    lastRound:
      "This is the last round: if a criterion is still not met after it, the step ends goal-not-met.",
    evidence: "evidence",
    instruction:
      "Keep working until these criteria are met. When you are done, end your turn; flower runs the checks and the review again.",
  },
  zh: {
    header: (round: number, rounds: number, notMet: number, total: number) =>
      `[flower 目标守门] 第 ${round}/${rounds} 轮:目标的检查都通过了,但一位上下文全新的评审认为 ${total} 条验收标准中 ${notMet} 条未满足:`,
    lastRound: "这是最后一轮:之后仍有标准未满足,这一步就以 goal-not-met 结束。",
    evidence: "证据",
    instruction: "继续做,直到这些标准满足。做完后结束本轮,flower 会重新运行检查和评审。",
  },
} as const satisfies Record<Locale, unknown>;

/** Bounded like the checks' message: the coordinator's context has to last the whole run. */
const MAX_CRITERIA = 10;
const MAX_LINE = 300;

/** The message that sends the coordinator back after the reviewer found criteria not met. */
export function reviewRoundMessage(options: {
  round: number;
  rounds: number;
  criteria: readonly ReviewCriterion[];
  locale: Locale;
}): string {
  const { round, rounds, criteria, locale } = options;
  if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(round) || round < 1 || round > rounds)
    throw new ConfigurationError("round", round, `a whole number from 1 to rounds (${rounds})`);
  const text = ROUND_TEXT[locale];
  const notMet = criteria.filter((criterion) => criterion.verdict === "not-met");
  const lines = notMet.slice(0, MAX_CRITERIA).map((criterion, position) => {
    const evidence = criterion.evidence ? ` — ${text.evidence}: ${criterion.evidence}` : "";
    const line = `${position + 1}. ${criterion.criterion}${evidence}`;
    return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
  });
  const head = [text.header(round, rounds, notMet.length, criteria.length)];
  if (round === rounds) head.push(text.lastRound);
  return [head.join(" "), lines.join("\n"), text.instruction].join("\n\n");
}
