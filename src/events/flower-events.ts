/**
 * Every event the runtime emits on its bus (runtime/events.ts). The CLI's display, `--json` output,
 * telemetry and tests all read the same stream. Names are noun-verb (`step-start`, `tool-denied`). The
 * types live in this middle-layer folder, not in runtime/, so that telemetry (same layer) reads them
 * instead of restating them. The goal guard's events are declared in guard-events.ts and re-exported here.
 */
import type { LeaseHolder } from "../errors.js";
import type { DocumentSummaryLine } from "../documents/document.js";
import type { PlanItem } from "../handoff/plan.js";
import type { HandoffSectionName } from "../handoff-sections.js";
import type {
  ClaimFlaggedEvent,
  GoalChangeEvent,
  GoalChecksEvent,
  GuardRoundEvent,
  ReviewEvent,
} from "./guard-events.js";
import type { RewriteReport } from "../session-layers/passes/rewrite-report.js";
import type {
  WorkBranchEvent,
  WorkCheckpointEvent,
  WorkRestoredEvent,
  WorkWarningEvent,
} from "./work-events.js";

import type { DriftPauseEvent, GenerationProgressEvent } from "./progress-events.js";

export type { DriftPauseEvent, GenerationProgressEvent } from "./progress-events.js";
export type {
  WorkBranchEvent,
  WorkCheckpointEvent,
  WorkRestoredEvent,
  WorkWarningEvent,
} from "./work-events.js";

export type SettingName =
  | "model"
  | "window"
  | "handoff"
  | "headroom"
  | "rule"
  | "maxBudgetUsd"
  | "budgetUsd"
  | "review"
  | "locale"
  | "driftAfter";

export type SettingValue = string | number | boolean | null;

/** One recorded setting the continuation does not keep. */
export interface SettingOverride {
  setting: SettingName;
  /** As the step ran so far (recorded). */
  recorded: SettingValue;
  /** As it runs from now on. */
  now: SettingValue;
  /** The option that changed it: the setting itself, or `model` for a guessed window that follows it. */
  by: SettingName;
}

/** One main-thread response's tokens as the API reported them (telemetry's GenAI attributes). */
export interface ResponseUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** The model that answered, when the response said. */
  model?: string | undefined;
}

export type {
  ClaimFlaggedEvent,
  GoalChangeEvent,
  GoalCheckSummary,
  GoalChecksEvent,
  GuardRoundEvent,
  ReviewEvent,
} from "./guard-events.js";

export interface StepStartEvent {
  type: "step-start";
  step: string;
  /** 1-based attempt number (failed attempts before this one + 1). */
  attempt: number;
  /** 1-based generation: how many sessions this step has used so far, this one included. */
  generation: number;
  /** Session resumed, when continuing; undefined for a fresh session. */
  resume?: string | undefined;
}

export interface StepEndEvent {
  type: "step-end";
  step: string;
  ok: boolean;
  /**
   * done, failed, stopped (Ctrl-C / rt.stop(): continuable), or goal-not-met (the goal guard's rounds
   * ran out; see the record's `guard`), or budget-reached (the run's budget was spent: continuable with
   * a higher one).
   */
  status: "done" | "failed" | "stopped" | "goal-not-met" | "budget-reached";
  sessionId: string | null;
  costUsd: number;
  /** Model requests as the SDK counts them (`num_turns`), subagents' requests included. */
  numTurns: number;
  /** Turns: requests of the main thread (records/turns.ts), what `flower` shows as turns. */
  turns: number;
  generations: number;
  errors: string[];
}

export interface RetryEvent {
  type: "retry";
  step: string;
  /** The attempt that failed (1-based). */
  attempt: number;
  maxAttempts: number;
  reason: string;
}

/**
 * The `claude` child ended abnormally: the last lines it wrote on stderr (redacted, at most 40). The
 * failure's reason quotes the last few; `flower -v` shows these.
 */
export interface ClaudeStderrEvent {
  type: "claude-stderr";
  step: string;
  lines: string[];
}

