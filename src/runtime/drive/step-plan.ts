/**
 * What one step is given: its plan (task, policy, settings, what to freeze, the goal) and its environment
 * (what the runtime around it wires in: persistence, session options, the bus). StepRun (step-run.ts)
 * runs the step from these; the step driver (step-driver.ts) and the step harness build them.
 */
import type { HandoffRequestSource } from "../generations/handoff-request-watch.js";
import type { RunMessages } from "../person/message-inbox.js";
import type { Options } from "@anthropic-ai/claude-agent-sdk";
import type { DocumentSpec } from "../../documents/document.js";
import type { ResolvedGoal } from "../../goal/goal-option.js";
import type { HandoffPolicy } from "../../handoff/policy.js";
import type { Locale } from "../../locale/locale.js";
import type { StepRecord, StepSettings, WorkflowMembership } from "../../records/step-record.js";
import type { RewriteReport } from "../../session-layers/passes/rewrite-report.js";
import type { FlowerEvent } from "../events.js";
import type { SessionRequest } from "../session/session-options.js";
import type { GoalChange } from "../judge/frozen-goal.js";
import type { QueryFunction } from "../query-function.js";
import type { StepWork } from "../files/step-work.js";
import type { RecallOffer } from "../../agents/recall-subagent.js";
import type { Budget } from "../../records/run-spend.js";

/** What a step needs from the runtime around it: wiring, no decisions. */
export interface StepEnvironment {
  /** Persists the record (every change goes to disk at once: a crash loses nothing). */
  save(record: StepRecord): void;
  /** The earlier record of this step name, if any (run() starts afresh but keeps it). */
  earlier(step: string): StepRecord | undefined;
  /**
   * SDK options for one session; `sink` receives what its hooks observe (spills, denials), `stderr` what
   * the child writes on stderr.
   */
  sessionOptions(session: SessionRequest): Options;
  /** Takes the credentials out of a text (the child's stderr, an error message). @default unchanged */
  redact?(text: string): string;
  /**
   * Runs before each session (the workbench index is refreshed so the prompt lists what is on disk;
   * a resumed session's local transcript tail is recovered into the store).
   */
  beforeSession(resume?: string): Promise<void>;
  /** Subscribes to the store's load report for one session; returns the unsubscribe function. */
  watchLoads(sessionId: string, listener: (report: RewriteReport) => void): () => void;
  /** The event bus: what the user sees. */
  emit(event: FlowerEvent): void;
  /** SDK options for the goal guard's reviewer: a fresh session with read-only tools (only with a goal). */
  reviewerOptions?(): Options;
  query: QueryFunction;
  now(): Date;
  /** Requests of `flower handoff` addressed to this driver (the lease's); absent: nobody can ask. */
  handoffRequests?: HandoffRequestSource;
  /** A person's messages to the step's run (`flower say`); absent: nobody can say anything. */
  messages?: RunMessages;
  /**
   * Which of `ids` the stored transcript of `sessionId` holds already: a driver killed after its session
   * was given a message leaves the message's row, and the session it resumes must not get it twice.
   */
  messagesInTranscript?(sessionId: string, ids: readonly string[]): Promise<Set<string>>;
  /** The run's work: checkpoints of the workspace (step-work.ts); absent when off or without git. */
  work?: StepWork;
  /** What the run's other steps spent (their records' costs): the run's figure is this plus the step's. @default 0 */
  spentElsewhere?(): number;
}

export interface StepPlan {
  step: string;
  agent: string;
  prompt: string;
  policy: HandoffPolicy;
  /** Recorded on the step (what `continue` runs it with); optional for the loop's own tests. */
  settings?: StepSettings;
  locale: Locale;
  workspace: string;
  /** Where handoffs are frozen; null without a workbench (the handoff still happens, in the prompt only). */
  notesDir: string | null;
  maxAttempts: number;
  stopSignal: AbortSignal;
  /** Continue an existing record instead of starting fresh. */
  continuation?: { record: StepRecord; prompt: string };
  /** Part of a workflow run (recorded on the step). */
  workflow?: WorkflowMembership;
  /** The document the step must end with, frozen to `notesDir` under the run id. */
  freeze?: { spec: DocumentSpec; run: string; notesDir: string };
  /**
   * How a successor generation reaches recall of the earlier ones (its subagent, or the tool itself); its
   * first prompt says so. Absent: no recall.
   */
  recall?: RecallOffer;
  /** The ceilings the run's spend runs under (run-spend.ts): reached, the step stops at a boundary. */
  budgets?: readonly Budget[];
  /** The goal guard: checks flower runs when the session completes, and how often to send it back. */
  goal?: { goal: ResolvedGoal; logDir: string; env: NodeJS.ProcessEnv; change?: GoalChange | null };
}
