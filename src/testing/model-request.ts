/**
 * A read-only view of one request the CLI sent, with the questions a test script asks most:
 * is this the main thread or a subagent, what did the last tool return, is this the handoff turn.
 */
import { DOCUMENT_SIGNATURE_PATTERN } from "../documents/instructions.js";
import { HANDOFF_SIGNATURE } from "../handoff/prompt.js";

/** A content block as the CLI sends it (text, tool_use, tool_result, image, thinking, ...). */
export interface WireBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
  cache_control?: unknown;
  [key: string]: unknown;
}

export interface WireMessage {
  role: "user" | "assistant" | "system";
  content: string | WireBlock[];
}

export interface WireRequestBody {
  model: string;
  max_tokens?: number;
  stream?: boolean;
  system?: string | WireBlock[];
  tools?: Array<{ name: string; [key: string]: unknown }>;
  messages: WireMessage[];
  output_config?: { format?: unknown; [key: string]: unknown };
  [key: string]: unknown;
}

/** main thread, a subagent, or one of the CLI's side requests (title, compaction summary). */
export type RequestKind = "main" | "subagent" | "title" | "compact";

export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ToolResult {
  toolUseId: string;
  /** The name of the tool_use this answers, when that call is in the request. */
  name: string | undefined;
  input: Record<string, unknown> | undefined;
  /** The result's text (text blocks joined; images as "[image]"). */
  text: string;
  isError: boolean;
}

export function blocksOf(message: WireMessage): WireBlock[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

export function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: WireBlock) =>
      part.type === "text" ? (part.text ?? "") : part.type === "image" ? "[image]" : "",
    )
    .join("");
}

export class ModelRequest {
  /** 0-based position among all /v1/messages requests this server received. */
  readonly index: number;
  readonly body: WireRequestBody;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;

  constructor(index: number, body: WireRequestBody, headers: Record<string, string | string[] | undefined>) {
    this.index = index;
    this.body = body;
    this.headers = headers;
  }

  get model(): string {
    return this.body.model;
  }

  get sessionId(): string | undefined {
    const value = this.headers["x-claude-code-session-id"];
    return Array.isArray(value) ? value[0] : value;
  }

  /** The whole system prompt as one string. */
  get systemText(): string {
    const system = this.body.system;
    if (system === undefined) return "";
    if (typeof system === "string") return system;
    return system.map((block) => block.text ?? "").join("\n");
  }

  get toolNames(): string[] {
    return (this.body.tools ?? []).map((tool) => tool.name);
  }

  get messages(): WireMessage[] {
    return this.body.messages;
  }

  get kind(): RequestKind {
    if ((this.body.tools ?? []).length === 0 && this.body.output_config?.format !== undefined) return "title";
    if (this.lastUserText().includes("CRITICAL: Respond with TEXT ONLY")) return "compact";
    return this.isSubagent ? "subagent" : "main";
  }

  /** Subagent requests end `system[0]` with `cc_is_subagent=true;`. */
  get isSubagent(): boolean {
    const system = this.body.system;
    const first = typeof system === "string" ? system : (system?.[0]?.text ?? "");
    return first.includes("cc_is_subagent=true");
  }

  get isMainThread(): boolean {
    return this.kind === "main";
  }

  /** The turn in which flower asks the session to write its handoff. */
  get isHandoffTurn(): boolean {
    return this.lastUserText().includes(HANDOFF_SIGNATURE);
  }

  /**
   * The kind of document this session must end with ("requirements", "goal", or a custom kind) when it
   * is a workflow step that declared one: its system prompt carries the document's signature. A script
   * answers the requirements step with requirements and the goal step with a goal this way.
   */
  get documentKind(): string | undefined {
    if (!this.isMainThread) return undefined;
    return DOCUMENT_SIGNATURE_PATTERN.exec(this.systemText)?.[1];
  }

  /** Text of the last user message (tool results excluded). */
  lastUserText(): string {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const message = this.messages[i]!;
      if (message.role !== "user") continue;
      const texts = blocksOf(message).filter((block) => block.type === "text");
      if (texts.length > 0) return texts.map((block) => block.text ?? "").join("\n");
      return "";
    }
    return "";
  }

  /** Text of the first user message: the prompt of a session, or the brief of a subagent. */
  firstUserText(): string {
    const first = this.messages.find((message) => message.role === "user");
    return first
      ? blocksOf(first)
          .filter((block) => block.type === "text")
          .map((block) => block.text ?? "")
          .join("\n")
      : "";
  }

  /** Every user-visible text in the conversation, joined: handy for "does the model see X". */
  allText(): string {
    const parts: string[] = [];
    for (const message of this.messages) {
      for (const block of blocksOf(message)) {
        if (block.type === "text") parts.push(block.text ?? "");
        else if (block.type === "tool_result") parts.push(resultText(block.content));
        else if (block.type === "tool_use") parts.push(JSON.stringify(block.input));
      }
    }
    return parts.join("\n");
  }

  toolCalls(): ToolCall[] {
    const calls: ToolCall[] = [];
    for (const message of this.messages) {
      if (message.role !== "assistant") continue;
      for (const block of blocksOf(message)) {
        if (block.type === "tool_use") {
          calls.push({
            id: block.id ?? "",
            name: block.name ?? "",
            input: (block.input ?? {}) as Record<string, unknown>,
          });
        }
      }
    }
    return calls;
  }

  toolResults(): ToolResult[] {
    const calls = new Map(this.toolCalls().map((call) => [call.id, call]));
    const results: ToolResult[] = [];
    for (const message of this.messages) {
      if (message.role !== "user") continue;
      for (const block of blocksOf(message)) {
        if (block.type !== "tool_result") continue;
        const call = calls.get(block.tool_use_id ?? "");
        results.push({
          toolUseId: block.tool_use_id ?? "",
          name: call?.name,
          input: call?.input,
          text: resultText(block.content),
          isError: block.is_error === true,
        });
      }
    }
    return results;
  }

  /** The newest tool result, or undefined when the last user message holds none. */
  lastToolResult(): ToolResult | undefined {
    const last = [...this.messages].reverse().find((message) => message.role === "user");
    if (!last || !blocksOf(last).some((block) => block.type === "tool_result")) return undefined;
    return this.toolResults().at(-1);
  }

  /** How many tool results (optionally of one tool) the conversation holds: a script's step counter. */
  countToolResults(name?: string): number {
    return this.toolResults().filter((result) => name === undefined || result.name === name).length;
  }
}
