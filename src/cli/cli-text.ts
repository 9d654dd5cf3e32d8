/**
 * The command line's own words, per locale. The live view's words are in display.ts; these are the
 * lines around a run (credentials, stop, continue hints, demo) and the `runs` / `show` reports.
 */
import { noProgress, type DriftMeasures } from "../locale/drift-words.js";
import type { Locale } from "../locale/locale.js";
import { STATUS_WORDS, type StepStatusWord } from "../locale/status-words.js";
import { invocation, shellQuote, typed } from "../locale/invocation.js";

/** A step's status words (locale/status-words.ts: the live page shows the same ones). */
function stepStatus(locale: Locale): Record<StepStatusWord, string> {
  const words = STATUS_WORDS[locale];
  return {
    running: words.running,
    done: words.done,
    failed: words.failed,
    stopped: words.stopped,
    "goal-not-met": words["goal-not-met"],
    "budget-reached": words["budget-reached"],
    interrupted: words.interrupted,
    paused: words.paused,
  };
}

export interface CliText {
  endpoint: (value: string) => string;
  model: (value: string) => string;
  token: (variable: string | null, masked: string) => string;
  window: (window: string, at: string) => string;
  handoffOff: string;
  workspace: (path: string) => string;
  stopping: string;
  /** SIGTERM (docker stop, systemd, timeout): the same stop, with the grace period it allows. */
  terminating: (graceSeconds: number) => string;
  stopped: (command: string) => string;
  /** The drift watch paused the step at a handoff (its evidence was shown as it came). */
  driftPaused: (command: string) => string;
  /** A stop came, but the reply in flight ended the step: there is nothing to continue. */
  finishedBeforeStop: string;
  /**
   * The run's budget was reached (`by` a run's budget or a fleet's day): spent of budget, and the
   * command that goes on with a higher one ("" when none can be typed here).
   */
  budgetReached: (spent: string, budget: string, by: "run" | "day", command: string) => string;
  /** `continue` with a budget the run has already spent: nothing started. */
  budgetBelowSpent: (spent: string, budget: string, command: string) => string;
  /** "spent $x of $y" (flower runs, show, the live view where a budget is set). */
  spentOf: (spent: string, budget: string) => string;
  /** After goal-not-met: how to give the work its guard rounds again (same goal). */
  tryAgain: (command: string) => string;
  failed: (command: string) => string;
  answer: string;
  /** After a run: a document degraded as the steps used it, and why (the run went on with it). */
  degradedDocument: (kind: string, path: string, why: string) => string;
  /** After a run: a document frozen degraded (`why`) that a person filled in before the next step read it. */
  filledInDocument: (kind: string, path: string, why: string) => string;
  /** `where`: the run directory's records (records.db) or the shared store. */
  noSteps: (where: string) => string;
  /**
   * Bare `flower` with an unfinished step here; with `file`, a paused run's frozen document (a terminal
   * that died at the pause never showed it).
   */
  unfinished: (step: string, status: string, command: string, file?: string) => string;
  /**
   * Bare `flower` on a terminal with nothing to continue: what a typed task does (`workspace`: where it
   * runs) and how to leave, on the lines before the prompt.
   */
  askTaskIntro: (workspace: string, run: "workflow" | "straight" | "direct") => string;
  /** The prompt for the task on a terminal. */
  askTask: string;
  noStep: (step: string, where: string, known: string[]) => string;
  runsHeader: readonly [string, string, string, string, string, string, string];
  /** The pause after the requirements: what to read, what is asked, how to go on. */
  pause: {
    title: (step: string) => string;
    file: string;
    openQuestions: string;
    noOpenQuestions: string;
    goOn: (command: string) => string;
    straightThrough: () => string;
  };
  /** One or two words: they fill a table column (`flower runs`) and a status line. */
  status: Record<StepStatusWord, string>;
  /** What to do about a status, on a line of its own under the table or the status line. */
  statusHint: Partial<Record<"goal-not-met" | "budget-reached" | "interrupted" | "paused", string>>;
  show: {
    step: string;
    status: string;
    agent: string;
    task: string;
    totals: string;
    cost: string;
    budget: string;
    turns: string;
    generations: string;
    failedAttempts: string;
    context: string;
    spills: string;
    denials: string;
    session: string;
    retired: string;
    work: string;
    estimated: (usd: string, responses: number, models: string) => string;
    /** Where a step's files are: `workspace` null for its own worktree, removed; `branch` null without one here. */
    workWhere: (
      workspace: string | null,
      isolated: boolean,
      checkpoints: number,
      branch: string | null,
    ) => string;
    generationsTitle: string;
    current: string;
    handedOff: string;
    /** Under a generation: the files it changed (`list` names the first few). */
    changedFiles: (count: number, list: string) => string;
    /** Under a generation that recorded its work and changed nothing. */
    noFilesChanged: string;
    /** The drift watch paused the step after these generations made no progress. */
    driftPaused: (generations: number[], at: string, measures: DriftMeasures) => string;
    /** On a step's line of `flower show <run>`: files its generations changed. */
    filesChanged: (count: number) => string;
    /** After the first names of a list of files: how many more. */
    moreFiles: (rest: number) => string;
    /** Once per step: files its checkpoints left out (a rewind cannot put them back). */
    leftOut: (list: string) => string;
    /** Once per step: untracked files that looked like secrets (never carried, never in the branch). */
    leftOutSecrets: (list: string) => string;
    tooLarge: (size: string | null) => string;
    nestedRepository: string;
    secret: (sign: "name" | "private-key" | "credential" | undefined) => string;
    /** A checkpoint that could not be taken or stored (the run went on). */
    workWarning: (message: string) => string;
    /** Heads the generations a rewind took back: when, and the generation the step went back to. */
    rewoundTitle: (at: string, to: number) => string;
    /** Marks a generation a rewind took back. */
    rewound: string;
    /** A `flower handoff` request the driver acted on in this generation: who, when, their words. */
    askedBy: (by: string, at: string, next: string | null) => string;
    /** A person's message (flower say) this generation's session was given: who, when said, when given. */
    saidBy: (by: string, at: string, given: string, text: string) => string;
    /** A person's message no session has been given yet. */
    saidWaiting: (by: string, at: string, text: string) => string;
    degraded: (why: string) => string;
    noFile: string;
    errors: string;
    handoffFiles: string;
    archived: string;
    missingFile: string;
    pending: string;
    currentHandoff: (path: string) => string;
    scene: string;
    none: string;
    frozenDocument: (title: string, path: string) => string;
    /** A frozen document degraded when frozen (`why`), complete as the following steps used it. */
    filledIn: (why: string) => string;
    /**
     * The file differs from what was frozen. `readBy`: the workflow step that began with it as it is now
     * (null: none has); `finished`: no step has read it and none will (the run is done).
     */
    editedAfterFreeze: (readBy: string | null, finished: boolean) => string;
    run: string;
    steps: string;
    stepDetails: (command: string) => string;
  };
  demo: {
    title: string;
    workspaceKept: (path: string) => string;
    workspaceRemoved: (path: string) => string;
    /** Without --keep: how to look at what the demo does (`command`: the demo again, with --keep). */
    lookAgain: (command: string) => string;
    /** With --keep: the commands that look at it, one a line. */
    inspect: (commands: readonly string[]) => string[];
    notEmpty: (path: string) => string;
    noGit: string;
    summary: (handoffs: number, generations: number, seconds: string) => string;
    /**
     * At the demo's pause, in place of a continue line: its model lives in the demo's process, so no
     * command typed elsewhere can go on with it (`command`: what goes on in a run of the person's).
     */
    goesOnItself: (command: string) => string;
    editing: (path: string, line: number) => string;
    was: (line: string) => string;
    now: (line: string) => string;
    goingOn: (command: string) => string;
  };
}

