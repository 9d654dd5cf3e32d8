/** What `flower handoff` prints, in both display languages (commands/handoff.ts). */
import { typed } from "../locale/invocation.js";
import type { Locale } from "../locale/locale.js";

export interface HandoffText {
  which: string;
  unexpected: (extra: string) => string;
  emptyNext: string;
  unknown: (step: string, where: string, known: string[]) => string;
  noDriver: (step: string, status: string | null) => string;
  asked: (step: string, pid: number, host: string, next: string | null) => string;
}

export const HANDOFF_TEXT: Readonly<Record<Locale, HandoffText>> = {
  en: {
    get which() {
      return `flower handoff: name the step whose driver should hand off (see ${typed("runs")})`;
    },
    unexpected: (extra) => `flower handoff: one step at a time; unexpected "${extra}"`,
    emptyNext: 'flower handoff: --next "" says nothing; leave --next out for a plain handoff',
    unknown: (step, where, known) =>
      `flower handoff: no step "${step}" in ${where}${known.length > 0 ? ` (known: ${known.join(", ")})` : ""}`,
    noDriver: (step, status) =>
      `flower handoff: "${step}" has no live driver${status ? ` (it is ${status})` : ""}; nothing to hand off. A step that is not running takes its next generation from ${typed("continue")}.`,
    asked: (step, pid, host, next) =>
      `asked the driver of "${step}" (pid ${pid} on ${host}) to hand off at its next message boundary${next ? `; its handoff's next step starts with your words` : ""}`,
  },
  zh: {
    get which() {
      return `flower handoff: 说出要让哪一步的驱动交接(见 ${typed("runs")})`;
    },
    unexpected: (extra) => `flower handoff: 一次只能一步;多出来的 "${extra}"`,
    emptyNext: 'flower handoff: --next "" 什么也没说;普通交接就不要写 --next',
    unknown: (step, where, known) =>
      `flower handoff: ${where} 里没有步骤 "${step}"${known.length > 0 ? `(已有:${known.join("、")})` : ""}`,
    noDriver: (step, status) =>
      `flower handoff: "${step}" 现在没有在跑的驱动${status ? `(它的状态是 ${status})` : ""},无从交接。没在跑的步骤用 ${typed("continue")} 开始下一代。`,
    asked: (step, pid, host, next) =>
      `已请 "${step}" 的驱动(${host} 上的进程 ${pid})在下一个消息边界交接${next ? `;交接书的下一步以你的话开头` : ""}`,
  },
};
