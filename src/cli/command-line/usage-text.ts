/**
 * The words of the usage errors a command line can earn (exit code 2), per locale: `--lang zh` (or a zh
 * FLOWER_LANG/LANG) makes every one of them Chinese, not only the parser's. Each names the bad value.
 */
import { typed } from "../../locale/invocation.js";
import type { Locale } from "../../locale/locale.js";

export interface UsageText {
  windowNotInteger: (text: string, minimum: number) => string;
  /** `--handoff-rule` is `line` or `cost`. */
  handoffRule: (text: string) => string;
  /** `--drift-after` is a whole number of generations. */
  driftAfter: (text: string) => string;
  /** A window a coordinator cannot work in: where the line would be, and what it needs. */
  windowTooSmall: (window: number, at: string, startup: string, headroom: string, minimum: number) => string;
  /** A window that works, but hands off so often that most of each generation is its start-up. */
  windowSmall: (window: number, at: string, startup: string, comfortable: number) => string;
  /** A dollar amount (`--max-budget-usd`, `--budget`, a worker's `--budget-per-run|day`) that is not positive and finite. */
  budget: (text: string, option?: string) => string;
  lang: (text: string) => string;
  /** FLOWER_LANG names a language flower does not speak; the note says what it uses instead. */
  langVariable: (text: string, used: Locale) => string;
  empty: (option: string) => string;
  /** `--notify` that is neither a command nor an http(s) URL: the value as it may be shown, and the scheme. */
  notify: (shown: string, scheme: string | null) => string;
  workspaceMissing: (path: string) => string;
  /** `--run-dir` is a file, or lies under one: no folder can be made there. */
  runDirNotDirectory: (given: string, blocker: string) => string;
  oneTask: (count: number, joined: string) => string;
  noTask: string;
  emptyTask: string;
  /** `flower runs extra`, `flower demo extra`, `flower forget a b`. */
  unexpected: (command: string, argument: string) => string;
  oneStepName: (command: string) => string;
  forgetWhich: string;
  noSessionStore: (runDir: string) => string;
  /** `--older-than` that is not a duration. */
  olderThan: (text: string) => string;
  /** `flower forget <step> --older-than …`: one or the other. */
  forgetBoth: string;
  /** A one-word task that is (nearly) a command: nothing ran; how to run it as a task anyway. */
  commandLike: (word: string, suggestion: string) => string;
}

