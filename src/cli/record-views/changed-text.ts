/**
 * The words for a frozen document (or a goal) that changed after a step began with it
 * (workflow/document-basis.ts), in one place: the live view, `flower show` and the pause all say the same
 * thing. Who changed it and when is unknown (a person, or an agent of the running step), so the words say
 * only what flower knows: the file differs from what the step began with.
 */
import { typed } from "../../locale/invocation.js";
import type { Locale } from "../../locale/locale.js";

export interface ChangedText {
  /** "changed on disk after the work began — not used" (`since`: the workflow step that began with it). */
  changed: (since: string, used: boolean) => string;
  /** What it is, then what happened to it: `Goal <path>: changed …`. */
  line: (head: string, what: string) => string;
  /** How to use the goal file as it is now, appended to its line. */
  rereadHint: string;
  /** A goal passed to continue (not from a file) that differs from the recorded one. */
  offeredGoal: (used: boolean) => string;
  /** The check commands before and after a switch (`used`), or of the goal kept and the one not used. */
  checks: (recorded: string[], offered: string[], used: boolean) => string;
}

const quote = (commands: string[]) => (commands.length ? commands.map((c) => `\`${c}\``).join(", ") : "-");

export const CHANGED_TEXT: Record<Locale, ChangedText> = {
  en: {
    changed: (since, used) =>
      `changed on disk after ${since === "work" ? "the work" : `the ${since} step`} began — ${used ? "used, as asked (--reread-goal)" : "not used"}`,
    line: (head, what) => `${head}: ${what}`,
    get rereadHint() {
      return ` (${typed("continue")} with --reread-goal uses it)`;
    },
    offeredGoal: (used) =>
      used
        ? "the goal was replaced as asked; the record keeps both"
        : "a different goal was given to continue after the work began — not used; the guard runs the goal recorded then",
    checks: (recorded, offered, used) =>
      used
        ? `checks ${quote(recorded)} → ${quote(offered)}`
        : `runs ${quote(recorded)}, not ${quote(offered)}`,
  },
  zh: {
    changed: (since, used) =>
      `${since === "work" ? "工作" : `「${since}」这一步`}开始后在磁盘上被改过——${used ? "按要求采用(--reread-goal)" : "未采用"}`,
    line: (head, what) => `${head}:${what}`,
    get rereadHint() {
      return `(${typed("continue")} 加 --reread-goal 才采用)`;
    },
    offeredGoal: (used) =>
      used
        ? "目标已按要求替换;两个版本都记在记录里"
        : "工作开始后 continue 收到了另一个目标——未采用;守卫仍按当时记下的目标检查",
    checks: (recorded, offered, used) =>
      used
        ? `检查 ${quote(recorded)} → ${quote(offered)}`
        : `按 ${quote(recorded)} 检查,不按 ${quote(offered)}`,
  },
};
