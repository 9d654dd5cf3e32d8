/** What `flower say` prints, in both display languages (commands/say.ts). */
import { typed } from "../locale/invocation.js";
import type { Locale } from "../locale/locale.js";
import type { RunEnded, RunWaits } from "../runtime/person/say.js";

export interface SayText {
  /** Getters: the command lines in them are built when the line is printed (locale/invocation.ts). */
  readonly which: string;
  readonly noText: string;
  unexpected: (extra: string) => string;
  unknown: (name: string, where: string, known: string[]) => string;
  ended: (run: string, status: RunEnded) => string;
  driven: (run: string, step: string, pid: number, host: string) => string;
  /** `goOn`: the line that gives the run its next session. */
  kept: (run: string, waits: Exclude<RunWaits, "driven">, goOn: string) => string;
}

export const SAY_TEXT: Readonly<Record<Locale, SayText>> = {
  en: {
    get which() {
      return `flower say: name the run (or one of its steps) and what to tell it: ${typed('say <run> "TEXT"')} (see ${typed("runs")})`;
    },
    get noText() {
      return `flower say: say something: ${typed('say <run> "TEXT"')}`;
    },
    unexpected: (extra) => `flower say: one message at a time, in quotes; unexpected "${extra}"`,
    unknown: (name, where, known) =>
      `flower say: no run or step "${name}" in ${where}${known.length > 0 ? ` (known: ${known.join(", ")})` : ""}`,
    ended: (run, status) =>
      `flower say: run "${run}" has ended (${status}); nobody would read the message, nothing was kept`,
    driven: (run, step, pid, host) =>
      `told "${run}": the driver of ${step} (pid ${pid} on ${host}) gives it to the main thread at its next message boundary`,
    kept: (run, waits, goOn) =>
      `kept for "${run}" (${WAITS.en[waits]}): its next session gets it first thing${goOn ? ` (${goOn})` : ""}`,
  },
  zh: {
    get which() {
      return `flower say: 说出是哪次运行(或它的哪一步)、要对它说什么:${typed('say <运行> "话"')}(见 ${typed("runs")})`;
    },
    get noText() {
      return `flower say: 要说点什么:${typed('say <运行> "话"')}`;
    },
    unexpected: (extra) => `flower say: 一次只说一句,用引号括起来;多出来的 "${extra}"`,
    unknown: (name, where, known) =>
      `flower say: ${where} 里没有运行或步骤 "${name}"${known.length > 0 ? `(已有:${known.join("、")})` : ""}`,
    ended: (run, status) => `flower say: 运行 "${run}" 已经结束(${status}),没人会读到这句话,没有留下`,
    driven: (run, step, pid, host) =>
      `已告诉 "${run}":${step} 的驱动(${host} 上的进程 ${pid})会在下一个消息边界把它交给主线程`,
    kept: (run, waits, goOn) =>
      `已为 "${run}" 留下(${WAITS.zh[waits]}):它的下一个会话一开始就会收到${goOn ? `(${goOn})` : ""}`,
  },
};

const WAITS: Readonly<Record<Locale, Record<Exclude<RunWaits, "driven">, string>>> = {
  en: {
    stopped: "stopped",
    paused: "paused for you",
    "budget-reached": "stopped at its budget",
    queued: "queued, no worker has it yet",
  },
  zh: {
    stopped: "已停下",
    paused: "暂停等你",
    "budget-reached": "花到预算停下了",
    queued: "在队列里,还没有 worker 接手",
  },
};
