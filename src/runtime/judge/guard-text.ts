/**
 * The goal guard's one-line reasons in the step record's errors: why a step ended goal-not-met. They
 * name what failed, so `flower show` and the live view's last lines say it without opening a log.
 */
import type { Locale } from "../../locale/locale.js";

const LIST_MAX = 3;

function list(items: readonly string[], more: (count: number) => string): string {
  const shown = items.slice(0, LIST_MAX).map((item) => (item.length > 80 ? `${item.slice(0, 79)}…` : item));
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join("; ")}; ${more(rest)}` : shown.join("; ");
}

export const GUARD_TEXT = {
  en: {
    checksStillFail: (rounds: number, commands: readonly string[]) =>
      `goal not met: after ${rounds} guard ${rounds === 1 ? "round" : "rounds"} ${commands.length === 1 ? "a check still fails" : `${commands.length} checks still fail`}: ${list(commands, (n) => `and ${n} more`)}`,
    criteriaNotMet: (rounds: number, criteria: readonly string[]) =>
      `goal not met: after ${rounds} guard ${rounds === 1 ? "round" : "rounds"} the reviewer still finds ${criteria.length === 1 ? "a criterion" : `${criteria.length} criteria`} not met: ${list(criteria, (n) => `and ${n} more`)}`,
    reviewDegraded: (why: string) =>
      `goal not met: the checks pass, but the reviewer's verdict could not be read (${why}); a person has to judge`,
    reviewerFailed: (error: string) => `the reviewer session failed: ${error.slice(0, 200)}`,
  },
  zh: {
    checksStillFail: (rounds: number, commands: readonly string[]) =>
      `目标未达成:守门 ${rounds} 轮后仍有 ${commands.length} 项检查不通过:${list(commands, (n) => `另有 ${n} 项`)}`,
    criteriaNotMet: (rounds: number, criteria: readonly string[]) =>
      `目标未达成:守门 ${rounds} 轮后评审仍认为 ${criteria.length} 条标准未满足:${list(criteria, (n) => `另有 ${n} 条`)}`,
    reviewDegraded: (why: string) => `目标未达成:检查都通过了,但评审的结论读不出来(${why});需要人来判断`,
    reviewerFailed: (error: string) => `评审会话失败:${error.slice(0, 200)}`,
  },
} as const satisfies Record<Locale, unknown>;
