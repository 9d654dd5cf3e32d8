/**
 * The live view's words, per locale: the gauge, the handoff lines and one line per event. The lines
 * around a run (credentials, stop, continue hints) are in cli-text.ts.
 */
import { noProgress, type DriftMeasures } from "../../locale/drift-words.js";
import type { SettingName } from "../../events/flower-events.js";
import type { Locale } from "../../locale/locale.js";

export interface DisplayText {
  gauge: (context: string, window: string | null) => string;
  remaining: (tokens: string) => string;
  atLine: string;
  /** After the gauge, where a budget is set: the run's spend of it so far. */
  spentOfBudget: (spent: string, budget: string) => string;
  /**
   * The warning line crossed: the gauge reading (without its `# `), the mark first so that a narrow
   * terminal cuts the reading, not the mark. `unknown`: no context event
   * came first, so the reading does not say how far the handoff line is.
   */
  near: (reading: string, unknown: boolean) => string;
  writing: (context: string, window: string | null) => string;
  /** Followed by the path on a line of its own (paths are never cut). */
  writtenTo: string;
  notWritten: string;
  /** What the successor starts from: the handoff, not the context the old session had (`context`). */
  restart: (context: string) => string;
  /** On a TTY's status line while nothing has changed for a moment: for how long (`12s`). */
  waiting: (elapsed: string) => string;
  degraded: (why: string) => string;
  /** A handoff the session wrote except these sections (their headings), which flower filled in. */
  partial: (headings: string[]) => string;
  joiner: string;
  stepStart: (step: string, details: string[]) => string;
  attempt: (n: number) => string;
  generation: (n: number) => string;
  resume: (id: string) => string;
  stepEnd: (
    step: string,
    status: "done" | "failed" | "stopped" | "goal-not-met" | "budget-reached",
    details: string[],
  ) => string;
  turns: (n: number) => string;
  generations: (n: number) => string;
  retry: (step: string, attempt: number, max: number, reason: string) => string;
  /** A stop cut the reply in flight after waiting for it. */
  replyCut: (seconds: number) => string;
  /** Heads the child's stderr lines under -v. */
  claudeStderr: string;
  leaseWait: (step: string, pid: number, host: string) => string;
  /** `flower handoff` reached this driver: who asked, and their words (null: none). */
  handoffRequest: (step: string, by: string, next: string | null) => string;
  /** A person's message (flower say) went to the main thread at a boundary. */
  personMessage: (step: string, by: string, text: string) => string;
  /** A continued step does not keep a setting it was started with: `window 90K as started → 200K (--window)`. */
  override: (setting: string, recorded: string, now: string, by: string) => string;
  settingNames: Record<SettingName, string>;
  /** How a setting's value reads: on/off, no budget, no model named. */
  settingValues: { on: string; off: string; none: string; defaultModel: string };
  coordinator: string;
  agentStart: (agent: string, description: string) => string;
  agentEnd: (agent: string) => string;
  denied: (tool: string, command: string, reason: string) => string;
  /** Followed by the path on a line of its own. */
  spill: (tool: string, chars: string) => string;
  storeLoad: (session: string, parts: string[]) => string;
  storeParts: Record<
    "expired" | "trimmed" | "prunedDenials" | "prunedApiErrors" | "interrupted",
    (n: number) => string
  >;
  saved: (chars: string) => string;
  /** The goal guard's lines, from here to `reviewNotMet`: checks, guard rounds, claims, the reviewer. */
  goalChecks: (passed: number, total: number) => string;
  /** Followed by the log's path on a line of its own. */
  checkFailed: (index: number, command: string, reason: string) => string;
  sentBack: (cause: "checks" | "review") => string;
  /** A guard round of a goal without checks (reviewer only). */
  guardRound: (round: number, rounds: number) => string;
  claimFlagged: (agent: string | null, excerpt: string) => string;
  review: (
    outcome: "met" | "not-met" | "degraded",
    met: number,
    notMet: number,
    cannotTell: number,
  ) => string;
  reviewNotMet: (criterion: string) => string;
  /** A workflow step begins: which of how many, and its name. */
  workflowStep: (index: number, total: number, name: string) => string;
  /** A step's document was frozen; followed by the path on a line of its own. */
  frozen: (document: string) => string;
  /** The document's answer was unusable: a mechanical one was frozen instead, and the run goes on. */
  frozenDegraded: (document: string, why: string) => string;
  /** A skipped step (frozen or done before: never redone) and a continued one. */
  stepSkipped: string;
  stepResumed: string;
  /** Display names of the default workflow's steps; another step shows its own name. */
  stepNames: Record<string, string>;
  /** After the first names of a list of files: how many more. */
  moreFiles: (rest: number) => string;
  /** The run's files were brought to its last checkpoint as the step goes on: `parts` say what moved. */
  workRestored: (parts: string[]) => string;
  restoredFiles: (count: number, list: string) => string;
  /** Files that differ from the checkpoint and were left as they are (the person's checkout). */
  keptFiles: (count: number, list: string) => string;
  /** Checkpoints dropped because the transcript lacks their calls' results. */
  droppedCheckpoints: (count: number) => string;
  /** A checkpoint that could not be taken or stored (the run goes on). */
  workWarning: (message: string) => string;
  /** Where the run stood at a handoff: "3/5 checks pass (+1 new) · 4 files changed". */
  progress: (generation: number, parts: string[]) => string;
  progressChecks: (passing: number, total: number, newly: number) => string;
  progressFiles: (files: number) => string;
  /** The drift watch paused the step: its evidence, then the handoff to read and how to go on. */
  driftPause: (generations: number, measures: DriftMeasures) => string;
  driftHandoff: (path: string) => string;
  /** Under -v: a checkpoint that changed files (`tool`: the main-thread call it followed). */
  checkpoint: (count: number, list: string, tool: string | null) => string;
}

