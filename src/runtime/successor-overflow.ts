/**
 * A successor whose very first request is already over the window. Another handoff cannot help: the
 * next successor starts from a handoff too, with the same system prompt and tools, and would overflow
 * the same way — measured, the step handed off 7 times in 22 s until maxGenerations, and its error then
 * blamed the threshold instead of naming the overflow. So the step fails at once, saying why.
 */
import type { Locale } from "../locale/locale.js";
import type { SessionOutcome } from "./session-outcome.js";

/** Whether `outcome` is a successor's overflow before it answered anything. */
export function isSuccessorStartOverflow(outcome: SessionOutcome, generations: number): boolean {
  return outcome.kind === "overflow" && outcome.mainResponses === 0 && generations > 1;
}

export const SUCCESSOR_OVERFLOW_MESSAGE: Readonly<Record<Locale, (error: string) => string>> = {
  zh: (error) =>
    `接班会话的第一个请求就超出了上下文窗口(${error}),再换代也无济于事:系统提示、工具列表加交接已经放不下。把 window 调大,或减少工具。`,
  en: (error) =>
    `The successor's first request is already over the context window (${error}); another handoff cannot help: the system prompt, tools and handoff alone do not fit. Raise the window, or give the agent fewer tools.`,
};
