/**
 * The prompt that makes the current session write its own handoff. Not a new role: only this session
 * has the context, anyone else would first have to read it all and nothing would be gained.
 *
 * The headings are the ones `toMarkdown()` renders and the parser knows. The dead-ends paragraph is the
 * point of the whole prompt: subagents have an optimism bias — they write what they achieved and forget
 * what they tried in vain, and the latter is what is expensive to rediscover.
 */
import type { Locale } from "../locale/locale.js";
import { cutCallsNote, type CutCall } from "./cut-calls.js";
import { SECTION_HEADINGS, formatTokens, formatTokensShort } from "./handoff-document-text.js";

/**
 * Present in the prompt of every handoff-writing turn, in both locales. The offline test kit recognises
 * the writing turn by it, so a scripted model can answer that turn with a handoff.
 */
export const HANDOFF_SIGNATURE = "[flower:handoff]";

const zh = SECTION_HEADINGS.zh;
const en = SECTION_HEADINGS.en;

/** Templates with the placeholders `{used}` and `{window}`. */
export const HANDOFF_PROMPT: Readonly<Record<Locale, string>> = {
  zh: `${HANDOFF_SIGNATURE} 上下文已经用到 {used}/{window},快满了。这一轮不再干活、不调用任何工具:写一份交接书。写完这一轮你就退场,一条新会话接手 —— 它看不到你现在的上下文,只读这份交接书和磁盘上的文件,所以它需要的一切都得写在这里。

严格用下面五个标题(原样照抄,每个一行,用 ##),每段写要点,不写客套话:

## ${zh.doing}
手上正在做的那件事,做到了哪一步。必填。

## ${zh.decided}
已经拍板的决定,每条都带上为什么("因为……所以……")。不带理由的决定,接手的人会重新讨论一遍。

## ${zh.deadends}
试过但走不通的路:试了什么、怎么失败的、花了多少(轮数、时间)。
这一段最贵,也最容易漏。人总爱写自己做成了什么,忘了写试过什么不行 —— 可后者才是真正贵的:HT002 里为一个编译问题绕了一小时,那一小时的结论要是没写下来,接手的人会原样再绕一遍。所以哪怕只是"改 include 顺序无效"这样一句,也要写上,连同它当时花掉的代价。真的还没有就写 (空),不要编。

## ${zh.next}
接手的人进来该做的第一件事,具体到命令或文件。必填。

## ${zh.scene}
关键文件与产出的路径,每行一个,用反引号括起来(例如 \`src/shim.h\`、\`.flower/artifacts/make.log\`),后面一句话说它是什么。只写路径 —— 指针,不是内容:不贴文件内容,不贴日志。

只输出这份交接书本身。`,
  en: `${HANDOFF_SIGNATURE} Your context is at {used}/{window} and nearly full. In this turn do no more work and call no tools: write a handoff. After this turn you retire and a new session takes over — it cannot see your context, it reads only this handoff and the files on disk, so everything it needs must be written here.

Use exactly these five headings (copied as they are, one per line, with ##) and write to the point, no pleasantries:

## ${en.doing}
The one thing you are in the middle of, and how far it got. Required.

## ${en.decided}
Decisions already made, each with its reason ("because ..., so ..."). A decision without its reason gets re-opened by whoever takes over.

## ${en.deadends}
What you tried that did not work: what it was, how it failed, and what it cost (turns, time).
This section is the most expensive one and the one most easily left out. Everybody writes what they achieved and forgets what they tried in vain — yet the latter is what is truly expensive: in HT002 an hour went round in circles on a compile problem; had the conclusion of that hour not been written down, the successor would have walked the same circle again. So even a single line like "reordering the includes does not help" belongs here, together with what it cost. If there really is nothing yet, write (empty); do not invent any.

## ${en.next}
The first concrete thing the successor does, down to the command or file. Required.

## ${en.scene}
Paths of the key files and outputs, one per line, in backticks (e.g. \`src/shim.h\`, \`.flower/artifacts/make.log\`), each followed by one sentence on what it is. Paths only — pointers, not contents: no file contents, no logs.

Output only the handoff itself.`,
};

export interface HandoffPromptValues {
  /** Context used by the main thread, in tokens. */
  used: number;
  /** The window, in tokens. */
  window: number;
  /** Calls the switch cut from the response that crossed the line; named so the model can carry them on. */
  cutCalls?: readonly CutCall[];
}

/**
 * The writing turn's prompt with `{used}` and `{window}` filled in (130000 → "130.0K", 200000 → "200K").
 * Cut calls are named just before the closing "output only the handoff" line.
 */
export function handoffPrompt(locale: Locale, { used, window, cutCalls = [] }: HandoffPromptValues): string {
  const prompt = HANDOFF_PROMPT[locale]
    .replaceAll("{used}", formatTokens(used))
    .replaceAll("{window}", formatTokensShort(window));
  const note = cutCallsNote(cutCalls, locale);
  if (!note) return prompt;
  const closing = prompt.lastIndexOf("\n\n");
  return `${prompt.slice(0, closing)}\n\n${note}${prompt.slice(closing)}`;
}
