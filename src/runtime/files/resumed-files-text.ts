/**
 * What a continued session is told about its files, per locale: which were put back to the last
 * checkpoint its conversation has (a call it never got the result of had changed them), and which differ
 * from that checkpoint and were left as they are (a cut call, or a person's edit in their own checkout).
 */
import type { Locale } from "../../locale/locale.js";
import type { Reconciled } from "../../checkpoints/work-tracker.js";

/** A session resumed at the end of a turn a person rewound it to: what happened to the turns after it. */
export const REWOUND_TO_TURN: Readonly<Record<Locale, (turn: number) => string>> = {
  zh: (turn) =>
    `[flower] 有人把这段对话和文件退回到了第 ${turn} 轮结束时:之后的轮次和它们对文件的改动都已撤销。从这里接着做;如果工作区或交接里写了原因,先看一眼。`,
  en: (turn) =>
    `[flower] A person took this conversation and its files back to the end of turn ${turn}: the turns after it, and what they did to the files, were undone. Go on from here.`,
};

/** At most this many paths are named; the rest are counted. */
const NAMED = 20;

function listed(paths: readonly string[], more: (count: number) => string): string {
  const shown = paths.slice(0, NAMED).join(", ");
  return paths.length > NAMED ? `${shown} ${more(paths.length - NAMED)}` : shown;
}

/** The note appended to a continued session's prompt; null when the files are as its transcript left them. */
export function workNote(reconciled: Reconciled, locale: Locale): string | null {
  const { restored, kept, dropped } = reconciled;
  if (restored.length === 0 && kept.length === 0) return null;
  const lines: string[] = [];
  if (locale === "zh") {
    if (restored.length > 0)
      lines.push(
        dropped > 0
          ? `这些文件已恢复到你的对话里最后一个检查点的样子(有一次调用改过它们,但你没有收到它的结果):${listed(restored, (n) => `等另外 ${n} 个`)}。`
          : `这些文件已恢复到你的对话里最后一个检查点的样子:${listed(restored, (n) => `等另外 ${n} 个`)}。`,
      );
    if (kept.length > 0)
      lines.push(
        `这些文件和最后一个检查点不一样,保持原样没动(可能是被中断的调用,也可能是人改的):${listed(kept, (n) => `等另外 ${n} 个`)}。动它们之前先看一眼。`,
      );
    return `[flower] ${lines.join("")}`;
  }
  if (restored.length > 0)
    lines.push(
      dropped > 0
        ? `These files were put back as they were at the last checkpoint your conversation has (a call whose result you never got had changed them): ${listed(restored, (n) => `and ${n} more`)}.`
        : `These files were put back as they were at the last checkpoint your conversation has: ${listed(restored, (n) => `and ${n} more`)}.`,
    );
  if (kept.length > 0)
    lines.push(
      `These files differ from the last checkpoint and were left as they are (a call that was cut, or a person's edit): ${listed(kept, (n) => `and ${n} more`)}. Look at them before you change them.`,
    );
  return `[flower] ${lines.join(" ")}`;
}