export const CLI_TEXT: Record<Locale, CliText> = {
  en: {
    endpoint: (value) => `endpoint  ${value}`,
    model: (value) => `model     ${value}`,
    token: (variable, masked) => `token     ${masked}${variable ? ` (${variable})` : ""}`,
    window: (window, at) => `window    ${window} · handoff at ${at}`,
    handoffOff: "window    handoff off (auto-compact stays on)",
    workspace: (path) => `workspace ${path}`,
    stopping: "^C stopping at the next message boundary… (Ctrl-C again quits at once)",
    terminating: (grace) =>
      `SIGTERM: stopping at the next message boundary… (another signal, or ${grace} s, quits at once)`,
    stopped: (command) => `Stopped at a message boundary.${command ? ` Pick it up with: ${command}` : ""}`,
    driftPaused: (command) =>
      `Paused for a person: read the handoff, add what the next generation should know (or fix what blocks it), then${command ? `: ${command}` : " continue the step"}.`,
    finishedBeforeStop:
      "The reply in flight ended the step before the stop took effect: nothing to continue.",
    budgetReached: (spent, budget, by, command) =>
      `Budget reached: spent ${spent} of ${budget}${by === "day" ? " (the fleet's budget for today, UTC)" : ""}${command ? `; ${command} goes on` : ""}`,
    budgetBelowSpent: (spent, budget, command) =>
      `flower: the run has spent ${spent}, the budget ${budget} is already reached; nothing started${command ? ` (go on with a higher one: ${command})` : ""}`,
    spentOf: (spent, budget) => `spent ${spent} of ${budget}`,
    tryAgain: (command) => `Try again (the goal recorded when the work began): ${command}`,
    failed: (command) => `The step failed; after fixing the cause, try: ${command}`,
    answer: "── answer ──",
    degradedDocument: (kind, path, why) =>
      `!! the ${kind} document is degraded (${why}); the run went on with it: ${path}`,
    filledInDocument: (kind, path, why) =>
      `the ${kind} document was degraded at freeze (${why}) and filled in since: ${path}`,
    noSteps: (where) => `No steps yet in ${where}. Start one with: ${invocation()} "<task>"`,
    unfinished: (step, status, command, file) =>
      `The last step here, "${step}", is ${status}. Continue it with: ${command}\n` +
      (file ? `Read its frozen document first (change a line there if it is wrong): ${file}\n` : "") +
      `Or start another: ${invocation()} "<task>"`,
    askTaskIntro: (workspace, run) =>
      `No task given. Type one and press Enter: an agent works on it in ${workspace}${
        run === "direct"
          ? " (the work step only, --direct)."
          : run === "straight"
            ? ", from its requirements to the work without a pause (--yes)."
            : ", first writing down the requirements, then pausing for you to read them."
      }\nEnter on an empty line, Ctrl-D or Ctrl-C leaves without starting anything (${invocation()} --help lists the options).`,
    askTask: "Task: ",
    noStep: (step, where, known) =>
      `flower: no step "${step}" in ${where}${known.length ? ` (known: ${known.join(", ")})` : ""}`,
    runsHeader: ["STEP", "STATUS", "GEN", "COST", "TURNS", "UPDATED", "HELD BY"],
    pause: {
      title: (step) =>
        `Paused after the ${step} step. Read the file; if a line is wrong, change it there: the next step reads the file as it is then.`,
      file: "file",
      openQuestions: "open questions",
      noOpenQuestions: "(none)",
      goOn: (command) => `Go on with: ${command}`,
      straightThrough: () => `(${invocation()} --yes "<task>" runs straight through, without this pause)`,
    },
    status: stepStatus("en"),
    // Getters: the command each names is made when the line is, as the person's shell reaches flower.
    statusHint: {
      get "goal-not-met"() {
        return `the goal's checks or reviewer said no; ${typed("show <step>")} lists the evidence`;
      },
      get "budget-reached"() {
        return `its budget is spent; ${typed("continue <step> --budget <more>")} goes on`;
      },
      get interrupted() {
        return `its process is gone; ${typed("continue")} picks it up`;
      },
      get paused() {
        return `waiting for you to read its frozen document; ${typed("continue")} goes on`;
      },
    },
    show: {
      step: "step",
      status: "status",
      agent: "agent",
      task: "task",
      totals: "totals",
      cost: "cost",
      budget: "budget",
      turns: "turns",
      generations: "generations",
      failedAttempts: "failed attempts",
      context: "context",
      spills: "spills",
      denials: "denials",
      session: "session",
      retired: "retired",
      work: "files",
      estimated: (usd, responses, models) =>
        `≈$${usd} of it estimated: ${responses} ${responses === 1 ? "response" : "responses"} a stopped driver was billed for before the binary reported its total, priced at the binary's prices for ${models}`,
      workWhere: (workspace, isolated, checkpoints, branch) =>
        `${workspace === null ? "its own worktree (removed)" : isolated ? `its own worktree ${workspace}` : workspace} · ${checkpoints} ${checkpoints === 1 ? "checkpoint" : "checkpoints"}${branch === null ? "" : ` · branch ${branch} (${typed(`diff ${shellQuote(branch.replace(/^flower\//u, ""))}`)}, ${typed(`apply ${shellQuote(branch.replace(/^flower\//u, ""))}`)})`}`,
      generationsTitle: "generations",
      current: "current",
      handedOff: "handed off",
      changedFiles: (count, list) => `changed ${count} file${count === 1 ? "" : "s"}: ${list}`,
      driftPaused: (generations, at, measures) =>
        `paused by the drift watch on ${at}: generations ${generations.join(", ")} ${noProgress(measures, "en")}`,
      noFilesChanged: "changed no files",
      filesChanged: (count) => `${count} file${count === 1 ? "" : "s"} changed`,
      moreFiles: (rest) => ` and ${rest} more`,
      leftOut: (list) => `left out of the checkpoints (a rewind cannot put them back): ${list}`,
      tooLarge: (size) => ` (too large${size ? `, ${size}` : ""})`,
      nestedRepository: " (a repository of its own)",
      leftOutSecrets: (list) =>
        `left out as secrets (untracked: never carried to a store or a worker, never in flower/<run>; flower.json "carry" names files to bring): ${list}`,
      secret: (sign) =>
        ` (${sign === "private-key" ? "a private key" : sign === "credential" ? "a credential flower uses" : "its name"})`,
      workWarning: (message) => `! checkpoints: ${message}`,
      rewoundTitle: (at, to) =>
        `rewound at ${at} (flower rewind), back to the start of generation ${to}; no longer the step's`,
      rewound: "rewound",
      askedBy: (by, at, next) =>
        `asked by ${by} (flower handoff) at ${at}${next === null ? "" : `: ${next}`}`,
      saidBy: (by, at, given, text) =>
        `said by a person, ${by}, at ${at} (flower say; given at ${given}): ${text}`,
      saidWaiting: (by, at, text) =>
        `said by a person, ${by}, at ${at} (flower say): ${text} — not given to a session yet`,
      degraded: (why) => `DEGRADED${why ? ` (${why})` : ""}`,
      noFile: "(no workbench: not written to disk)",
      errors: "errors",
      handoffFiles: "handoff files",
      archived: "archived",
      missingFile: "(missing)",
      get pending() {
        return `pending: the next \`${typed("continue")}\` starts the successor from it`;
      },
      currentHandoff: (path) => `current handoff  ${path}`,
      scene: "scene      ",
      none: "(none)",
      frozenDocument: (title, path) => `frozen ${title}  ${path}`,
      filledIn: (why) => `degraded at freeze${why ? ` (${why})` : ""}, filled in since`,
      editedAfterFreeze: (readBy, finished) =>
        readBy !== null
          ? `changed on disk after it was frozen, before ${readBy === "work" ? "the work" : `the ${readBy} step`} began (it read it as it is now)`
          : finished
            ? "changed on disk after it was frozen (the run is finished: no step reads it any more)"
            : "changed on disk after it was frozen (the next step reads it as it is now)",
      run: "run",
      steps: "steps",
      stepDetails: (command) => `one step in detail: ${command}`,
    },
    demo: {
      title:
        "flower demo — a scripted long-horizon run against the offline model kit and the real Claude Code binary (no key, no cost)",
      workspaceKept: (path) => `workspace kept: ${path}`,
      workspaceRemoved: (path) => `workspace removed: ${path}`,
      lookAgain: (command) =>
        `To look at what it did (its records, steps, documents and report): ${command} runs the same script again, keeps its workspace and ends with the lines that open it.`,
      inspect: (commands) =>
        commands.map((command, i) => `${i === 0 ? "look at it:" : "           "} ${command}`),
      notEmpty: (path) => `flower: --workspace for the demo must be a new or empty directory, got ${path}`,
      noGit: "(git not found: the glance is `ls` instead of `git status`)",
      summary: (handoffs, generations, seconds) =>
        `demo finished: ${handoffs} handoffs, ${generations} generations, ${seconds}s (requirements → goal → work)`,
      goesOnItself: (command) => `the demo goes on by itself in a moment (in a run of your own: ${command})`,
      editing: (path, line) => `demo: playing the person at the pause — changing line ${line} of ${path}:`,
      was: (line) => `  was  ${line}`,
      now: (line) => `  now  ${line}`,
      goingOn: (command) =>
        `demo: going on, as \`${command}\` would: the goal step starts from the file as it is now.`,
    },
  },
  zh: {
    endpoint: (value) => `端点    ${value}`,
    model: (value) => `模型    ${value}`,
    token: (variable, masked) => `token   ${masked}${variable ? ` (${variable})` : ""}`,
    window: (window, at) => `窗口    ${window} · 换代线 ${at}`,
    handoffOff: "窗口    换代已关(保留 auto-compact)",
    workspace: (path) => `工作区  ${path}`,
    stopping: "^C 在下一个消息边界停下……(再按一次 Ctrl-C 立即退出)",
    terminating: (grace) => `SIGTERM:在下一个消息边界停下……(再来一个信号,或 ${grace} 秒后,立即退出)`,
    stopped: (command) => `已在消息边界停下。${command ? `接着跑: ${command}` : ""}`,
    driftPaused: (command) =>
      `停下来等人:读一下交接书,写上下一代该知道的(或排除卡住它的原因),然后${command ? `: ${command}` : "接着跑这一步"}。`,
    finishedBeforeStop: "停下生效之前,途中的回复已经结束了这一步:没有要接着跑的。",
    budgetReached: (spent, budget, by, command) =>
      `预算用完:已花 ${spent},预算 ${budget}${by === "day" ? "(车队今天的预算,按 UTC)" : ""}${command ? `;${command} 接着走` : ""}`,
    budgetBelowSpent: (spent, budget, command) =>
      `flower: 这次运行已花 ${spent},预算 ${budget} 已经用完;什么也没开始${command ? `(给更高的预算接着走: ${command})` : ""}`,
    spentOf: (spent, budget) => `已花 ${spent} / 预算 ${budget}`,
    tryAgain: (command) => `再试一次(按工作开始时记下的目标): ${command}`,
    failed: (command) => `这一步失败了;排除原因后可以: ${command}`,
    answer: "── 回答 ──",
    degradedDocument: (kind, path, why) => `!! ${kind} 文书是降级件(${why}),运行照常走完了: ${path}`,
    filledInDocument: (kind, path, why) => `${kind} 文书冻结时是降级件(${why}),之后已补全: ${path}`,
    noSteps: (where) => `${where} 里还没有步骤。开一个: ${invocation()} "<任务>"`,
    unfinished: (step, status, command, file) =>
      `这里最后一步“${step}”${status}。接着做: ${command}\n` +
      (file ? `先读它冻结的文书(哪行不对就在那里改): ${file}\n` : "") +
      `或者开新的: ${invocation()} "<任务>"`,
    askTaskIntro: (workspace, run) =>
      `没有给任务。输入一个并回车: 代理会在 ${workspace} 里做${
        run === "direct"
          ? "(只跑工作这一步,--direct)。"
          : run === "straight"
            ? ",从需求确认一路做到干活,中间不停(--yes)。"
            : ",先写下需求确认,然后暂停让你读。"
      }\n空行回车、Ctrl-D 或 Ctrl-C 离开,什么都不启动(${invocation()} --help 列出选项)。`,
    askTask: "任务: ",
    noStep: (step, where, known) =>
      `flower: ${where} 里没有步骤 "${step}"${known.length ? `(已有: ${known.join(", ")})` : ""}`,
    runsHeader: ["步骤", "状态", "代", "花费", "轮", "更新", "驱动者"],
    pause: {
      title: (step) =>
        `“${step}”这一步做完,先停在这里。读一遍文件,哪行不对就直接改 —— 下一步读的是文件当时的样子。`,
      file: "文件",
      openQuestions: "待定问题",
      noOpenQuestions: "(无)",
      goOn: (command) => `接着跑: ${command}`,
      straightThrough: () => `(${invocation()} --yes "<任务>" 一口气跑完,不在这里停)`,
    },
    status: stepStatus("zh"),
    statusHint: {
      get "goal-not-met"() {
        return `目标的检查或评审没通过;证据见 ${typed("show <步骤>")}`;
      },
      get "budget-reached"() {
        return `预算已用完;${typed("continue <步骤> --budget <更多>")} 接着走`;
      },
      get interrupted() {
        return `进程已不在;${typed("continue")} 可接着做`;
      },
      get paused() {
        return `等你读冻结的文书;${typed("continue")} 接着走`;
      },
    },
    show: {
      step: "步骤",
      status: "状态",
      agent: "角色",
      task: "任务",
      totals: "合计",
      cost: "花费",
      budget: "预算",
      turns: "轮",
      generations: "代",
      failedAttempts: "失败尝试",
      context: "上下文",
      spills: "落盘",
      denials: "拒绝",
      session: "会话",
      retired: "已烧掉",
      work: "文件",
      estimated: (usd, responses, models) =>
        `其中约 $${usd} 是估算:驱动在二进制报出总额前停掉了,这 ${responses} 次回复按二进制对 ${models} 的价格计算`,
      workWhere: (workspace, isolated, checkpoints, branch) =>
        `${workspace === null ? "它自己的 worktree(已删除)" : isolated ? `它自己的 worktree ${workspace}` : workspace} · ${checkpoints} 个检查点${branch === null ? "" : ` · 分支 ${branch}(${typed(`diff ${shellQuote(branch.replace(/^flower\//u, ""))}`)}、${typed(`apply ${shellQuote(branch.replace(/^flower\//u, ""))}`)})`}`,
      generationsTitle: "各代",
      current: "当前",
      handedOff: "换代",
      changedFiles: (count, list) => `改了 ${count} 个文件:${list}`,
      driftPaused: (generations, at, measures) =>
        `${at} 被漂移看守停下:第 ${generations.join("、")} 代${noProgress(measures, "zh")}`,
      noFilesChanged: "没改文件",
      filesChanged: (count) => `改了 ${count} 个文件`,
      moreFiles: (rest) => `,还有 ${rest} 个`,
      leftOut: (list) => `没进检查点的文件(回退放不回它们):${list}`,
      tooLarge: (size) => `(太大${size ? `,${size}` : ""})`,
      nestedRepository: "(自带 git 仓库)",
      leftOutSecrets: (list) =>
        `当作密钥没带上的文件(未跟踪:不进共用存储、不上 worker、不进 flower/<运行>;flower.json 的 "carry" 可以点名带上):${list}`,
      secret: (sign) =>
        `(${sign === "private-key" ? "私钥" : sign === "credential" ? "flower 用的凭据" : "看名字"})`,
      workWarning: (message) => `! 检查点:${message}`,
      rewoundTitle: (at, to) => `${at} 回退(flower rewind)到第 ${to} 代开头;以下几代已不算这一步的`,
      rewound: "已回退",
      askedBy: (by, at, next) => `${by} 于 ${at} 要求交接(flower handoff)${next === null ? "" : `:${next}`}`,
      saidBy: (by, at, given, text) => `${by} 于 ${at} 说(flower say;${given} 交给会话):${text}`,
      saidWaiting: (by, at, text) => `${by} 于 ${at} 说(flower say):${text} —— 还没交给会话`,
      degraded: (why) => `降级${why ? `(${why})` : ""}`,
      noFile: "(没有工作台,没落盘)",
      errors: "错误",
      handoffFiles: "交接文件",
      archived: "归档",
      missingFile: "(不存在)",
      get pending() {
        return `待接手: 下一次 \`${typed("continue")}\` 从它开新会话`;
      },
      currentHandoff: (path) => `当前交接  ${path}`,
      scene: "现场      ",
      none: "(无)",
      frozenDocument: (title, path) => `冻结的${title}  ${path}`,
      filledIn: (why) => `冻结时是降级件${why ? `(${why})` : ""},之后已补全`,
      editedAfterFreeze: (readBy, finished) =>
        readBy !== null
          ? `冻结后、${readBy === "work" ? "工作" : `「${readBy}」这一步`}开始前在磁盘上改过(它读的就是现在的样子)`
          : finished
            ? "冻结后在磁盘上改过(运行已结束,不会再有步骤读它)"
            : "冻结后在磁盘上改过(下一步读的是现在的样子)",
      run: "运行",
      steps: "各步",
      stepDetails: (command) => `看某一步的细节: ${command}`,
    },
    demo: {
      title: "flower demo —— 用离线模型套件和真的 Claude Code 二进制跑一段脚本化的长程任务(不要 key,不花钱)",
      workspaceKept: (path) => `工作区保留在: ${path}`,
      workspaceRemoved: (path) => `工作区已删除: ${path}`,
      lookAgain: (command) =>
        `想看它做了什么(记录、各步、文书、报告): ${command} 会把同一段脚本再跑一遍,保留工作区,最后给出查看的命令。`,
      inspect: (commands) => commands.map((command, i) => `${i === 0 ? "查看:" : "     "} ${command}`),
      notEmpty: (path) => `flower: demo 的 --workspace 必须是新目录或空目录,收到 ${path}`,
      noGit: "(没找到 git: 看一眼改用 `ls`,不是 `git status`)",
      summary: (handoffs, generations, seconds) =>
        `demo 跑完: 换代 ${handoffs} 次,共 ${generations} 代,${seconds} 秒(需求 → 目标 → 干活)`,
      goesOnItself: (command) => `demo 马上自己接着跑(你自己的运行用: ${command})`,
      editing: (path, line) => `demo: 扮演停下时看文件的人 —— 改 ${path} 的第 ${line} 行:`,
      was: (line) => `  原来  ${line}`,
      now: (line) => `  改成  ${line}`,
      goingOn: (command) => `demo: 接着跑,和 \`${command}\` 一样: 目标这一步从文件现在的样子开始。`,
    },
  },
};
