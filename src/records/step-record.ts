/**
 * What `rt.run()` returns, and what the run record keeps per step (`manifest.json` and the store).
 *
 * One writer: a `StepRecord` is changed only by `StepRun` (runtime/drive/step-run.ts), which folds in the events
 * and outcomes everything else reports. Everyone else reads copies.
 */
import type { FrozenDocumentRecord, ReadDocumentRecord } from "./frozen-document-record.js";
import type { PlanItem } from "../handoff/plan.js";
import type { HandoffRule } from "../handoff/policy.js";
import type { HandoffSectionName } from "../handoff-sections.js";
import type { RewriteReport } from "../session-layers/passes/rewrite-report.js";
import type { GuardRecord } from "./guard-record.js";
import type { Locale } from "../locale/locale.js";
import type { DriftMeasures } from "../locale/drift-words.js";
import type { LeftOut } from "../checkpoints/shadow-repo.js";

export interface StepResult {
  step: string;
  /**
   * How the step ended: "done", "stopped", "goal-not-met" (the goal's checks still failed after the
   * last guard round, or the reviewer's verdict could not be read; see `guard`), or "budget-reached"
   * (the run's budget was spent: stopped at a boundary, continuable with a higher one). A failed step throws
   * StepFailedError instead of returning.
   */
  status: StepStatus;
  /** Always the last successor: the session a later process should resume. */
  sessionId: string | null;
  /** Failed attempts only. Handoffs never count. */
  attempts: number;
  /** Session ids burned by handoffs, in order. */
  retired: string[];
  /** The main thread's context in its last turn (tokens). */
  context: number;
  /** Summed over retries and generations. */
  costUsd: number;
  /** Model round trips, summed over retries and generations. */
  numTurns: number;
  /** Why attempts failed and why handoffs degraded (`交接降级(...)`). */
  errors: string[];
  /** Sessions used: 1 + number of handoffs. */
  generations: number;
  /** Frozen handoff files, in order (none without a workbench). */
  handoffs: string[];
  /** How many handoffs were degraded. */
  degraded: number;
  /** Tool outputs the spill guard moved to disk, and their total size. */
  spills: number;
  spilledChars: number;
  /** Main-thread calls the delegate guard denied. */
  denials: number;
  /** The final answer of the last session. */
  result: string | null;
  /** The goal guard's evidence: only for a step run with the `goal` option. */
  guard?: GuardRecord;
  /** The workflow run this step belongs to; absent for a step run on its own (`--direct`). */
  run?: string;
  /** The document this step ended with (`freeze`): path, kind, degraded and why. Absent without one. */
  frozen?: FrozenDocumentRecord;
}

/** Where a step sits in a workflow run: enough for `continueWorkflow` in another process. */
export interface WorkflowMembership {
  /** The run id (groups the steps; names the frozen files). */
  run: string;
  /** The step's name in the workflow (`requirements`, `goal`, `work`). */
  name: string;
  /** The task the run was started with, as typed. */
  task: string;
  /**
   * The run's work is judged by the goal guard's reviewer (the workflow's `review`, the CLI's
   * `--review`): kept so a `continue` that rebuilds the workflow keeps it. Absent: not recorded.
   */
  review?: boolean;
  /**
   * The kind of document the step must end with, when it declared one: a plain `rt.continue()` of the
   * step still freezes a built-in document (requirements, goal) without being handed its spec again.
   */
  document?: string;
  /**
   * The earlier steps' documents as this step read them when it began; from then on those texts are
   * used, whatever the files say (absent in records written before it was kept).
   */
  read?: ReadDocumentRecord[];
}

/** A person's message as the step record keeps it once a session was given it. */
export interface DeliveredMessage {
  /** The message's id: the user message's uuid in the transcript. */
  id: string;
  by: string;
  /** When it was said. */
  at: string;
  text: string;
  /** The generation whose session was given it. */
  generation: number;
  /** When the session was given it (its transcript holds it from then on). */
  deliveredAt: string;
}

export interface AttemptFailure {
  attempt: number;
  generation: number;
  sessionId: string | null;
  reason: string;
  at: string;
}

export interface SceneCheck {
  found: string[];
  missing: string[];
}

