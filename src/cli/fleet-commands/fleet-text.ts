/**
 * The words of the fleet's commands (`flower submit|worker|approve|cancel`, and the fleet's statuses in
 * `flower runs --store`), per locale. Apart from cli-text.ts so the fleet's lines stay in one place.
 */
import { typed } from "../../locale/invocation.js";
import type { Locale } from "../../locale/locale.js";
import { STATUS_WORDS } from "../../locale/status-words.js";
import { FLEET_STATUSES, type FleetStatus } from "../../records/fleet-run.js";

/** A fleet run's status words (locale/status-words.ts: `flower runs` and the live page share them). */
function fleetStatus(locale: Locale): Record<FleetStatus, string> {
  return Object.fromEntries(FLEET_STATUSES.map((status) => [status, STATUS_WORDS[locale][status]])) as Record<
    FleetStatus,
    string
  >;
}

export interface FleetText {
  status: Record<FleetStatus, string>;
  /** What to do about a fleet run in this status, a line under `flower runs --store`'s table. */
  statusHint: Partial<Record<FleetStatus, string>>;
  needsStore: (command: string) => string;
  oneRun: (command: string) => string;
  oneTask: (count: number) => string;
  concurrency: (text: string) => string;
  approved: (run: string) => string;
  cancelled: (run: string) => string;
  cancelAsked: (run: string, where: string) => string;
  workerStarted: (who: string, where: string, concurrency: number) => string;
  workerStopping: string;
  workerStopped: (who: string) => string;
  taken: (run: string) => string;
  step: (run: string, step: string, resumed: boolean) => string;
  ended: (run: string, status: string, error?: string) => string;
  paused: (run: string, approve: string) => string;
  /** A run paused for another reason than its requirements (the drift watch): that reason, in one line. */
  pausedWhy: (run: string, why: string, approve: string) => string;
  released: (run: string) => string;
  lost: (run: string) => string;
  takenBack: (run: string, who: string) => string;
  storeTrouble: (message: string) => string;
  /** The run's own working tree: made now, or found again from an earlier drive here. */
  workspace: (run: string, path: string, created: boolean, commit: string | null) => string;
  setup: (run: string, line: string) => string;
  /** The run's files came back to its last checkpoint the transcript has (from the store, a kill). */
  restored: (run: string, files: number, kept: number, dropped: number) => string;
  workWarning: (run: string, message: string) => string;
  /** Why a fleet run failed, under `flower runs`. */
  failedWhy: (run: string, error: string) => string;
  /** The fleet's budget for the UTC day is spent: no run is started until the next day. */
  daySpent: (spent: string, budget: string, day: string) => string;
  /** Submit: untracked files that look like secrets stayed in the checkout. */
  submitLeftOut: (files: string) => string;
  /** Submit: files that look like secrets went along, as flower.json's carry asks. */
  submitCarried: (files: string) => string;
  /** Worker: files that look like secrets are not in the run's checkpoints (said once per run). */
  leftOutSecrets: (run: string, files: string) => string;
}

