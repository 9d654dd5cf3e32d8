/**
 * The degraded path: when the writing turn fails (network, garbage, a required section missing) or the
 * API already refused the prompt (overflow), a handoff is assembled mechanically and the switch happens
 * anyway. Auto-compact is off, so there is no other safety net; stopping here would mean driving into
 * the window. An incomplete handoff is far better than that.
 */
import { DEFAULTS } from "../defaults.js";
import type { Locale } from "../locale/locale.js";
import { Handoff } from "./handoff-document.js";
import { DEGRADED } from "./handoff-document-text.js";

export { DEGRADED } from "./handoff-document-text.js";

export interface DegradedOptions {
  /** Why the real handoff could not be written; shown to the successor and in errors. @default "" */
  why?: string;
  /** @default "zh" */
  locale?: Locale;
}

const TEXT: Record<
  Locale,
  { doing: (why: string) => string; next: string; task: (chars: number) => string }
> = {
  zh: {
    doing: (why) =>
      `${DEGRADED} 上一条会话没能写出交接书${why ? `(${why})` : ""},这份是按手上已知的东西机械拼的,不完整。做到哪了不知道。`,
    next: '先自己去现场看:工作区里的文件、工作台 notes/ 和 artifacts/ 下的产出、最近改过的文件,弄清原始任务(见"现场")做到哪了,再接着做。不要假设上一代做完了什么,也不要从头重做已经落盘的东西。',
    task: (chars) => `原始任务(前 ${chars} 字符):`,
  },
  en: {
    doing: (why) =>
      `${DEGRADED} Degraded handoff: the previous session could not write one${why ? ` (${why})` : ""}. This was assembled mechanically from what was known and is incomplete; how far the work got is unknown.`,
    next: 'Look at the scene yourself first: the files in the workspace, the outputs under the workbench\'s notes/ and artifacts/, recently changed files. Find out how far the original task (see "Scene") got, then continue. Do not assume what the previous generation finished, and do not redo what is already on disk.',
    task: (chars) => `Original task (first ${chars} characters):`,
  },
};

/** A mechanical handoff: the DEGRADED marker in `doing`, the first 1200 characters of the task in `scene`. */
export function degraded(step: string, prompt: string, options: DegradedOptions = {}): Handoff {
  const { why = "", locale = "zh" } = options;
  const text = TEXT[locale];
  return new Handoff({
    step,
    doing: text.doing(oneLine(why)),
    next: text.next,
    scene: `${text.task(DEFAULTS.degradedTaskChars)}\n\n${fencedTask(prompt)}`,
  });
}

/** The task's first `degradedTaskChars` characters in a fence: what a successor knows of the work without a handoff. */
export function fencedTask(prompt: string): string {
  // Code points, not UTF-16 units: a cut through a surrogate pair would leave a broken character.
  return fence(Array.from(prompt).slice(0, DEFAULTS.degradedTaskChars).join(""));
}

/** The entry for `StepResult.errors` (and so the manifest): `交接降级(<why>)`. */
export function degradedError(why: string, locale: Locale = "zh"): string {
  return locale === "zh" ? `交接降级(${oneLine(why)})` : `handoff degraded (${oneLine(why)})`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * The task goes into a fence longer than any backtick run inside it, so headings in the task cannot
 * be read back as sections when the frozen file is parsed again.
 */
function fence(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const ticks = "`".repeat(Math.max(3, longest + 1));
  return `${ticks}text\n${text}\n${ticks}`;
}