export interface GenerationRecord {
  generation: number;
  sessionId: string | null;
  startedAt: string;
  endedAt: string | null;
  costUsd: number;
  numTurns: number;
  /** Last main-thread context of this generation. */
  context: number;
  /**
   * One entry per main-thread response, compactly `[context, spills, denials]`: the context after the
   * response, and the spills and denials that happened in that turn. For `flower show` and `flower report`.
   */
  turns?: Array<[context: number, spills: number, denials: number]>;
  /** How this generation ended, when it handed off. */
  handoff: {
    path: string | null;
    degraded: boolean;
    why: string | null;
    /** Sections that were missing or hollow in what the session wrote first. */
    missing: HandoffSectionName[];
    /**
     * Sections still weak after the follow-up turn, filled in mechanically while every other section is
     * the session's own (empty when the handoff degraded whole: see `why`); absent in older records.
     */
    weak?: HandoffSectionName[];
    /** The session was asked once more for its weak sections; absent in older records. */
    askedAgain?: boolean;
    /** The file the writing turn's answer named, read as the handoff; absent when it was the answer. */
    from?: string;
    scene: SceneCheck;
    /** Tool calls the switch cut from the crossing response, each named in `next`; absent in older records. */
    cutCalls?: number;
    /** Calls of the crossing response the switch let finish (one more boundary) before handing off. */
    finishedCalls?: number;
  } | null;
  /** What the generation did to the files (checkpoints, src/checkpoints/); absent when checkpoints were off. */
  work?: GenerationWork;
  /** Where the run stood when it handed off (runtime/judge/drift-watch.ts); absent for the last, or older records. */
  progress?: GenerationProgress;
}

/** Where a run stood at a handoff: the goal's checks, run then, and the files the generation changed. */
export interface GenerationProgress {
  /** The goal's checks that passed (their commands); null without a goal with checks (a `--direct` run). */
  passing: string[] | null;
  /** How many checks the goal has (0 without). */
  checks: number;
  /** Checks that passed now and at no earlier handoff or guard round of the step. */
  newlyPassing: string[];
  /** Files the generation changed (checkpoints); null when checkpoints were off. */
  files: number | null;
}

/**
 * Where a budget stood when the run stopped on it: recorded on the step that stopped (run-spend.ts sums
 * the spend). Here, not there: the record holds it, and run-spend reads records.
 */
export interface BudgetStop {
  /** `run`: the run's own budget (`--budget`); `day`: the fleet's total per UTC day. */
  by: "run" | "day";
  spentUsd: number;
  budgetUsd: number;
  at: string;
}

/** A pause of the drift watch: generations in a row without a newly passing check or a changed file. */
export interface DriftPause {
  /** The generation that handed off last before the pause; the watch counts only generations after it. */
  after: number;
  /** The generations without progress that made it. */
  generations: number[];
  at: string;
}

/**
 * What the generations of a drift pause were measured by (locale/drift-words.ts says it): the goal's
 * checks where they ran at a handoff, the files where checkpoints counted them. `generations` names them;
 * `history` holds their progress.
 */
export function driftMeasures(
  history: readonly GenerationRecord[],
  generations: readonly number[],
): DriftMeasures {
  const progress = history
    .filter((generation) => generations.includes(generation.generation))
    .map((generation) => generation.progress);
  return {
    checks: progress.some((entry) => entry !== undefined && entry.passing !== null),
    files: progress.some((entry) => entry !== undefined && entry.files !== null),
  };
}

/**
 * The step stands at a drift pause: stopped at the handoff the watch paused on, its successor not
 * started. A later stop (a signal, a worker's shutdown) of a step that paused once before is not one.
 * Here, beside the record, so that every reader of a status (`flower runs`, show, the page, a worker)
 * calls it paused alike.
 */
export function atDriftPause(record: StepRecord | undefined): boolean {
  if (record?.status !== "stopped" || !record.drift || record.pendingHandoff === null) return false;
  return record.drift.after === record.history.at(-1)?.generation;
}

/** A generation's files: the checkpoint it began from, its latest, and what it changed. */
export interface GenerationWork {
  /** The checkpoint at the generation's start: the files as it found them (a rewind goes back here). */
  start: string | null;
  /** The generation's latest checkpoint: the files as it left them (so far). */
  end: string | null;
  /** Files it changed, relative to the workspace, in the order they first changed. */
  files: string[];
  /** Its commit message on the handed-back branch: the handoff's "doing", or the step's answer for the last. */
  summary?: string;
}

