/**
 * The report's words, per locale. Numbers are formatted by the caller; these only place them.
 */
import { noProgress, type DriftMeasures } from "../locale/drift-words.js";
import type { Locale } from "../locale/locale.js";

export interface ReportText {
  lang: string;
  summary: (steps: number, turns: number, cost: string, handoffs: number) => string;
  task: string;
  status: string;
  generations: string;
  turns: string;
  cost: string;
  /** The run's budget where one is set: what the run spent (all its steps) of it. */
  budget: string;
  spentOf: (spent: string, budget: string) => string;
  handoffs: string;
  spills: string;
  denials: string;
  peak: string;
  contextTitle: string;
  contextCaption: (window: string) => string;
  contextCaptionZoomed: (top: string, window: string) => string;
  stepsTitle: string;
  documentsTitle: string;
  documentFrozenBy: (step: string) => string;
  /** Beside a section that differs from the text as frozen. */
  sectionChanged: string;
  goalChecksTitle: string;
  checkColumn: string;
  checkRun: (round: number) => string;
  log: string;
  goalNotMet: string;
  failingChecks: (failed: number, total: number) => string;
  prompt: string;
  atLine: (tokens: string) => string;
  warnLine: (tokens: string) => string;
  handoffMarker: (generation: number, degraded: boolean) => string;
  generationBand: (generation: number) => string;
  turnAxis: string;
  pointTitle: (turn: number, generation: number, context: string, time: string | undefined) => string;
  timeSpan: (from: string, to: string) => string;
  generationTable: {
    caption: string;
    generation: string;
    turns: string;
    cost: string;
    peak: string;
    ended: string;
    handoffPath: string;
    handoff: string;
    degraded: string;
    running: string;
    /** The column of the files each generation changed (shown only for a run that kept checkpoints). */
    files: string;
    noFiles: string;
    /** After the first names: the rest, folded. */
    moreFiles: (rest: number) => string;
    /** The column of the goal's checks run at each handoff (shown only for a step whose goal has checks). */
    checks: string;
    checksCell: (passing: number, total: number, newly: number) => string;
    /** Under the table: the drift watch paused the step after these generations. */
    driftPaused: (generations: readonly number[], at: string, measures: DriftMeasures) => string;
    /** A rewind's table: when, and the generation the step went back to the start of. */
    rewoundCaption: (at: string, to: number) => string;
    /** A row of a rewound generation, in the "Ended in" column after how it ended. */
    rewound: string;
  };
  /** The step's files left out of the checkpoints, and checkpoints that failed. */
  work: {
    leftOut: string;
    tooLarge: (size: string | null) => string;
    nestedRepository: string;
    /** An untracked file that looked like a secret: never carried, never in the branch. */
    secret: (sign: "name" | "private-key" | "credential" | undefined) => string;
    warning: string;
  };
  /** A person's messages (flower say) the step's sessions were given. */
  saidTitle: string;
  said: (by: string, at: string, generation: number, given: string) => string;
  activityTitle: string;
  activityCaption: string;
  noActivity: string;
  barTitle: (kind: "spill" | "denial", turn: number, count: number) => string;
  guardTitle: string;
  guardRound: string;
  guardVerdict: string;
  guardTime: string;
  guardChecks: string;
  checksTitle: string;
  passed: string;
  failed: string;
  noTurns: string;
  footer: (when: string | undefined) => string;
}

