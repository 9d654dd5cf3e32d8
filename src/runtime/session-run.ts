/**
 * One session of one step: a single `query()` with streaming input, read to its end.
 *
 * It measures the main thread's context after each of its API responses (input + cache read + cache
 * creation + final output tokens, from the main thread's own stream events; subagent traffic never
 * counts), and when `handoffDue()` says so it interrupts at that message boundary, like Ctrl-C, so the
 * transcript is not torn. It never decides what happens next: it reports an outcome to run-step.
 */
import { query, type Options, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { isOverflow } from "../handoff/overflow.js";
import { handoffDue, nearDue } from "../handoff/trigger.js";
import type { HandoffPolicy } from "../handoff/policy.js";
import type { FlowerEvent } from "./events.js";
import { PromptQueue } from "./prompt-queue.js";

export type SessionOutcomeKind =
  /** The turn ended normally: the step's work is done. */
  | "completed"
  /** The main thread crossed the handoff line; the session was stopped at a message boundary. */
  | "handoff-due"
  /** The API said the prompt no longer fits: hand off, degraded. */
  | "overflow"
  /** An error result, or the process died. */
  | "failed"
  /** Stopped from outside (Ctrl-C). */
  | "stopped";

export interface SessionOutcome {
  kind: SessionOutcomeKind;
  sessionId: string | null;
  /** The final result text (the answer, or on the writing turn the handoff). */
  resultText: string | null;
  /** The last cumulative `total_cost_usd` seen for this session, if any result came. */
  costTotal: number | null;
  numTurns: number;
  /** Main-thread context after its last response. */
  context: number;
  /** Complete main-thread API responses in this session run. */
  mainResponses: number;
  /** Why it failed or overflowed. */
  error: string | null;
  /**
   * A limit the user set was reached (maxTurns, maxBudgetUsd): retrying would only spend more, so the
   * step fails at once instead of using another attempt.
   */
  limitReached: boolean;
}

/** Result subtypes that mean "a limit you set was hit", not "something broke". */
const LIMIT_SUBTYPES = new Set(["error_max_turns", "error_max_budget_usd"]);

export interface SessionRunInput {
  step: string;
  options: Options;
  prompt: string;
  policy: HandoffPolicy;
  generation: number;
  /** The handoff-writing turn: exempt from the threshold and silent in the UI. */
  writing: boolean;
  /** Event sink; undefined silences this session (the writing turn emits nothing). */
  emit: ((event: FlowerEvent) => void) | undefined;
  /** Whether the near warning was already given in this generation. */
  warned: boolean;
  onWarned: () => void;
  /** Called as soon as the session id is known (so a crash still records it). */
  onSession: (sessionId: string) => void;
  /** Resolves when someone asks the run to stop (Ctrl-C). */
  stopSignal: AbortSignal;
}

interface Usage {
  input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens?: number | null;
}

const promptSize = (usage: Usage): number =>
  (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);

function summarise(name: string, input: Record<string, unknown>): string {
  const pick = input.command ?? input.file_path ?? input.pattern ?? input.description ?? input.url ?? "";
  const text = typeof pick === "string" ? pick : JSON.stringify(pick);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

export async function runSession(input: SessionRunInput): Promise<SessionOutcome> {
  const { step, policy, emit, writing } = input;
  const queue = new PromptQueue();
  queue.push(input.prompt);
  const q = query({ prompt: queue, options: input.options });

  const outcome: SessionOutcome = {
    kind: "completed",
    sessionId: null,
    resultText: null,
    costTotal: null,
    numTurns: 0,
    context: 0,
    mainResponses: 0,
    error: null,
    limitReached: false,
  };
  let handoffRequested = false;
  let warned = input.warned;
  let stopRequested = false;
  let lastResultIsError = false;
  let sawResult = false;
  let lastApiErrorText: string | null = null;
  let promptTokens = 0;
  const background = new Set<string>();
  /** Agent tool_use id → worker name, to tell who is working. */
  const workers = new Map<string, string>();

  const interrupt = () => {
    q.interrupt().catch(() => {
      // The session may already be finishing; the outcome is decided by what was read.
    });
  };
  const onStop = () => {
    stopRequested = true;
    interrupt();
    queue.end();
  };
  if (input.stopSignal.aborted) onStop();
  else input.stopSignal.addEventListener("abort", onStop, { once: true });

  const afterMainResponse = (context: number, stopReason: string | null | undefined) => {
    outcome.context = context;
    outcome.mainResponses += 1;
    emit?.({
      type: "context",
      step,
      context,
      window: policy.enabled ? policy.window : null,
      at: policy.enabled ? policy.at : null,
      generation: input.generation,
    });
    const due = handoffDue({
      enabled: policy.enabled,
      writing,
      context,
      at: policy.at,
      sessionId: outcome.sessionId,
    });
    if (
      nearDue({ enabled: policy.enabled, writing, context, warnAt: policy.warnAt, at: policy.at, warned })
    ) {
      warned = true;
      input.onWarned();
      emit?.({
        type: "handoff",
        step,
        phase: "near",
        generation: input.generation,
        context,
        window: policy.window,
      });
    }
    // A response that ends the turn needs no interrupt: the work is finishing on its own.
    if (due && !handoffRequested && stopReason === "tool_use") {
      handoffRequested = true;
      interrupt();
    }
  };

  const handle = (message: SDKMessage) => {
    switch (message.type) {
      case "system": {
        if (message.subtype === "init" && !outcome.sessionId) {
          outcome.sessionId = message.session_id;
          input.onSession(message.session_id);
        }
        const system = message as {
          subtype: string;
          task_id?: string;
          is_backgrounded?: boolean;
          status?: string;
        };
        if (system.subtype === "task_started" && system.is_backgrounded && system.task_id)
          background.add(system.task_id);
        if (system.subtype === "task_notification" && system.task_id) background.delete(system.task_id);
        return;
      }
      case "stream_event": {
        if (message.parent_tool_use_id !== null) return;
        const event = message.event as {
          type: string;
          message?: { usage?: Usage };
          usage?: Usage;
          delta?: { stop_reason?: string | null };
        };
        if (event.type === "message_start") promptTokens = promptSize(event.message?.usage ?? {});
        if (event.type === "message_delta") {
          afterMainResponse(promptTokens + (event.usage?.output_tokens ?? 0), event.delta?.stop_reason);
        }
        return;
      }
      case "assistant": {
        const assistant = message as SDKMessage & {
          error?: string;
          message: {
            content: Array<{
              type: string;
              text?: string;
              name?: string;
              id?: string;
              input?: Record<string, unknown>;
            }>;
          };
        };
        const agent = message.parent_tool_use_id
          ? (workers.get(message.parent_tool_use_id) ?? "worker")
          : "coordinator";
        if (assistant.error) {
          lastApiErrorText = assistant.message.content.map((block) => block.text ?? "").join(" ");
        }
        for (const block of assistant.message.content) {
          if (block.type !== "tool_use" || !block.name) continue;
          const toolInput = block.input ?? {};
          if ((block.name === "Agent" || block.name === "Task") && block.id && !message.parent_tool_use_id) {
            const name =
              typeof toolInput.subagent_type === "string" ? toolInput.subagent_type : "general-purpose";
            workers.set(block.id, name);
            emit?.({
              type: "agent",
              step,
              phase: "start",
              agent: name,
              description: typeof toolInput.description === "string" ? toolInput.description : undefined,
            });
          } else {
            emit?.({
              type: "tool-use",
              step,
              agent,
              tool: block.name,
              summary: summarise(block.name, toolInput),
            });
          }
        }
        return;
      }
      case "user": {
        if (message.parent_tool_use_id !== null) return;
        const content = (message.message as { content?: unknown }).content;
        if (!Array.isArray(content)) return;
        for (const block of content as Array<{ type: string; tool_use_id?: string }>) {
          if (block.type !== "tool_result" || !block.tool_use_id) continue;
          const name = workers.get(block.tool_use_id);
          if (name) emit?.({ type: "agent", step, phase: "end", agent: name });
        }
        return;
      }
      case "result": {
        if (!outcome.sessionId) {
          outcome.sessionId = message.session_id;
          input.onSession(message.session_id);
        }
        sawResult = true;
        outcome.numTurns += message.num_turns;
        outcome.costTotal = message.total_cost_usd;
        lastResultIsError = message.is_error;
        outcome.limitReached = LIMIT_SUBTYPES.has(message.subtype);
        if (message.subtype === "success" && !message.is_error) {
          outcome.resultText = message.result;
          outcome.error = null;
        } else {
          const errors = "errors" in message && Array.isArray(message.errors) ? message.errors : [];
          const text = "result" in message && typeof message.result === "string" ? message.result : "";
          outcome.error = [message.subtype, text, ...errors, lastApiErrorText ?? ""]
            .filter((part) => part !== "")
            .join(": ");
        }
        // Background work still running means the CLI will start another turn on its own.
        if (background.size === 0) queue.end();
        return;
      }
      default:
        return;
    }
  };

  let thrown: unknown;
  try {
    for await (const message of q) handle(message);
  } catch (error) {
    thrown = error;
  } finally {
    input.stopSignal.removeEventListener("abort", onStop);
    queue.end();
    q.close();
  }

  // The interrupt can lose the race against a turn that was finishing anyway: a clean final answer
  // means the work is done, and there is nothing to hand off or stop.
  const finished = sawResult && !lastResultIsError && outcome.resultText !== null && thrown === undefined;
  if (stopRequested && !finished) return { ...outcome, kind: "stopped" };
  if (handoffRequested && !finished) return { ...outcome, kind: "handoff-due" };
  const thrownText =
    thrown === undefined ? null : thrown instanceof Error ? thrown.message : JSON.stringify(thrown);
  if (!sawResult && thrownText === null) {
    return { ...outcome, kind: "failed", error: "the claude process ended without a result" };
  }
  if (lastResultIsError || thrownText !== null) {
    const error = [outcome.error, thrownText].filter((part): part is string => !!part).join(" | ");
    return {
      ...outcome,
      kind: isOverflow(error, lastApiErrorText) ? "overflow" : "failed",
      error: error || "unknown error",
    };
  }
  return outcome;
}
