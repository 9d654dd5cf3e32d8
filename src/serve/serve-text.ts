/** The live page's words, en and zh (the page script gets them as JSON, so it holds no language). */
import type { Locale } from "../locale/locale.js";
import { STATUS_WORDS } from "../locale/status-words.js";

export interface ServeText {
  lang: string;
  title: string;
  /** Under the title: where the runs are read from. */
  source: string;
  live: string;
  reconnecting: string;
  noRuns: string;
  columns: {
    run: string;
    status: string;
    step: string;
    machine: string;
    context: string;
    generations: string;
    cost: string;
    checks: string;
    actions: string;
  };
  report: string;
  approve: string;
  cancel: string;
  /** The field that tells a run something (flower say): its button, placeholder and label. */
  say: string;
  sayPlaceholder: string;
  sayLabel: (run: string) => string;
  /** A message was left: `Say: fix-it: given at the next boundary.` */
  said: (action: string, run: string) => string;
  /**
   * Under the generations: `gen 2: a.ts, b.ts and 3 more` (a workflow step's name first). Numbers come
   * as the script writes them, so these only place them.
   */
  generationShort: (generation: string) => string;
  generationFiles: (label: string, files: string) => string;
  moreFiles: (rest: string) => string;
  /** Before them: how many earlier generations are not listed (the report lists them). */
  earlierGenerations: (count: string) => string;
  /** After a run's cost, where it has a budget: `of $0.50`. */
  ofBudget: (budget: string) => string;
  /** A generation that changed no file (listed for its checks at the handoff). */
  noFiles: string;
  /** After its files: the goal's checks run at the generation's handoff, and how many newly pass. */
  generationChecks: (passing: string, total: string) => string;
  newlyPassing: (count: string) => string;
  /** The gauge's words: `120k / 200k, handoff at 180k`. */
  gauge: (context: string, window: string, at: string) => string;
  /** An action's answer. */
  done: (action: string, run: string) => string;
  refused: (action: string, run: string, why: string) => string;
  readOnly: string;
  status: Record<string, string>;
}

export const SERVE_TEXT: Record<Locale, ServeText> = {
  en: {
    lang: "en",
    title: "flower runs",
    source: "Runs in",
    live: "live",
    reconnecting: "reconnecting…",
    noRuns: "No runs yet.",
    columns: {
      run: "Run",
      status: "Status",
      step: "Step",
      machine: "Machine",
      context: "Context",
      generations: "Gen.",
      cost: "Cost",
      checks: "Goal checks",
      actions: "Actions",
    },
    report: "report",
    approve: "Approve",
    cancel: "Cancel",
    say: "Say",
    sayPlaceholder: "Tell the run…",
    sayLabel: (run) => `A message to ${run} (flower say)`,
    said: (action, run) =>
      `${action}: ${run}: its main thread gets it at the next message boundary (or its next session).`,
    generationShort: (generation) => `gen ${generation}`,
    generationFiles: (label, files) => `${label}: ${files}`,
    moreFiles: (rest) => `and ${rest} more`,
    earlierGenerations: (count) => `${count} earlier generations (see the report)`,
    noFiles: "no files changed",
    ofBudget: (budget) => `of ${budget}`,
    generationChecks: (passing, total) => `checks ${passing}/${total}`,
    newlyPassing: (count) => `+${count} newly`,
    gauge: (context, window, at) => `${context} / ${window}, handoff at ${at}`,
    done: (action, run) => `${action}: ${run}: done.`,
    refused: (action, run, why) => `${action}: ${run}: refused (${why}).`,
    readOnly: "Read-only: start with --allow-actions to approve or cancel runs here.",
    status: STATUS_WORDS.en,
  },
  zh: {
    lang: "zh-CN",
    title: "flower 运行",
    source: "运行记录在",
    live: "实时",
    reconnecting: "正在重连…",
    noRuns: "还没有运行。",
    columns: {
      run: "运行",
      status: "状态",
      step: "步骤",
      machine: "机器",
      context: "上下文",
      generations: "代数",
      cost: "花费",
      checks: "目标检查",
      actions: "操作",
    },
    report: "报告",
    approve: "批准",
    cancel: "取消",
    say: "说",
    sayPlaceholder: "对这次运行说…",
    sayLabel: (run) => `对 ${run} 说的话(flower say)`,
    said: (action, run) => `${action}:${run}:主线程会在下一个消息边界收到(或在它的下一个会话)。`,
    generationShort: (generation) => `第 ${generation} 代`,
    generationFiles: (label, files) => `${label}:${files}`,
    moreFiles: (rest) => `还有 ${rest} 个`,
    earlierGenerations: (count) => `更早还有 ${count} 代(见报告)`,
    noFiles: "没改文件",
    ofBudget: (budget) => `/ 预算 ${budget}`,
    generationChecks: (passing, total) => `检查 ${passing}/${total}`,
    newlyPassing: (count) => `新通过 ${count}`,
    gauge: (context, window, at) => `${context} / ${window},换代线 ${at}`,
    done: (action, run) => `${action}:${run}:已完成。`,
    refused: (action, run, why) => `${action}:${run}:被拒绝(${why})。`,
    readOnly: "只读:用 --allow-actions 启动才能在这里批准或取消运行。",
    status: STATUS_WORDS.zh,
  },
};

/** The words the script needs, as plain data (the script fills in the lines' {0} {1} {2}). */
export function pageWords(locale: Locale): Record<string, unknown> {
  const text = SERVE_TEXT[locale];
  return {
    ...text,
    gauge: text.gauge("{0}", "{1}", "{2}"),
    generationShort: text.generationShort("{0}"),
    generationFiles: text.generationFiles("{0}", "{1}"),
    moreFiles: text.moreFiles("{0}"),
    earlierGenerations: text.earlierGenerations("{0}"),
    generationChecks: text.generationChecks("{0}", "{1}"),
    newlyPassing: text.newlyPassing("{0}"),
    ofBudget: text.ofBudget("{0}"),
    done: text.done("{0}", "{1}"),
    said: text.said("{0}", "{1}"),
    sayLabel: text.sayLabel("{0}"),
    refused: text.refused("{0}", "{1}", "{2}"),
  };
}