export const REPORT_TEXT: Readonly<Record<Locale, ReportText>> = {
  en: {
    lang: "en",
    summary: (steps, turns, cost, handoffs) =>
      `${steps} ${steps === 1 ? "step" : "steps"} · ${turns} ${turns === 1 ? "turn" : "turns"} · ${cost} · ${handoffs} ${handoffs === 1 ? "handoff" : "handoffs"}`,
    task: "Task",
    status: "Status",
    generations: "Generations",
    turns: "Turns",
    cost: "Cost",
    budget: "Run budget",
    spentOf: (spent, budget) => `${spent} of ${budget}`,
    handoffs: "Handoffs",
    spills: "Spills",
    denials: "Denials",
    peak: "Peak context",
    contextTitle: "Main-thread context per turn",
    contextCaption: (window) =>
      `Each point is one request of the main thread; the scale's top is the ${window} window. Vertical lines mark handoffs to a new generation.`,
    contextCaptionZoomed: (top, window) =>
      `Each point is one request of the main thread. The scale is zoomed to the data (top ${top}); the ${window} window and its lines are above it. Vertical lines mark handoffs to a new generation.`,
    stepsTitle: "Steps",
    documentsTitle: "Documents, as the steps read them",
    documentFrozenBy: (step) => `frozen by ${step}`,
    sectionChanged: "changed after it was frozen",
    goalChecksTitle: "The goal's checks, run by run",
    checkColumn: "Check",
    checkRun: (round) => (round === 0 ? "after the first session" : `after round ${round}`),
    log: "log",
    goalNotMet: "Goal not met",
    failingChecks: (failed, total) =>
      `${failed} of ${total} ${total === 1 ? "check" : "checks"} failed in the last run:`,
    prompt: "The prompt flower wrote for this step",
    atLine: (tokens) => `handoff at ${tokens}`,
    warnLine: (tokens) => `warn at ${tokens}`,
    handoffMarker: (generation, degraded) => `handoff ${generation}${degraded ? " (degraded)" : ""}`,
    generationBand: (generation) => `gen ${generation}`,
    turnAxis: "turn",
    pointTitle: (turn, generation, context, time) =>
      `turn ${turn} · generation ${generation} · ${context} tokens${time ? ` · ${time}` : ""}`,
    timeSpan: (from, to) => `From ${from} to ${to}`,
    generationTable: {
      caption: "Cost and turns per generation",
      generation: "Generation",
      turns: "Turns",
      cost: "Cost",
      peak: "Peak context",
      ended: "Ended in",
      handoffPath: "Handoff document",
      handoff: "handoff",
      degraded: "degraded handoff",
      running: "—",
      files: "Files changed",
      noFiles: "none",
      moreFiles: (rest) => `and ${rest} more`,
      checks: "Checks at handoff",
      checksCell: (passing, total, newly) =>
        `${passing}/${total} pass${newly > 0 ? ` (${newly} newly)` : " (none newly)"}`,
      driftPaused: (generations, at, measures) =>
        `Paused by the drift watch on ${at}: generations ${generations.join(", ")} ${noProgress(measures, "en")}.`,
      rewoundCaption: (at, to) =>
        `Rewound on ${at} (flower rewind): back to the start of generation ${to}. These generations are no longer the step's; their files were put back.`,
      rewound: "rewound",
    },
    work: {
      leftOut: "Left out of the checkpoints (a rewind cannot put them back):",
      tooLarge: (size) => ` (too large${size ? `, ${size}` : ""})`,
      nestedRepository: " (a repository of its own)",
      secret: (sign) =>
        ` (untracked, ${sign === "private-key" ? "holds a private key" : sign === "credential" ? "holds a credential flower uses" : "named like a secret"}: never carried, never in the branch)`,
      warning: "Checkpoint warning:",
    },
    saidTitle: "Said by a person",
    said: (by, at, generation, given) =>
      `${by} at ${at} (flower say), given to generation ${generation} at ${given}:`,
    activityTitle: "Spills and denials per turn",
    activityCaption:
      "Spills: long tool output written to disk instead of the context. Denials: hands-on calls of the main thread that the delegate guard turned away.",
    noActivity: "No spills and no denials in this step.",
    barTitle: (kind, turn, count) => `turn ${turn} · ${count} ${kind === "spill" ? "spilled" : "denied"}`,
    guardTitle: "Goal guard rounds",
    guardRound: "When",
    guardVerdict: "Verdict",
    guardTime: "Time",
    guardChecks: "Checks",
    checksTitle: "Checks",
    passed: "passed",
    failed: "failed",
    noTurns: "No turns recorded for this step.",
    footer: (when) => `Made by flower-agent${when ? ` on ${when}` : ""}. One file, no network.`,
  },
  zh: {
    lang: "zh",
    summary: (steps, turns, cost, handoffs) => `${steps} 步 · ${turns} 轮 · ${cost} · 换代 ${handoffs} 次`,
    task: "任务",
    status: "状态",
    generations: "代数",
    turns: "轮数",
    cost: "花费",
    budget: "运行预算",
    spentOf: (spent, budget) => `${budget} 已花 ${spent}`,
    handoffs: "换代",
    spills: "落盘",
    denials: "拒绝",
    peak: "上下文峰值",
    contextTitle: "主线程每轮的上下文",
    contextCaption: (window) => `每个点是主线程的一次请求;纵轴顶端是 ${window} 窗口。竖线标出换代。`,
    contextCaptionZoomed: (top, window) =>
      `每个点是主线程的一次请求。纵轴放大到数据(顶端 ${top});${window} 窗口和两条线在它上方。竖线标出换代。`,
    stepsTitle: "步骤",
    documentsTitle: "各步读到的文档",
    documentFrozenBy: (step) => `由 ${step} 冻结`,
    sectionChanged: "冻结后改过",
    goalChecksTitle: "目标的检查,逐次运行",
    checkColumn: "检查",
    checkRun: (round) => (round === 0 ? "第一个会话结束后" : `第 ${round} 轮之后`),
    log: "日志",
    goalNotMet: "目标未达成",
    failingChecks: (failed, total) => `最后一次运行中 ${total} 项检查有 ${failed} 项未通过:`,
    prompt: "flower 为这一步写的提示",
    atLine: (tokens) => `换代线 ${tokens}`,
    warnLine: (tokens) => `预警线 ${tokens}`,
    handoffMarker: (generation, degraded) => `换代 ${generation}${degraded ? "(降级)" : ""}`,
    generationBand: (generation) => `第 ${generation} 代`,
    turnAxis: "轮",
    pointTitle: (turn, generation, context, time) =>
      `第 ${turn} 轮 · 第 ${generation} 代 · ${context} token${time ? ` · ${time}` : ""}`,
    timeSpan: (from, to) => `从 ${from} 到 ${to}`,
    generationTable: {
      caption: "每代的花费和轮数",
      generation: "代",
      turns: "轮数",
      cost: "花费",
      peak: "上下文峰值",
      ended: "结束方式",
      handoffPath: "交接文档",
      handoff: "换代",
      degraded: "降级换代",
      running: "—",
      files: "改动的文件",
      noFiles: "无",
      moreFiles: (rest) => `还有 ${rest} 个`,
      checks: "交接时的检查",
      checksCell: (passing, total, newly) =>
        `${passing}/${total} 通过${newly > 0 ? `(新通过 ${newly})` : "(没有新通过的)"}`,
      driftPaused: (generations, at, measures) =>
        `${at} 被漂移看守停下:第 ${generations.join("、")} 代${noProgress(measures, "zh")}。`,
      rewoundCaption: (at, to) =>
        `${at} 回退(flower rewind)到第 ${to} 代开头。这几代已不算这一步的,它们改的文件已放回原样。`,
      rewound: "已回退",
    },
    work: {
      leftOut: "没进检查点的文件(回退放不回它们):",
      tooLarge: (size) => `(太大${size ? `,${size}` : ""})`,
      nestedRepository: "(自带 git 仓库)",
      secret: (sign) =>
        `(未跟踪,${sign === "private-key" ? "含私钥" : sign === "credential" ? "含 flower 用的凭据" : "名字像密钥文件"}:不会被带走,也不进分支)`,
      warning: "检查点警告:",
    },
    saidTitle: "人说的话",
    said: (by, at, generation, given) => `${by} 于 ${at} 说(flower say),${given} 交给第 ${generation} 代:`,
    activityTitle: "每轮的落盘和拒绝",
    activityCaption: "落盘:过长的工具输出写到磁盘,不进上下文。拒绝:主线程亲自动手的调用被委派守卫挡回。",
    noActivity: "这一步没有落盘,也没有拒绝。",
    barTitle: (kind, turn, count) => `第 ${turn} 轮 · ${kind === "spill" ? "落盘" : "拒绝"} ${count} 次`,
    guardTitle: "目标守卫的轮次",
    guardRound: "何时",
    guardVerdict: "结论",
    guardTime: "时间",
    guardChecks: "检查",
    checksTitle: "检查",
    passed: "通过",
    failed: "未通过",
    noTurns: "这一步没有记录到轮次。",
    footer: (when) => `由 flower-agent 生成${when ? `,${when}` : ""}。单个文件,不联网。`,
  },
};