/** The main thread's context after one of its turns: the gauge line. */
export interface ContextEvent {
  type: "context";
  step: string;
  context: number;
  window: number | null;
  /** The handoff line; null when handoff is off. */
  at: number | null;
  generation: number;
  /** How the response's tokens split (input, output, cache read and write) and the model that answered. */
  usage?: ResponseUsage | undefined;
  /** Where a budget is set: what the run has spent so far (booked as it came) of the nearest one. */
  budget?: { spentUsd: number; budgetUsd: number } | undefined;
}

/**
 * A model response was served, to the main thread or a subagent: what it used. The step books its cost as
 * it arrives (at the binary's prices for the model), so a driver killed before the binary's total came
 * has its spend in the record; the binary's total, when it comes, replaces the figure.
 */
export interface UsageEvent {
  type: "usage";
  step: string;
  sessionId: string | null;
  /** A subagent's response, not the main thread's. (Named `worker` before; kept: library users read it.) */
  worker: boolean;
  usage: ResponseUsage;
}

/** A stop waited for the reply in flight as long as a stop waits, then cut it (it was not in yet). */
export interface ReplyCutEvent {
  type: "reply-cut";
  step: string;
  /** How long the stop waited for it. */
  waitedMs: number;
}

/** Who is working now: the coordinator, or a subagent started through the Agent tool. */
export interface AgentEvent {
  type: "agent";
  step: string;
  phase: "start" | "end";
  /** "coordinator" for the main thread, else the subagent's name (its type). */
  agent: string;
  description?: string | undefined;
}

export interface ToolUseEvent {
  type: "tool-use";
  step: string;
  agent: string;
  tool: string;
  /** A short rendering of the input (the Bash command, the file path...). */
  summary: string;
}

export interface ToolDeniedEvent {
  type: "tool-denied";
  step: string;
  tool: string;
  /**
   * The Bash command, when the denied tool was Bash; for an Agent call the binary refused, the subagent
   * asked for and what it was to do (`engineer: Write the summary table`).
   */
  command?: string | undefined;
  reason: string;
}

export interface SpillEvent {
  type: "spill";
  step: string;
  tool: string;
  path: string;
  chars: number;
}

export interface HandoffEvent {
  type: "handoff";
  step: string;
  phase: "near" | "writing" | "done";
  generation: number;
  context: number;
  window: number;
  /** Only on `done`. */
  degraded?: boolean | undefined;
  /** Only on `done`: where the handoff was frozen, or null without a workbench. */
  path?: string | null | undefined;
  /** Only on `done`: the sections as written. */
  sections?: Partial<Record<HandoffSectionName, string>> | undefined;
  /** Only on `done`: why the handoff degraded, when it did. */
  why?: string | undefined;
  /**
   * Only on `done`: the sections flower filled in mechanically because the session left them weak, when
   * the rest of the handoff is the session's own (handoff/mechanical.ts).
   */
  weak?: HandoffSectionName[] | undefined;
  /** Only on `done`: tool calls the switch cut, each named by a line in `next` (handoff/cut-calls.ts). */
  cutCalls?: number | undefined;
  /** Only on `done`: calls of the crossing response the switch let finish before it handed off. */
  finishedCalls?: number | undefined;
}

/** The main thread wrote its plan (TodoWrite): the whole list as it stands now. */
export interface PlanEvent {
  type: "plan";
  step: string;
  items: PlanItem[];
}

/** What the pruning store rewrote when it loaded a session for resume. */
export interface StoreLoadEvent extends RewriteReport {
  type: "store-load";
  step: string;
  sessionId: string;
}

/** A person asked for this handoff with `flower handoff` (handoff-request-watch.ts); the handoff follows at once. */
export interface HandoffRequestEvent {
  type: "handoff-request";
  step: string;
  /** `user@host`. */
  by: string;
  /** Their words for the next generation; null: a plain handoff. */
  next: string | null;
}

/**
 * A person's message (`flower say`) reached the main thread: the session was given it at a message
 * boundary and its transcript holds it (runtime/person/).
 */