/**
 * A step's work (src/checkpoints/): where its files are, and its chain of checkpoints in the workspace's shadow
 * repository (and in a shared store's log). The run's steps share one chain, named by the run.
 */
export interface StepWork {
  /** The chain: the run's id (a lone step's name). */
  run: string;
  /** The folder the step's agent works in (a run's own worktree, or the person's checkout). */
  workspace: string;
  /** A working tree of flower's own: a continue puts its files back exactly. */
  isolated: boolean;
  /** The commit the run began from (the person's HEAD); null outside a git repository. */
  base: string | null;
  /** The run's first checkpoint: the files as the run found them (uncommitted changes included). */
  start: string | null;
  /** The latest checkpoint. */
  tip: string | null;
  /** Checkpoints written (an unchanged tree writes none). */
  checkpoints: number;
  /** Files left out of the latest checkpoints (too large, nested repositories). */
  leftOut: LeftOut[];
  /** Checkpoints that could not be taken or stored, said once each (the run went on). */
  warnings?: string[];
}

/** Generations a rewind archived: no longer the step's, still listed by show and the report. */
export interface RewoundGenerations {
  at: string;
  /** The generation the step went back to the start of (with `turn`: to the end of that turn of it). */
  to: number;
  /** The turn of generation `to` the step went back to the end of; absent: to the generation's start. */
  turn?: number;
  /** The checkpoint the files went back to. */
  commit: string | null;
  /** Where the tip was: the archived generations' files are still in the shadow repository there. */
  from: string | null;
  generations: GenerationRecord[];
  handoffs: string[];
  retired: string[];
}

/**
 * How a step runs, recorded when it starts so `continue` — in this process or another — runs it the
 * same way (runtime/drive/step-settings.ts decides; an explicit option on `continue` overrides and says so).
 */
export interface StepSettings {
  /** The model asked for; null: none was named (the spec's, else the binary's default). */
  model: string | null;
  /**
   * The handoff line. `windowGuessed`: the window came from the model name, not from an explicit
   * `window` (so a model given on `continue` moves it too). `rule`: when the step hands off (the line,
   * or the cost rule); absent in records written before it was kept, which ran with the line.
   */
  handoff: { enabled: boolean; window: number; headroom: number; windowGuessed: boolean; rule?: HandoffRule };
  /** The drift watch's generations without progress before a pause (0: off); absent: the default. */
  driftAfter?: number;
  /** Budget cap per session; null: none. */
  maxBudgetUsd: number | null;
  /**
   * The run's budget (USD) over everything it spends — every step, generation, handoff-writing turn,
   * subagent, guard round and reviewer; absent: none. Reached, the step stops at a boundary (`budget-reached`).
   */
  budgetUsd?: number;
  /** The goal guard's reviewer after the checks pass (`--review`). */
  review: boolean;
  /** Language of rules, handoffs and messages. */
  locale: Locale;
}

export interface StoreLoadRecord extends RewriteReport {
  sessionId: string;
  at: string;
}

/**
 * `budget-reached`: the run's budget (`settings.budgetUsd`, or a fleet's day) was spent; the step stopped
 * at a message boundary like a stop, and `continue` with a higher budget goes on.
 */
export type StepStatus = "running" | "done" | "failed" | "stopped" | "goal-not-met" | "budget-reached";