export const DISPLAY_TEXT: Record<Locale, DisplayText> = {
  zh: {
    gauge: (context, window) => `# 上下文 ${context}${window ? `/${window}` : ""}`,
    remaining: (tokens) => ` · 还有约 ${tokens} 到换代`,
    atLine: " · 已到换代线",
    spentOfBudget: (spent, budget) => ` · 预算 ${budget} 已花 ${spent}`,
    near: (reading, unknown) => `! 已过预警线 · ${reading}${unknown ? " · 快到换代线" : ""}`,
    writing: (context, window) => `# 上下文 ${context}${window ? `/${window}` : ""} —— 写交接准备换代`,
    writtenTo: "<- 交接写在:",
    notWritten: "<- 没有工作台,交接没落盘,只经 prompt 交给接手者",
    restart: (context) => `<- 新会话只从交接开始,不带旧的 ${context} 上下文`,
    waiting: (elapsed) => `等待 ${elapsed}`,
    degraded: (why) => `!! 交接降级${why ? `(${why})` : ""} —— 接手者拿到的是残缺件,会自己去现场看`,
    partial: (headings) =>
      `!! 交接部分降级:${headings.map((h) => `"${h}"`).join("、")}留空或没写实,由 flower 机械补上;其余各段是会话的原话`,
    joiner: ";",
    stepStart: (step, details) => `=> 开始 ${step}${details.map((d) => ` · ${d}`).join("")}`,
    attempt: (n) => `第 ${n} 次尝试`,
    generation: (n) => `第 ${n} 代`,
    resume: (id) => `接续会话 ${id}`,
    stepEnd: (step, status, details) =>
      `<= ${{ done: "完成", failed: "失败", stopped: "已停下", "goal-not-met": "目标未达成", "budget-reached": "预算用完" }[status]} ${step}${details.map((d) => ` · ${d}`).join("")}`,
    turns: (n) => `${n} 轮`,
    generations: (n) => `${n} 代`,
    claudeStderr: "   claude 的 stderr(最后几行):",
    retry: (step, attempt, max, reason) => `!! ${step} 第 ${attempt}/${max} 次尝试失败:${reason} —— 重试`,
    replyCut: (seconds) => `!  正在路上的回复等了 ${seconds} 秒还没到,已截断(停下最多等这么久)`,
    leaseWait: (step, pid, host) => `.. ${step} 正由 ${host} 上的进程 ${pid} 驱动,等它结束`,
    handoffRequest: (step, by, next) =>
      `>> ${step}:${by} 用 flower handoff 要求交接${next ? `,下一步:${next}` : ""}`,
    personMessage: (step, by, text) => `>> ${step}:${by} 说(flower say,已交给主线程):${text}`,
    override: (setting, recorded, now, by) => `${setting} ${recorded}(启动时)→ ${now}(${by})`,
    settingNames: {
      model: "模型",
      window: "窗口",
      handoff: "换代",
      headroom: "余量",
      rule: "换代规则",
      driftAfter: "漂移看守",
      maxBudgetUsd: "每会话预算",
      budgetUsd: "预算",
      review: "评审",
      locale: "语言",
    },
    settingValues: { on: "开", off: "关", none: "无", defaultModel: "默认" },
    coordinator: "协调者",
    agentStart: (agent, description) => `-> ${agent} 开工${description ? `:${description}` : ""}`,
    agentEnd: (agent) => `<- ${agent} 交活`,
    denied: (tool, command, reason) =>
      `x  拒绝 ${tool}${command ? ` ${command}` : ""}${reason ? ` —— ${reason}` : ""}`,
    spill: (tool, chars) => `   ${tool} 输出 ${chars} 字符落盘到:`,
    storeLoad: (session, parts) => `   载入会话 ${session}:${parts.join(" · ")}`,
    storeParts: {
      expired: (n) => `过期 ${n}`,
      trimmed: (n) => `裁剪 ${n}`,
      prunedDenials: (n) => `剪除拒绝 ${n}`,
      prunedApiErrors: (n) => `丢弃 API 错误 ${n}`,
      interrupted: (n) => `中断 ${n}`,
    },
    saved: (chars) => `省下 ${chars} 字符`,
    goalChecks: (passed, total) =>
      passed === total
        ? `ok 目标检查 ${total} 项全部通过`
        : `!! 目标检查:${total} 项中 ${total - passed} 项未通过`,
    checkFailed: (index, command, reason) => `   x ${index}. ${command} —— ${reason};日志:`,
    sentBack: (cause) => (cause === "checks" ? " —— 带着证据退回继续做" : " —— 评审有标准未满足,退回继续做"),
    guardRound: (round, rounds) => `守门第 ${round}/${rounds} 轮`,
    claimFlagged: (agent, excerpt) => `?  ${agent ?? "子代理"} 的汇报声称成功却没有证据:“${excerpt}”`,
    review: (outcome, met, notMet, cannotTell) =>
      `${outcome === "met" ? "ok" : "!!"} 评审:${
        outcome === "degraded"
          ? "结论读不出来,不算通过"
          : `满足 ${met} · 未满足 ${notMet} · 无法判断 ${cannotTell}`
      }`,
    reviewNotMet: (criterion) => `   x ${criterion}`,
    workflowStep: (index, total, name) => `== 第 ${index}/${total} 步 · ${name}`,
    frozen: (document) => `<- ${document}冻结在:`,
    frozenDegraded: (document, why) =>
      `!! ${document}降级${why ? `(${why})` : ""} —— 冻结的是残缺件,运行照常往下走`,
    stepSkipped: "已冻结,不重做",
    stepResumed: "接着做",
    stepNames: { requirements: "需求确认", goal: "目标", work: "干活" },
    moreFiles: (rest) => `,还有 ${rest} 个`,
    workRestored: (parts) => `<- 文件回到上一个检查点:${parts.join(" · ")}`,
    restoredFiles: (count, list) => `放回 ${count} 个(${list})`,
    keptFiles: (count, list) => `${count} 个保持原样(${list})`,
    droppedCheckpoints: (count) => `丢弃 ${count} 个会话里没有结果的检查点`,
    workWarning: (message) => `!  检查点:${message}`,
    progress: (generation, parts) => `.. 第 ${generation} 代交接时:${parts.join(" · ")}`,
    progressChecks: (passing, total, newly) =>
      `检查 ${passing}/${total} 通过${newly > 0 ? `(新通过 ${newly})` : "(没有新通过的)"}`,
    progressFiles: (files) => `改了 ${files} 个文件`,
    driftPause: (generations, measures) =>
      `!! 连续 ${generations} 代${noProgress(measures, "zh")}:在这次交接处停下,等人看一眼,新会话还没开始。`,
    driftHandoff: (path) => `   交接书(继续前可以修改): ${path}`,
    checkpoint: (count, list, tool) => `   检查点:${count} 个文件(${list})${tool ? ` · ${tool} 之后` : ""}`,
  },
  en: {
    gauge: (context, window) => `# context ${context}${window ? `/${window}` : ""}`,
    remaining: (tokens) => ` · about ${tokens} until handoff`,
    atLine: " · at the handoff line",
    spentOfBudget: (spent, budget) => ` · spent ${spent} of ${budget} budget`,
    near: (reading, unknown) =>
      `! warning line crossed · ${reading}${unknown ? " · the handoff is near" : ""}`,
    writing: (context, window) =>
      `# context ${context}${window ? `/${window}` : ""} — writing the handoff for the next session`,
    writtenTo: "<- handoff written to:",
    notWritten: "<- no workbench: the handoff went only into the prompt, not to disk",
    restart: (context) => `<- new session starts from the handoff, not from ${context}`,
    waiting: (elapsed) => `waiting ${elapsed}`,
    degraded: (why) =>
      `!! handoff degraded${why ? ` (${why})` : ""} — the successor gets an incomplete one and will look at the scene itself`,
    partial: (headings) =>
      `!! handoff partly mechanical: ${headings.map((h) => `"${h}"`).join(" and ")} left empty or hollow, filled in by flower; the other sections are the session's own`,
    joiner: "; ",
    stepStart: (step, details) => `=> start ${step}${details.map((d) => ` · ${d}`).join("")}`,
    attempt: (n) => `attempt ${n}`,
    generation: (n) => `generation ${n}`,
    resume: (id) => `resuming ${id}`,
    stepEnd: (step, status, details) => `<= ${status} ${step}${details.map((d) => ` · ${d}`).join("")}`,
    turns: (n) => `${n} turn${n === 1 ? "" : "s"}`,
    generations: (n) => `${n} generations`,
    claudeStderr: "   claude's stderr (last lines):",
    retry: (step, attempt, max, reason) =>
      `!! ${step} attempt ${attempt}/${max} failed: ${reason} — retrying`,
    replyCut: (seconds) =>
      `!  the reply in flight was cut: it had not come after ${seconds} s, as long as a stop waits for it`,
    leaseWait: (step, pid, host) => `.. ${step} is driven by pid ${pid} on ${host}; waiting for it to finish`,
    handoffRequest: (step, by, next) =>
      `>> ${step}: ${by} asked for a handoff (flower handoff)${next ? `; next: ${next}` : ""}`,
    personMessage: (step, by, text) =>
      `>> ${step}: ${by} said (flower say, given to the main thread): ${text}`,
    override: (setting, recorded, now, by) => `${setting} ${recorded} as started → ${now} (${by})`,
    settingNames: {
      model: "model",
      window: "window",
      handoff: "handoff",
      headroom: "headroom",
      rule: "handoff rule",
      driftAfter: "drift watch",
      maxBudgetUsd: "session budget",
      budgetUsd: "budget",
      review: "review",
      locale: "language",
    },
    settingValues: { on: "on", off: "off", none: "none", defaultModel: "default" },
    coordinator: "coordinator",
    agentStart: (agent, description) => `-> ${agent} started${description ? `: ${description}` : ""}`,
    agentEnd: (agent) => `<- ${agent} done`,
    denied: (tool, command, reason) =>
      `x  denied ${tool}${command ? ` ${command}` : ""}${reason ? ` — ${reason}` : ""}`,
    spill: (tool, chars) => `   ${tool} output of ${chars} chars spilled to:`,
    storeLoad: (session, parts) => `   loaded session ${session}: ${parts.join(" · ")}`,
    storeParts: {
      expired: (n) => `expired ${n}`,
      trimmed: (n) => `trimmed ${n}`,
      prunedDenials: (n) => `denials pruned ${n}`,
      prunedApiErrors: (n) => `API errors dropped ${n}`,
      interrupted: (n) => `interrupted ${n}`,
    },
    saved: (chars) => `saved ${chars} chars`,
    goalChecks: (passed, total) =>
      passed === total
        ? `ok goal checks: all ${total} pass`
        : `!! goal checks: ${total - passed} of ${total} failing`,
    checkFailed: (index, command, reason) => `   x ${index}. ${command} — ${reason}; log:`,
    sentBack: (cause) =>
      cause === "checks"
        ? " — sent back with the evidence"
        : " — the reviewer found criteria not met; sent back",
    guardRound: (round, rounds) => `guard round ${round}/${rounds}`,
    claimFlagged: (agent, excerpt) =>
      `?  ${agent ?? "a subagent"} claims success without evidence: "${excerpt}"`,
    review: (outcome, met, notMet, cannotTell) =>
      `${outcome === "met" ? "ok" : "!!"} review: ${
        outcome === "degraded"
          ? "the verdict could not be read; it does not count as a pass"
          : `met ${met} · not met ${notMet} · cannot tell ${cannotTell}`
      }`,
    reviewNotMet: (criterion) => `   x ${criterion}`,
    workflowStep: (index, total, name) => `== step ${index}/${total} · ${name}`,
    frozen: (document) => `<- ${document} frozen to:`,
    frozenDegraded: (document, why) =>
      `!! ${document} degraded${why ? ` (${why})` : ""} — an incomplete one was frozen; the run goes on`,
    stepSkipped: "already done, not redone",
    stepResumed: "continued",
    stepNames: { requirements: "requirements", goal: "goal", work: "work" },
    moreFiles: (rest) => ` and ${rest} more`,
    workRestored: (parts) => `<- files brought to the last checkpoint: ${parts.join(" · ")}`,
    restoredFiles: (count, list) => `${count} put back (${list})`,
    keptFiles: (count, list) => `${count} kept as they were (${list})`,
    droppedCheckpoints: (count) =>
      `${count} checkpoint${count === 1 ? "" : "s"} dropped (their calls' results are not in the session)`,
    workWarning: (message) => `!  checkpoints: ${message}`,
    progress: (generation, parts) => `.. at generation ${generation}'s handoff: ${parts.join(" · ")}`,
    progressChecks: (passing, total, newly) =>
      `${passing}/${total} checks pass${newly > 0 ? ` (${newly} newly)` : " (none newly)"}`,
    progressFiles: (files) => `${files} ${files === 1 ? "file" : "files"} changed`,
    driftPause: (generations, measures) =>
      `!! ${generations} generations in a row ${noProgress(measures, "en")}: paused at this handoff for a person, the next session not started.`,
    driftHandoff: (path) => `   the handoff (edit it before you continue): ${path}`,
    checkpoint: (count, list, tool) =>
      `   checkpoint: ${count} file${count === 1 ? "" : "s"} (${list})${tool ? ` · after ${tool}` : ""}`,
  },
};
