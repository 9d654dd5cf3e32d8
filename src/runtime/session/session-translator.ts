/**
 * Reads one session's SDK messages and says what they mean for flower: which events to show, when the
 * session id is known, when a main-thread response ended (with its context size), and what the final
 * result was. Pure: no I/O and no `query()`, so it is unit-tested on recorded SDK messages.
 *
 * Only the main thread's responses count for the context: a message with a `parent_tool_use_id` belongs
 * to a subagent, whose context dissolves when it finishes.
 */
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { cutCall, type CutCall } from "../../handoff/cut-calls.js";
import { planFromTodoWrite } from "../../handoff/plan.js";
import { clearError } from "./clear-error.js";
import type { FlowerEvent, ResponseUsage } from "../events.js";
import { ResponseCalls } from "./response-calls.js";

/** What one message means; a message may mean several things. */
export type SessionSignal =
  /** Show this event. */
  | { kind: "event"; event: FlowerEvent }
  /** The session id is known now (first `system/init`, or a result without one). */
  | { kind: "session"; sessionId: string }
  /** A main-thread API response ended: its prompt + output tokens, how they split, and why it stopped. */
  | { kind: "main-response"; context: number; stopReason: string | null; usage: ResponseUsage }
  /** A response was served (main thread or a subagent's): what it used, to be booked as it arrives. */
  | { kind: "served"; usage: ResponseUsage; subagent: boolean }
  /** A result message arrived; `backgroundRunning` = the CLI will start another turn on its own. */
  | { kind: "result"; backgroundRunning: boolean }
  /** The binary is about to send a failed request again (`system/api_retry`): its status and error. */
  | { kind: "api-retry"; status: number | null; error: string | null }
  /**
   * A user message sent into the session moved on (`command_lifecycle`): `queued` when the binary took
   * it, `started` when it went into the main thread's next request (folded in at a boundary, or as a
   * turn of its own), then `completed` or `cancelled`. `uuid` is the message's.
   */
  | { kind: "command"; uuid: string; state: string };

/** What a session run counted: read from the stream, and carried as they are into its outcome. */
export interface SessionCounts {
  sessionId: string | null;
  /** The final answer of a successful result (on the writing turn, the handoff). */
  resultText: string | null;
  /** The last cumulative `total_cost_usd` seen for this session, if any result came. */
  costTotal: number | null;
  numTurns: number;
  /** Main-thread context after its last response. */
  context: number;
  /** Complete main-thread API responses in this session run. */
  mainResponses: number;
}

/** Everything the stream said that decides the session's outcome. */
export interface SessionReading extends SessionCounts {
  sawResult: boolean;
  lastResultIsError: boolean;
  /** The error result's subtype, text and errors, joined. */
  resultError: string | null;
  /** The text of the last synthetic API-error assistant message (e.g. "prompt is too long"). */
  apiErrorText: string | null;
  /** The last result was a limit the user set (maxTurns, maxBudgetUsd). */
  limitReached: boolean;
  /** Tool calls of the latest main-thread response that have not come back (or came back interrupted). */
  openCalls: CutCall[];
  /** The binary's first message (`system/init`) came: it started. */
  started: boolean;
  /** The last API error's HTTP status (an `api_retry`, an API-error message, or the error result). */
  apiStatus: number | null;
  /** Its type: `authentication_error`, `rate_limit`, `cloud_credential_error`, ... */
  apiErrorType: string | null;
}

interface Usage {
  input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens?: number | null;
}

/** A response's usage as the ledger books it. */
function usageOf(usage: Usage, model: string | undefined): ResponseUsage {
  return {
    inputTokens: usage.input_tokens ?? 0,
    cacheReadTokens: usage.cache_read_input_tokens ?? 0,
    cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    ...(model !== undefined ? { model } : {}),
  };
}

/** A subagent's response as its forwarded assistant message carries it. */
interface SubagentResponse {
  id?: string;
  usage?: Usage;
  model?: string;
  content?: ContentBlock[];
}

interface ContentBlock {
  type: string;
  text?: string;
  name?: string;
  id?: string;
  input?: Record<string, unknown>;
  tool_use_id?: string;
  is_error?: boolean;
  content?: unknown;
}

/** Result subtypes that mean "a limit you set was hit", not "something broke". */
const LIMIT_SUBTYPES = new Set(["error_max_turns", "error_max_budget_usd"]);

const SUMMARY_CHARS = 120;

const promptSize = (usage: Usage): number =>
  (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);

