/**
 * A session whose very first request is already over the window: a successor, or a fresh step whose
 * task alone does not fit. Another handoff cannot help. A successor starts from a handoff again, with
 * the same system prompt and tools, and overflows the same way: measured, the step handed off 7 times in
 * 22 s until maxGenerations, and its error then blamed the threshold instead of naming the overflow. A
 * fresh task would be cut to the degraded handoff's first 1200 characters and the successor would work
 * on a fragment of it. So the step fails at once, saying why.
 */
import type { Locale } from "../../locale/locale.js";
import type { SessionOutcome } from "../session/session-outcome.js";

/**
 * Whether `outcome` is an overflow before the session answered anything, in a successor or in a session
 * started fresh from the task (`resumed`: it continued an existing session, whose history may be what is
 * too long, and a handoff is the cure).
 */
export function isStartOverflow(outcome: SessionOutcome, generations: number, resumed: boolean): boolean {
  return outcome.kind === "overflow" && outcome.mainResponses === 0 && (generations > 1 || !resumed);
}

export const TASK_OVERFLOW_MESSAGE: Readonly<Record<Locale, (error: string, chars: number) => string>> = {
  zh: (error, chars) =>
    `任务的第一个请求就超出了上下文窗口(${error}):任务本身(${chars} 个字符)放不下。把长材料放进文件、在任务里写文件名,或把 window 调大。`,
  en: (error, chars) =>
    `The task's first request is already over the context window (${error}): the task itself (${chars} characters) does not fit. Put long material in a file and name the file in the task, or raise the window.`,
};

export const SUCCESSOR_OVERFLOW_MESSAGE: Readonly<Record<Locale, (error: string) => string>> = {
  zh: (error) =>
    `接班会话的第一个请求就超出了上下文窗口(${error}),再换代也无济于事:系统提示、工具列表加交接已经放不下。把 window 调大,或减少工具。`,
  en: (error) =>
    `The successor's first request is already over the context window (${error}); another handoff cannot help: the system prompt, tools and handoff alone do not fit. Raise the window, or give the agent fewer tools.`,
};