export interface StepRecord extends StepResult {
  /** The step's original task. */
  prompt: string;
  /** The spec's name. */
  agent: string;
  failures: AttemptFailure[];
  history: GenerationRecord[];
  /** The drift watch's last pause (runtime/judge/drift-watch.ts); absent when it never paused the step. */
  drift?: DriftPause;
  /** Where the budget stood when the step ended `budget-reached` (run-spend.ts); cleared by a continue. */
  budgetStop?: BudgetStop;
  /** A frozen handoff whose successor has not started yet: `continue` starts it from this file. */
  pendingHandoff: string | null;
  /**
   * The successor's first prompt while it has not started yet. Only used without a workbench (no file):
   * `continue` must start the successor, never resume the burned generation.
   */
  pendingPrompt: string | null;
  /** Per session, the last cumulative `total_cost_usd` seen (a resumed session starts from it). */
  sessionCosts: Record<string, number>;
  /**
   * Per session, the responses priced as they arrived since its last reported total (in `costUsd`
   * already): the binary's next total replaces them; one that never comes leaves them `estimatedCost`.
   */
  pendingCosts?: Record<string, { usd: number; responses: number; models: string[] }>;
  /**
   * Spend in `costUsd` that no total of the binary covers — a driver killed (or a session that died)
   * before the binary reported it: flower priced those responses itself, at the binary's prices.
   */
  estimatedCost?: { usd: number; responses: number; models: string[]; unknownModel?: boolean };
  storeLoads: StoreLoadRecord[];
  /**
   * The latest plan the step's main thread wrote with TodoWrite (handoff/plan.ts); a handoff appends it
   * to `next`. Absent until the first TodoWrite.
   */
  plan?: PlanItem[];
  /** The handoff line the step ran with (absent for records written before it was kept). */
  policy?: { enabled: boolean; window: number; at: number; warnAt: number };
  /**
   * How the step runs: recorded when it starts, replaced by what a `continue` overrode. Absent in records
   * written before it was kept: `continue` then takes today's options as before.
   */
  settings?: StepSettings;
  /** Handoffs a person asked for with `flower handoff`: who, when, their words, which generation ended. */
  handoffRequests?: Array<{ by: string; at: string; next: string | null; generation: number }>;
  /**
   * A person's messages (`flower say`) the step's main thread was given, in order: who said what when,
   * which generation's session got it and when (runtime/person/). Absent until the first.
   */
  personMessages?: DeliveredMessage[];
  /** The process running the step (while `status` is "running"): a dead pid means it was cut off. */
  pid?: number;
  /** Set for a step of a workflow run (with `run`): its name in the workflow and the run's task. */
  workflow?: WorkflowMembership;
  /** The step's files: where they are and their checkpoints; absent when checkpoints were off (or no git). */
  work?: StepWork;
  /**
   * A rewind by turn: the next continue resumes this session from this entry (`resumeSessionAt`), the
   * turns after it taken back. Cleared once that session has gone on.
   */
  resumeAt?: { sessionId: string; uuid: string; generation: number; turn: number };
  /** Generations taken back by `flower rewind`, newest last: archived, not deleted. */
  rewound?: RewoundGenerations[];
  /** Earlier records of a step name that `run()` started afresh: kept, never overwritten. */
  earlierRuns?: Array<Omit<StepRecord, "earlierRuns">>;
  startedAt: string;
  updatedAt: string;
}

/** A step that has not run yet. */
export function newStepRecord(
  step: string,
  agent: string,
  prompt: string,
  at: Date = new Date(),
): StepRecord {
  const now = at.toISOString();
  return {
    step,
    agent,
    prompt,
    status: "running",
    sessionId: null,
    attempts: 0,
    retired: [],
    context: 0,
    costUsd: 0,
    numTurns: 0,
    errors: [],
    generations: 0,
    handoffs: [],
    degraded: 0,
    spills: 0,
    spilledChars: 0,
    denials: 0,
    result: null,
    failures: [],
    history: [],
    pendingHandoff: null,
    pendingPrompt: null,
    sessionCosts: {},
    storeLoads: [],
    pid: process.pid,
    startedAt: now,
    updatedAt: now,
  };
}

export function toStepResult(record: StepRecord): StepResult {
  return {
    step: record.step,
    sessionId: record.sessionId,
    attempts: record.attempts,
    retired: [...record.retired],
    context: record.context,
    costUsd: record.costUsd,
    numTurns: record.numTurns,
    errors: [...record.errors],
    generations: record.generations,
    handoffs: [...record.handoffs],
    degraded: record.degraded,
    spills: record.spills,
    spilledChars: record.spilledChars,
    denials: record.denials,
    result: record.result,
    status: record.status,
    ...(record.guard ? { guard: structuredClone(record.guard) } : {}),
    ...(record.run !== undefined ? { run: record.run } : {}),
    ...(record.frozen !== undefined
      ? { frozen: { ...record.frozen, missing: [...record.frozen.missing] } }
      : {}),
  };
}