export interface PersonMessageEvent {
  type: "person-message";
  step: string;
  /** The message's id (the user message's uuid in the transcript). */
  id: string;
  /** `user@host`. */
  by: string;
  /** When it was said, ISO 8601. */
  at: string;
  text: string;
  /** The generation whose session was given it. */
  generation: number;
}

/** Another live driver holds the step; this one waits for it (`wait` / `--wait`). Told once. */
export interface LeaseWaitEvent {
  type: "lease-wait";
  step: string;
  holder: LeaseHolder;
}

/** The step's lease was held by a driver that is gone (dead pid, stale heartbeat): this one took it over. */
export interface LeaseTakeoverEvent {
  type: "lease-takeover";
  step: string;
  /** The driver that held it. */
  holder: LeaseHolder;
}

/**
 * A workflow run moves between its steps: `start` (a step begins or is continued), `skip` (already
 * frozen/done: never redone), `done` (it ended), `paused` (the run stops after it for a person to read
 * and edit its document).
 */
export interface WorkflowStepEvent {
  type: "workflow-step";
  run: string;
  /** The step's record name (`<run>/<name>`). */
  step: string;
  /** The step's name in the workflow. */
  name: string;
  /** 0-based position in the workflow, and how many steps it has. */
  index: number;
  total: number;
  phase: "start" | "skip" | "done" | "paused";
  /** On `start`: the step continues an earlier record (after a crash or a stop) instead of starting fresh. */
  resumed?: boolean | undefined;
}

/**
 * A workflow step (re)starts and an earlier document's file differs from the text a step that already
 * began read (workflow/document-basis.ts): who changed it and when is unknown. `used: false`, the recorded
 * text is used; `true`, a person asked for the file as it is now (`--reread-goal`).
 */
export interface DocumentChangedEvent {
  type: "document-changed";
  run: string;
  /** The step's record name (`<run>/<name>`) that is starting. */
  step: string;
  kind: string;
  title: string;
  path: string;
  /** The workflow step (its name) that began with the recorded text. */
  since: string;
  used: boolean;
}

/** A step's document was frozen: where, whether it degraded and why, and its sections. */
export interface DocumentFrozenEvent {
  type: "document-frozen";
  step: string;
  /** The workflow run, when the step is part of one. */
  run?: string | undefined;
  /** The document's kind ("requirements", "goal", custom) and its title in the run's locale. */
  kind: string;
  title: string;
  path: string;
  /** Where the previous version was archived, if there was one. */
  archived: string | null;
  degraded: boolean;
  /** Why it degraded, when it did. */
  why?: string | undefined;
  /** Required sections that were missing or hollow in the answer. */
  missing: string[];
  /** Heading and text of every declared section, in order (the live view's summary lines). */
  sections: DocumentSummaryLine[];
}

/**
 * A continued step (or a new step of a continued workflow run) does not keep one of the settings it
 * was started with, because an option named it explicitly: `window 90K as started → 200K (--window)`.
 */
export interface SettingOverrideEvent extends SettingOverride {
  type: "setting-override";
  step: string;
}

export type FlowerEvent =
  | StepStartEvent
  | StepEndEvent
  | RetryEvent
  | ClaudeStderrEvent
  | ContextEvent
  | UsageEvent
  | ReplyCutEvent
  | AgentEvent
  | ToolUseEvent
  | ToolDeniedEvent
  | SpillEvent
  | HandoffEvent
  | PlanEvent
  | StoreLoadEvent
  | LeaseWaitEvent
  | LeaseTakeoverEvent
  | HandoffRequestEvent
  | PersonMessageEvent
  | GoalChecksEvent
  | GuardRoundEvent
  | ClaimFlaggedEvent
  | ReviewEvent
  | WorkflowStepEvent
  | DocumentFrozenEvent
  | SettingOverrideEvent
  | GoalChangeEvent
  | DocumentChangedEvent
  | WorkCheckpointEvent
  | WorkRestoredEvent
  | WorkWarningEvent
  | GenerationProgressEvent
  | DriftPauseEvent
  | WorkBranchEvent;

export type FlowerEventType = FlowerEvent["type"];
