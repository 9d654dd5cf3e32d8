/** The step loop's words, per locale: what a retried or continued session is told, and why a step gave up. */
import { DEFAULTS } from "../defaults.js";
import type { Locale } from "../locale/locale.js";

/** The prompt a continued session gets when the caller gives none. */
export const CONTINUE_PROMPT: Readonly<Record<Locale, string>> = { zh: "继续。", en: "Continue the task." };

/** Resuming a session after a failed attempt: what happened, and to go on. */
export const CONTINUE_AFTER_FAILURE: Readonly<Record<Locale, (reason: string) => string>> = {
  zh: (reason) => `上一次尝试因错误中断了(${reason})。请从中断的地方接着做原来的任务。`,
  en: (reason) =>
    `The previous attempt was cut off by an error (${reason}). Continue the original task from where it stopped.`,
};

/**
 * maxGenerations reached: the threshold is probably below the role's start-up floor (seed H10). The zh
 * text carries the seeds' sentence as written.
 */
export const FLOOR_MESSAGE: Readonly<
  Record<Locale, (counts: { handoffs: number; max: number; at: number }) => string>
> = {
  zh: ({ handoffs, max, at }) =>
    `已换代 ${handoffs} 次,到了 max_generations=${max},仍然越线(阈值 ${at},协调者实测启动地板约 ${DEFAULTS.coordinatorStartupFloor / 1000}k)。阈值很可能低于这个角色的启动地板,把 window 调大,或 --no-handoff。`,
  en: ({ handoffs, max, at }) =>
    `Handed off ${handoffs} ${handoffs === 1 ? "time" : "times"} and reached maxGenerations (${max}), still over the line. The threshold (${at}) is probably below this role's start-up floor (measured ~${DEFAULTS.coordinatorStartupFloor / 1000}k for a coordinator): raise window, or use --no-handoff.`,
};