export const FLEET_TEXT: Record<Locale, FleetText> = {
  en: {
    status: fleetStatus("en"),
    // Getters: each names its command as the person's shell reaches flower (locale/invocation.ts).
    statusHint: {
      get queued() {
        return `waiting for a worker: ${typed("worker --store …")} takes it`;
      },
      get paused() {
        return `waiting for you to read its frozen document; ${typed("approve <run> --store …")} lets a worker go on`;
      },
      get "goal-not-met"() {
        return `the goal's checks or reviewer said no; ${typed("show <run> --store …")} lists the evidence`;
      },
      get "budget-reached"() {
        return `it spent its budget (or the fleet's for the day); ${typed("continue <run> --store … --budget <more>")} goes on`;
      },
    },
    needsStore: (command) =>
      `flower ${command}: a fleet needs a shared store: --store postgres://user:password@host:port/database (or FLOWER_STORE)`,
    oneRun: (command) => `flower ${command}: name one run (see ${typed("runs --store …")})`,
    oneTask: (count) => `flower submit: give the task as one quoted argument, got ${count} words`,
    concurrency: (text) => `flower worker: --concurrency must be an integer >= 1, got "${text}"`,
    approved: (run) => `approved ${run}: back in the queue, a worker goes on with it`,
    cancelled: (run) => `cancelled ${run}`,
    cancelAsked: (run, where) => `cancel asked: ${run} stops at its next message boundary (${where})`,
    workerStarted: (who, where, concurrency) =>
      `worker ${who} takes runs from ${where}, ${concurrency} at a time; Ctrl-C gives them back and stops`,
    workerStopping: "stopping: each run stops at its next message boundary and goes back to the queue",
    workspace: (run, path, created, commit) =>
      `${run}: ${created ? "works in" : "works again in"} ${path}${commit ? ` (a worktree at ${commit.slice(0, 10)})` : " (a copy)"}`,
    setup: (run, line) => `${run}: setup: ${line}`,
    restored: (run, files, kept, dropped) =>
      `${run}: its files are as its last checkpoint${dropped > 0 ? ` (${dropped} of a cut call dropped)` : ""}: ${files} ${files === 1 ? "file" : "files"} put back${kept > 0 ? `, ${kept} kept as they were` : ""}`,
    workWarning: (run, message) => `${run}: ${message}`,
    failedWhy: (run, error) => `${run} failed: ${error}`,
    workerStopped: (who) => `worker ${who} stopped`,
    taken: (run) => `${run}: taken`,
    step: (run, step, resumed) => `${run}: ${step}${resumed ? " (continued)" : ""}`,
    ended: (run, status, error) => `${run}: ${status}${error ? ` (${error})` : ""}`,
    paused: (run, approve) => `${run}: paused after its requirements; go on with: ${approve}`,
    pausedWhy: (run, why, approve) => `${run}: ${why}; go on with: ${approve}`,
    released: (run) => `${run}: given back to the queue`,
    lost: (run) => `${run}: taken from this worker (it was presumed dead); its new holder goes on`,
    takenBack: (run, who) => `${run}: its worker ${who} is gone; back in the queue`,
    storeTrouble: (message) => `flower worker: ${message} (trying again)`,
    daySpent: (spent, budget, day) =>
      `the fleet's budget for ${day} (UTC) is spent: ${spent} of ${budget}; runs stay queued until the next day (or a worker with a higher --budget-per-day)`,
    submitLeftOut: (files) =>
      `flower submit: left out, they look like secrets (untracked here): ${files}; not sent to the store or any worker. To send them, name them in flower.json: { "carry": [...] }`,
    submitCarried: (files) =>
      `flower submit: carried, as flower.json's "carry" asks, though they look like secrets: ${files}`,
    leftOutSecrets: (run, files) =>
      `${run}: left out of its checkpoints, they look like secrets: ${files} (untracked; flower.json's "carry" names files to bring)`,
  },
  zh: {
    status: fleetStatus("zh"),
    statusHint: {
      get queued() {
        return `等待 worker:${typed("worker --store …")} 会接手`;
      },
      get paused() {
        return `等你读它冻结的文件;${typed("approve <运行> --store …")} 让 worker 接着做`;
      },
      get "goal-not-met"() {
        return `目标的检查或评审说不行;${typed("show <运行> --store …")} 列出证据`;
      },
      get "budget-reached"() {
        return `预算(或车队当天的预算)用完了;${typed("continue <运行> --store … --budget <更多>")} 接着走`;
      },
    },
    needsStore: (command) =>
      `flower ${command}: 车队需要共用存储:--store postgres://用户:密码@主机:端口/数据库(或 FLOWER_STORE)`,
    oneRun: (command) => `flower ${command}: 请给一个运行的名字(见 ${typed("runs --store …")})`,
    oneTask: (count) => `flower submit: 任务请作为一个带引号的参数给出,收到 ${count} 个词`,
    concurrency: (text) => `flower worker: --concurrency 必须是 >= 1 的整数,收到 "${text}"`,
    approved: (run) => `已批准 ${run}:回到队列,由 worker 接着做`,
    cancelled: (run) => `已取消 ${run}`,
    cancelAsked: (run, where) => `已请求取消:${run} 在下一个消息边界停下(${where})`,
    workerStarted: (who, where, concurrency) =>
      `worker ${who} 从 ${where} 取运行,同时 ${concurrency} 个;Ctrl-C 交回并停下`,
    workerStopping: "正在停下:每个运行在下一个消息边界停下并回到队列",
    workspace: (run, path, created, commit) =>
      `${run}:${created ? "在" : "继续在"} ${path} 里做${commit ? `(${commit.slice(0, 10)} 处的 worktree)` : "(一份拷贝)"}`,
    setup: (run, line) => `${run}:setup:${line}`,
    restored: (run, files, kept, dropped) =>
      `${run}:文件已回到最后一个检查点${dropped > 0 ? `(丢弃了被中断调用的 ${dropped} 个)` : ""}:恢复 ${files} 个${kept > 0 ? `,${kept} 个保持原样` : ""}`,
    workWarning: (run, message) => `${run}:${message}`,
    failedWhy: (run, error) => `${run} 失败了:${error}`,
    workerStopped: (who) => `worker ${who} 已停下`,
    taken: (run) => `${run}:已接手`,
    step: (run, step, resumed) => `${run}:${step}${resumed ? "(接着做)" : ""}`,
    ended: (run, status, error) => `${run}:${status}${error ? `(${error})` : ""}`,
    paused: (run, approve) => `${run}:需求之后暂停;继续请用:${approve}`,
    pausedWhy: (run, why, approve) => `${run}:${why};继续请用:${approve}`,
    released: (run) => `${run}:已交回队列`,
    lost: (run) => `${run}:已被别的 worker 接走(本 worker 被认为已死);由新的持有者接着做`,
    takenBack: (run, who) => `${run}:它的 worker ${who} 已不在;回到队列`,
    storeTrouble: (message) => `flower worker: ${message}(重试中)`,
    daySpent: (spent, budget, day) =>
      `车队 ${day}(UTC)的预算已用完:${spent},预算 ${budget};运行留在队列里等到第二天(或换一个 --budget-per-day 更高的 worker)`,
    submitLeftOut: (files) =>
      `flower submit: 这些文件像密钥(这里未跟踪),没有带上:${files};不进共用存储,也不到任何 worker。要带上,在 flower.json 里写 { "carry": [...] }`,
    submitCarried: (files) => `flower submit: 按 flower.json 的 "carry" 带上了,虽然它们像密钥:${files}`,
    leftOutSecrets: (run, files) =>
      `${run}:这些文件像密钥,没进检查点:${files}(未跟踪;flower.json 的 "carry" 可以点名带上)`,
  },
};