export const USAGE_TEXT: Record<Locale, UsageText> = {
  en: {
    windowNotInteger: (text, minimum) =>
      `flower: --window must be an integer number of tokens (>= ${minimum}), got "${text}"`,
    driftAfter: (text) =>
      `flower: --drift-after must be a whole number of generations (0 turns the drift watch off), got "${text}"`,
    handoffRule: (text) =>
      `flower: --handoff-rule must be line (hand off at the line, window - headroom) or cost (as soon as staying costs more than a handoff), got "${text}"`,
    windowTooSmall: (window, at, startup, headroom, minimum) =>
      `flower: --window ${window} is too small to work in: the handoff line would be at ${at} (window - ${headroom} headroom), not above the ~${startup} a coordinator needs just to start, so every generation would hand off before doing anything; give at least ${minimum}`,
    windowSmall: (window, at, startup, comfortable) =>
      `flower: note: --window ${window} hands off at ${at}, and a coordinator needs ~${startup} just to start, so every generation spends much of its room starting up and hands off often; a window of ${comfortable} or more (the model's real one) works comfortably`,
    budget: (text, option = "--max-budget-usd") =>
      `flower: ${option} must be a positive number of dollars, got "${text}"`,
    lang: (text) =>
      `flower: --lang must be zh or en (zh-CN, zh_CN.UTF-8, en_US … are read too), got "${text}"`,
    langVariable: (text, used) =>
      `flower: note: FLOWER_LANG=${text} is not a language flower speaks (zh or en); using ${used}`,
    empty: (option) => `flower: ${option} must not be empty`,
    notify: (shown, scheme) =>
      `flower: --notify must be a shell command, or an http:// or https:// URL for a webhook; got ${shown}${scheme ? ` (${scheme}:// is neither)` : " (not a URL that parses)"}`,
    workspaceMissing: (path) => `flower: --workspace must be an existing directory, got ${path}`,
    runDirNotDirectory: (given, blocker) =>
      `flower: --run-dir must be a directory, got ${given} (${blocker} is not a directory)`,
    oneTask: (count, joined) =>
      `flower: give the task as one quoted argument, got ${count} words (${typed(`"${joined}"`)})`,
    get noTask() {
      return `flower: no task given. Usage: ${typed('"<task>"')} (see ${typed("--help")})`;
    },
    emptyTask: "flower: the task is empty",
    unexpected: (command, argument) =>
      `flower ${command}: unexpected argument "${argument}" (see ${typed(`${command} --help`)})`,
    oneStepName: (command) => `flower ${command}: give one step name (see ${typed(`${command} --help`)})`,
    get forgetWhich() {
      return `flower forget: name the step whose sessions to delete (see ${typed("runs")})`;
    },
    noSessionStore: (runDir) => `flower forget: no session store in ${runDir}`,
    olderThan: (text) =>
      `flower forget: --older-than must be a duration: a whole number and d, h or w (30d, 12h, 2w), got "${text}"`,
    forgetBoth: "flower forget: name a step or run, or give --older-than, not both",
    commandLike: (word, suggestion) =>
      `flower: "${word}" looks like a command, not a task; nothing was started. Did you mean: ${suggestion}? To run it as a task anyway: ${typed(`-- ${word}`)}`,
  },
  zh: {
    windowNotInteger: (text, minimum) => `flower: --window 必须是整数个 token(>= ${minimum}),收到 "${text}"`,
    driftAfter: (text) => `flower: --drift-after 必须是整数代(0 关掉漂移看守),收到 "${text}"`,
    handoffRule: (text) =>
      `flower: --handoff-rule 只能是 line(到换代线才换代,即窗口减余量)或 cost(一旦留下比交接更贵就换代),收到 "${text}"`,
    windowTooSmall: (window, at, startup, headroom, minimum) =>
      `flower: --window ${window} 太小,干不了活: 换代线会在 ${at}(窗口减去 ${headroom} 余量),不高于协调者光启动就要的约 ${startup},每一代还没干活就得换代;至少给 ${minimum}`,
    windowSmall: (window, at, startup, comfortable) =>
      `flower: 提示: --window ${window} 的换代线在 ${at},而协调者光启动就要约 ${startup},每一代的大半空间花在启动上,会频繁换代;给 ${comfortable} 或更大(模型真实的窗口)才宽裕`,
    budget: (text, option = "--max-budget-usd") => `flower: ${option} 必须是正数(美元),收到 "${text}"`,
    lang: (text) => `flower: --lang 只能是 zh 或 en(也认 zh-CN、zh_CN.UTF-8、en_US 等写法),收到 "${text}"`,
    langVariable: (text, used) =>
      `flower: 提示: FLOWER_LANG=${text} 不是 flower 会说的语言(zh 或 en),改用 ${used}`,
    empty: (option) => `flower: ${option} 不能为空`,
    notify: (shown, scheme) =>
      `flower: --notify 必须是一条 shell 命令,或 webhook 的 http:// / https:// 地址;收到 ${shown}${scheme ? `(${scheme}:// 两者都不是)` : "(不是能解析的 URL)"}`,
    workspaceMissing: (path) => `flower: --workspace 必须是已存在的目录,收到 ${path}`,
    runDirNotDirectory: (given, blocker) => `flower: --run-dir 必须是目录,收到 ${given}(${blocker} 不是目录)`,
    oneTask: (count, joined) =>
      `flower: 任务要作为一个带引号的参数给出,收到 ${count} 个词(${typed(`"${joined}"`)})`,
    get noTask() {
      return `flower: 没有给任务。用法: ${typed('"<任务>"')}(见 ${typed("--help")})`;
    },
    emptyTask: "flower: 任务是空的",
    unexpected: (command, argument) =>
      `flower ${command}: 多了一个参数 "${argument}"(见 ${typed(`${command} --help`)})`,
    oneStepName: (command) => `flower ${command}: 只给一个步骤名(见 ${typed(`${command} --help`)})`,
    get forgetWhich() {
      return `flower forget: 说出要删哪一步的会话(见 ${typed("runs")})`;
    },
    noSessionStore: (runDir) => `flower forget: ${runDir} 里没有会话库`,
    olderThan: (text) =>
      `flower forget: --older-than 要一个时长:整数加 d、h 或 w(30d、12h、2w),收到的是 "${text}"`,
    forgetBoth: "flower forget: 要么说出一步或一次运行,要么给 --older-than,不能两个都给",
    commandLike: (word, suggestion) =>
      `flower: "${word}" 像是命令,不像任务;什么都没有启动。你是想: ${suggestion}?真要把它当任务跑: ${typed(`-- ${word}`)}`,
  },
};
