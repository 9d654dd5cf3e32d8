/**
 * The guards' user-facing words, per locale; zh with ASCII `,()` inside Chinese text (locale/locale.ts).
 */
import type { Locale } from "../locale/locale.js";

/**
 * The delegate guard's denial. Short on purpose: it stays in the main thread's context until pruned
 * (measured: 93 chars of denial text + 180 chars of dead command), and it shows the way instead
 * of only saying no.
 */
export const DELEGATE_DENIAL: Readonly<Record<Locale, (artifacts: string) => string>> = {
  zh: (artifacts) =>
    `主线程不亲自动手:用 Agent 工具派一个子代理,任务里写清目标和验收标准,让它把长输出写到 ${artifacts},回复里只给路径和结论。`,
  en: (artifacts) =>
    `The main thread does no hands-on work: send a subagent via the Agent tool, with goal and acceptance criteria in the brief; have it write long output to ${artifacts} and reply with only path + conclusion.`,
};

/**
 * Prefix of the denial for a Bash command when glance is on. It names what does pass: after a few bare
 * "do not use Bash" denials the coordinator stopped even trying the allowed `git status` and sent a
 * subagent instead (learned helplessness, ~4.3k context per start).
 */
export const GLANCE_DENIAL_PREFIX: Readonly<Record<Locale, string>> = {
  zh: "这条命令不是只看一眼(git status、ls、cat 这类结果会过期的只读命令可以直接跑,也可用 && | ; 组合)。",
  en: "Not a glance (read-only commands whose result goes stale, like git status, ls, cat, run directly, also joined with && | ;). ",
};

/** The pointer line that replaces a spilled field; the preview follows on the next line. */
export const SPILL_POINTER: Readonly<Record<Locale, (path: string, chars: number) => string>> = {
  zh: (path, chars) => `[全文 ${chars} 字符已存到 ${path},需要时用 Read 读取;下面是前面一段]`,
  en: (path, chars) =>
    `[Full text (${chars} chars) saved to ${path}; read it with Read if needed. The beginning follows]`,
};

/** The read-only guard's denial: what is allowed, and where the finding goes instead (the answer). */
export const READ_ONLY_DENIAL: Readonly<Record<Locale, string>> = {
  zh: "这一步只读:可以看(Read、Glob、Grep、git status、ls、cat 这类只读命令),不能改、不能跑构建或测试。把你的发现和打算写进回答里的文书。",
  en: "This step is read-only: you may look (Read, Glob, Grep, read-only commands such as git status, ls, cat), not change anything or run builds or tests. Put what you found and intend into the document in your answer.",
};

/**
 * The writing turn's denial: one line, saying where the handoff goes instead. A model that sent a subagent
 * to write the handoff to a file answered "the handoff is in <file>", and the successor got nothing.
 */
export const WRITING_DENIAL: Readonly<Record<Locale, string>> = {
  zh: "这一轮只写交接书:不派子代理、不写文件、不跑命令 —— 直接把交接书全文作为这一轮的回答输出。",
  en: "This turn only writes the handoff: no workers, no files, no commands — answer with the handoff's full text itself.",
};
