/**
 * A weak section never costs the strong ones. A writing turn that answered with a good "decided", a dead
 * end with its cost and a scene, and `TBD` under "next", used to be replaced whole by the degraded
 * handoff: the successor walked the dead end again, the costliest loss a handoff can cause (the dead
 * end's cost is paid twice). A whole handoff is degraded only when nothing usable was written. So here only the weak sections are
 * filled in, each starting with the MECHANICAL marker, and every section the session wrote is kept as it
 * wrote it; the successor's prompt names the filled ones (handoff-document.ts).
 */
import { DEFAULTS } from "../defaults.js";
import type { Locale } from "../locale/locale.js";
import { fencedTask } from "./degraded.js";
import { Handoff } from "./handoff-document.js";
import type { HandoffSectionName } from "../handoff-sections.js";
import { MECHANICAL } from "./handoff-document-text.js";

export { MECHANICAL } from "./handoff-document-text.js";

const TEXT: Record<Locale, { doing: (chars: number) => string; next: string; other: string }> = {
  zh: {
    doing: (chars) =>
      `${MECHANICAL} 这段是 flower 机械补的:上一条会话没写清手上在做什么、做到哪了。其余各段是它的原话。原始任务(前 ${chars} 字符):`,
    next: `${MECHANICAL} 这段是 flower 机械补的:上一条会话没写下一步。先按其余各段和"现场"去看工作区里的文件、工作台 notes/ 和 artifacts/ 下的产出,弄清做到哪了,再接着做;已经定下的别重新讨论,走不通的路别再走,已经落盘的东西别重做。`,
    other: `${MECHANICAL} 这段是 flower 机械补的:上一条会话这段空着或没写实。`,
  },
  en: {
    doing: (chars) =>
      `${MECHANICAL} Filled in by flower: the previous session did not say what it was in the middle of or how far it got. The other sections are its own words. The original task (first ${chars} characters):`,
    next: `${MECHANICAL} Filled in by flower: the previous session did not say what comes next. Use the other sections and the scene: look at the files in the workspace and the outputs under the workbench's notes/ and artifacts/, find out how far the work got, then continue; do not re-open what is decided, do not re-walk the dead ends, do not redo what is already on disk.`,
    other: `${MECHANICAL} Filled in by flower: the previous session left this section empty or hollow.`,
  },
};

/** The mechanical text for one section. `doing` carries the task's beginning: without it the successor would not know the work. */
export function mechanicalSection(name: HandoffSectionName, task: string, locale: Locale): string {
  const text = TEXT[locale];
  if (name === "doing") return `${text.doing(DEFAULTS.degradedTaskChars)}\n\n${fencedTask(task)}`;
  return name === "next" ? text.next : text.other;
}

/** The handoff with each weak section replaced by its mechanical text; every other section as written. */
export function fillWeak(
  handoff: Handoff,
  weak: readonly HandoffSectionName[],
  options: { task: string; locale: Locale },
): Handoff {
  const sections = handoff.sections();
  for (const name of weak) sections[name] = mechanicalSection(name, options.task, options.locale);
  return new Handoff({ ...sections, step: handoff.step, notes: handoff.notes });
}