/** The one argument that says what a tool call does, cut to one short line. */
export function summariseToolInput(input: Record<string, unknown>): string {
  const pick = input.command ?? input.file_path ?? input.pattern ?? input.description ?? input.url ?? "";
  const text = typeof pick === "string" ? pick : JSON.stringify(pick);
  return text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS - 3)}...` : text;
}

/**
 * The binary's words for a refused call, without its markup: `<tool_use_error>Error: No such tool
 * available: Agent. …</tool_use_error>` is "No such tool available: Agent. …".
 */
function refusalText(content: unknown): string {
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content
            .map((part) =>
              typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : "",
            )
            .join(" ")
        : "";
  return text
    .replace(/<\/?tool_use_error>/g, "")
    .replace(/^\s*Error:\s*/u, "")
    .trim();
}

export class SessionTranslator {
  readonly #step: string;
  readonly reading: SessionReading = {
    sessionId: null,
    resultText: null,
    costTotal: null,
    numTurns: 0,
    context: 0,
    mainResponses: 0,
    sawResult: false,
    lastResultIsError: false,
    resultError: null,
    apiErrorText: null,
    limitReached: false,
    openCalls: [],
    started: false,
    apiStatus: null,
    apiErrorType: null,
  };
  /** Tool calls of the main thread's latest response: what a handoff interrupt would cut. */
  readonly #calls = new ResponseCalls();
  /** Prompt tokens of the main-thread response being streamed. */
  #promptTokens = 0;
  /** How those prompt tokens split, and the answering model (message_start says both). */
  #prompt: Omit<ResponseUsage, "outputTokens"> = { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  /** A subagent's response being streamed, by the Agent call that started the subagent: its prompt and model. */
  readonly #subagentPrompts = new Map<string, Omit<ResponseUsage, "outputTokens">>();
  /** Background tasks still running: while any is, a result does not end the session. */
  readonly #background = new Set<string>();
  /** Agent tool_use id → subagent name, to tell who is working. */
  readonly #subagents = new Map<string, string>();
  /**
   * Agent calls not yet shown as started, by tool_use id: a subagent is started when the binary
   * registers its task (`system/task_started` names the call). A call the binary refuses ("No such tool
   * available: Agent" in a step without subagents, an unknown subagent type) never gets one: its error
   * result is a denial, not a subagent that ran (it was shown as "-> engineer started … <- engineer
   * done", and counted as no denial).
   */
  readonly #agentCalls = new Map<string, { tool: string; agent: string; description: string | undefined }>();
  /**
   * Subagents' responses booked without stream events (the binary streams none for subagents): by message
   * id from their forwarded assistant messages, and per subagent whether the last one was its answer (then
   * the Agent result's usage, which is that answer's, is booked already). Subagents that stream are booked
   * from their stream events only (`#streamedSubagents`).
   */
  readonly #subagentMessages = new Set<string>();
  readonly #subagentAnswered = new Map<string, boolean>();
  readonly #streamedSubagents = new Set<string>();

  constructor(step: string) {
    this.#step = step;
  }

  read(message: SDKMessage): SessionSignal[] {
    // Not in the SDK's message union (yet): the binary sends it all the same (CLI 2.1.332).
    const lifecycle = message as { type: string; command_uuid?: unknown; state?: unknown };
    if (lifecycle.type === "command_lifecycle") {
      if (typeof lifecycle.command_uuid !== "string" || typeof lifecycle.state !== "string") return [];
      return [{ kind: "command", uuid: lifecycle.command_uuid, state: lifecycle.state }];
    }
    switch (message.type) {
      case "system":
        return this.#system(message);
      case "stream_event":
        return this.#streamEvent(message);
      case "assistant":
        return this.#assistant(message);
      case "user":
        return this.#user(message);
      case "result":
        return this.#result(message);
      default:
        return [];
    }
  }

  #knowSession(sessionId: string): SessionSignal[] {
    if (this.reading.sessionId) return [];
    this.reading.sessionId = sessionId;
    return [{ kind: "session", sessionId }];
  }

  #system(message: Extract<SDKMessage, { type: "system" }>): SessionSignal[] {
    const system = message as {
      subtype: string;
      task_id?: string;
      is_backgrounded?: boolean;
      error_status?: number | null;
      error?: string | null;
    };
    if (system.subtype === "init") {
      this.reading.started = true;
      return this.#knowSession(message.session_id);
    }
    if (system.subtype === "api_retry") {
      const status = typeof system.error_status === "number" ? system.error_status : null;
      const error = typeof system.error === "string" ? system.error : null;
      this.reading.apiStatus = status;
      this.reading.apiErrorType = error;
      return [{ kind: "api-retry", status, error }];
    }
    if (system.subtype === "task_started" && system.is_backgrounded && system.task_id)
      this.#background.add(system.task_id);
    if (system.subtype === "task_started") {
      const toolUseId = (message as { tool_use_id?: unknown }).tool_use_id;
      if (typeof toolUseId === "string") return this.#agentStarted(toolUseId);
    }
    if (system.subtype === "task_notification" && system.task_id) this.#background.delete(system.task_id);
    return [];
  }

  #streamEvent(message: Extract<SDKMessage, { type: "stream_event" }>): SessionSignal[] {
    const event = message.event as {
      type: string;
      message?: { usage?: Usage; model?: string };
      usage?: Usage;
      delta?: { stop_reason?: string | null };
    };
    if (message.parent_tool_use_id !== null)
      return this.#subagentStreamEvent(message.parent_tool_use_id, event);
    if (event.type === "message_start") {
      const usage = event.message?.usage ?? {};
      this.#promptTokens = promptSize(usage);
      this.#prompt = {
        inputTokens: usage.input_tokens ?? 0,
        cacheReadTokens: usage.cache_read_input_tokens ?? 0,
        cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
        ...(typeof event.message?.model === "string" ? { model: event.message.model } : {}),
      };
      this.#calls.start();
      this.reading.openCalls = [];
    }
    if (event.type !== "message_delta") return [];
    const outputTokens = event.usage?.output_tokens ?? 0;
    const context = this.#promptTokens + outputTokens;
    this.reading.context = context;
    this.reading.mainResponses += 1;
    const usage = { ...this.#prompt, outputTokens };
    return [
      { kind: "served", usage, subagent: false },
      { kind: "main-response", context, stopReason: event.delta?.stop_reason ?? null, usage },
    ];
  }

  /** A subagent's response: only what it used (its context and calls are the subagent's own business). */
  #subagentStreamEvent(
    parent: string,
    event: { type: string; message?: { usage?: Usage; model?: string }; usage?: Usage },
  ): SessionSignal[] {
    this.#streamedSubagents.add(parent);
    if (event.type === "message_start") {
      const usage = event.message?.usage ?? {};
      this.#subagentPrompts.set(parent, {
        inputTokens: usage.input_tokens ?? 0,
        cacheReadTokens: usage.cache_read_input_tokens ?? 0,
        cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
        ...(typeof event.message?.model === "string" ? { model: event.message.model } : {}),
      });
      return [];
    }
    if (event.type !== "message_delta") return [];
    const prompt = this.#subagentPrompts.get(parent);
    if (prompt === undefined) return [];
    this.#subagentPrompts.delete(parent);
    return [
      { kind: "served", usage: { ...prompt, outputTokens: event.usage?.output_tokens ?? 0 }, subagent: true },
    ];
  }

  #assistant(message: Extract<SDKMessage, { type: "assistant" }>): SessionSignal[] {
    const assistant = message as {
      error?: string;
      message: { content: ContentBlock[] };
    };
    const step = this.#step;
    const parent = message.parent_tool_use_id;
    // A subagent whose Agent call was not seen is shown as "worker", the name it always had.
    const agent = parent ? (this.#subagents.get(parent) ?? "worker") : "coordinator";
    if (assistant.error) {
      this.reading.apiErrorText = assistant.message.content.map((block) => block.text ?? "").join(" ");
      // A subagent's failed request is its coordinator's tool result, not the session's failure.
      if (!message.parent_tool_use_id) this.reading.apiErrorType = assistant.error;
    }
    const signals: SessionSignal[] = parent
      ? this.#subagentResponse(parent, message.message as SubagentResponse)
      : [];
    for (const block of assistant.message.content) {
      if (block.type !== "tool_use" || !block.name) continue;
      const input = block.input ?? {};
      if (!parent && block.id) {
        this.#calls.issued(block.id, cutCall(block.name, input, summariseToolInput(input)));
        this.reading.openCalls = this.#calls.open();
      }
      // The main thread's plan: TodoWrite's input is the whole list, the latest one is the plan.
      const plan = !parent && block.name === "TodoWrite" ? planFromTodoWrite(input) : null;
      if (plan) signals.push({ kind: "event", event: { type: "plan", step, items: plan } });
      if ((block.name === "Agent" || block.name === "Task") && block.id && !parent) {
        const name = typeof input.subagent_type === "string" ? input.subagent_type : "general-purpose";
        this.#subagents.set(block.id, name);
        const description = typeof input.description === "string" ? input.description : undefined;
        this.#agentCalls.set(block.id, { tool: block.name, agent: name, description });
      } else {
        signals.push({
          kind: "event",
          event: { type: "tool-use", step, agent, tool: block.name, summary: summariseToolInput(input) },
        });
      }
    }
    return signals;
  }

  /**
   * A subagent's response forwarded as an assistant message (its calls; an answer only sometimes): booked
   * once per message id, as it comes, so a budget sees subagents while they work. Its output tokens may be
   * partial (the forwarded copy is taken as the response starts); the binary's total replaces the estimate
   * when the session reports it (accounting.ts).
   */
  #subagentResponse(parent: string, response: SubagentResponse): SessionSignal[] {
    if (this.#streamedSubagents.has(parent) || !response.id || !response.usage) return [];
    this.#subagentAnswered.set(parent, !(response.content ?? []).some((block) => block.type === "tool_use"));
    if (this.#subagentMessages.has(response.id)) return [];
    this.#subagentMessages.add(response.id);
    return [{ kind: "served", usage: usageOf(response.usage, response.model), subagent: true }];
  }

  /** A subagent's end: the Agent result carries its answer's usage, booked unless its answer was forwarded. */
  #subagentEnd(toolUseId: string, result: unknown): SessionSignal[] {
    if (this.#streamedSubagents.has(toolUseId) || this.#subagentAnswered.get(toolUseId) === true) return [];
    const { usage, resolvedModel } = (result ?? {}) as { usage?: Usage; resolvedModel?: unknown };
    if (!usage || typeof usage !== "object") return [];
    this.#subagentAnswered.set(toolUseId, true);
    const model = typeof resolvedModel === "string" ? resolvedModel : undefined;
    return [{ kind: "served", usage: usageOf(usage, model), subagent: true }];
  }

  #user(message: Extract<SDKMessage, { type: "user" }>): SessionSignal[] {
    if (message.parent_tool_use_id !== null) return [];
    const content = (message.message as { content?: unknown }).content;
    if (!Array.isArray(content)) return [];
    const signals: SessionSignal[] = [];
    for (const block of content as ContentBlock[]) {
      if (block.type !== "tool_result" || !block.tool_use_id) continue;
      this.#calls.answered(block.tool_use_id, block);
      this.reading.openCalls = this.#calls.open();
      const name = this.#subagents.get(block.tool_use_id);
      if (!name) continue;
      const call = this.#agentCalls.get(block.tool_use_id);
      if (call && block.is_error === true) {
        // Never started: the binary refused the call.
        this.#agentCalls.delete(block.tool_use_id);
        const reason = refusalText(block.content);
        signals.push({
          kind: "event",
          event: {
            type: "tool-denied",
            step: this.#step,
            tool: call.tool,
            command: call.description ? `${call.agent}: ${call.description}` : call.agent,
            reason,
          },
        });
        continue;
      }
      // A binary that names no task for the call: started and done are said together.
      signals.push(...this.#agentStarted(block.tool_use_id));
      signals.push(
        ...this.#subagentEnd(block.tool_use_id, (message as { tool_use_result?: unknown }).tool_use_result),
      );
      signals.push({
        kind: "event",
        event: { type: "agent", step: this.#step, phase: "end", agent: name },
      });
    }
    return signals;
  }

  /** The subagent of an Agent call is running: shown once, when the binary registered its task. */
  #agentStarted(toolUseId: string): SessionSignal[] {
    const call = this.#agentCalls.get(toolUseId);
    if (!call) return [];
    this.#agentCalls.delete(toolUseId);
    return [
      {
        kind: "event",
        event: {
          type: "agent",
          step: this.#step,
          phase: "start",
          agent: call.agent,
          description: call.description,
        },
      },
    ];
  }

  #result(message: Extract<SDKMessage, { type: "result" }>): SessionSignal[] {
    const reading = this.reading;
    const signals = this.#knowSession(message.session_id);
    reading.sawResult = true;
    reading.numTurns += message.num_turns;
    reading.costTotal = message.total_cost_usd;
    reading.lastResultIsError = message.is_error;
    reading.limitReached = LIMIT_SUBTYPES.has(message.subtype);
    // An API error's status and type ride on the result (absent from older binaries and other results).
    const api = message as { api_error_status?: number | null; api_error_type?: string | null };
    if (typeof api.api_error_status === "number") reading.apiStatus = api.api_error_status;
    if (typeof api.api_error_type === "string") reading.apiErrorType = api.api_error_type;
    if (message.subtype === "success" && !message.is_error) {
      reading.resultText = message.result;
      reading.resultError = null;
    } else {
      const errors = "errors" in message && Array.isArray(message.errors) ? message.errors : [];
      const text = "result" in message && typeof message.result === "string" ? message.result : "";
      // An API error comes as subtype "success" with is_error: the label says nothing, the text says it all.
      const label = message.subtype === "success" ? "" : message.subtype;
      reading.resultError = clearError([label, text, ...errors, reading.apiErrorText], ": ");
    }
    signals.push({ kind: "result", backgroundRunning: this.#background.size > 0 });
    return signals;
  }
}
