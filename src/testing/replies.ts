/**
 * What a policy may answer. A reply is either content (text and tool_use blocks, streamed like the
 * real API) or a fault. Everything a policy returns is checked before a byte is sent, so a typo in a
 * test script is a clear error, not a hung CLI.
 */
import { FakeModelError, describeValue } from "../errors.js";
import type { ModelRequest } from "./model-request.js";

export interface TextBlock {
  type: "text";
  text: string;
}

export interface ToolUseBlock {
  type: "tool_use";
  name: string;
  input: Record<string, unknown>;
  /** Generated (`toolu_<n>`) when omitted. */
  id?: string;
}

export type ReplyBlock = TextBlock | ToolUseBlock;

export interface ContentReply {
  content: ReplyBlock[];
  /** Wait this long before the first byte (a slow reply). */
  delayMs?: number;
  /** Override the computed output token count. */
  outputTokens?: number;
}

export type FaultKind =
  /** 529 overloaded_error: the CLI retries it itself. */
  | "overloaded"
  /** 500 api_error: the CLI retries it itself. */
  | "server-error"
  /** 400 invalid_request_error "prompt is too long: N tokens > W maximum". */
  | "prompt-too-long"
  /** message_start and half a text block, then the socket is destroyed. */
  | "cut-stream"
  /** message_start, a tool_use block and half of its input JSON, then the socket is destroyed. */
  | "cut-tool-input"
  /**
   * 400 invalid_request_error with `message` (default: a gateway refusing a tool it does not know), as a
   * provider answers a request it will never accept: the CLI does not retry it.
   */
  | "invalid-request"
  /**
   * 401 authentication_error "invalid x-api-key", as the real API answers a wrong key (`message` overrides
   * the text). The binary retries it itself (CLAUDE_CODE_MAX_RETRIES) unless its driver stops it.
   */
  | "unauthorized"
  /** 403 permission_error (`message` overrides the text): the key may not use this. Not retried by the binary. */
  | "forbidden";

export interface FaultReply {
  fault: FaultKind;
  delayMs?: number;
  /** The error message of an `invalid-request`, `unauthorized` or `forbidden` fault. */
  message?: string;
}

export type Reply = ContentReply | FaultReply;

/** A text-only reply. */
export function text(value: string, options: { delayMs?: number } = {}): ContentReply {
  return { content: [{ type: "text", text: value }], ...options };
}

/** A reply that calls one tool, optionally after some text. */
export function toolUse(
  name: string,
  input: Record<string, unknown>,
  options: { text?: string; id?: string } = {},
): ContentReply {
  const content: ReplyBlock[] = [];
  if (options.text !== undefined) content.push({ type: "text", text: options.text });
  content.push({ type: "tool_use", name, input, ...(options.id ? { id: options.id } : {}) });
  return { content };
}

/** A reply that calls several tools in parallel (one assistant message, several tool_use blocks). */
export function toolUses(
  calls: Array<{ name: string; input: Record<string, unknown> }>,
  leadingText?: string,
): ContentReply {
  const content: ReplyBlock[] = [];
  if (leadingText !== undefined) content.push({ type: "text", text: leadingText });
  for (const call of calls) content.push({ type: "tool_use", name: call.name, input: call.input });
  return { content };
}

export function fault(kind: FaultKind, options: { delayMs?: number; message?: string } = {}): FaultReply {
  return { fault: kind, ...options };
}

const FAULTS: readonly FaultKind[] = [
  "overloaded",
  "server-error",
  "prompt-too-long",
  "cut-stream",
  "cut-tool-input",
  "invalid-request",
  "unauthorized",
  "forbidden",
];

/** Checks a policy's answer; throws FakeModelError that says exactly what is wrong. */
export function validateReply(reply: unknown, requestIndex: number): Reply {
  const where = `fake model: the policy's reply to request #${requestIndex}`;
  if (reply === null || typeof reply !== "object") {
    throw new FakeModelError(
      `${where} is ${describeValue(reply)}; return text("..."), toolUse(...), or fault(...)`,
    );
  }
  const candidate = reply as Record<string, unknown>;
  if (candidate.delayMs !== undefined && !(typeof candidate.delayMs === "number" && candidate.delayMs >= 0)) {
    throw new FakeModelError(
      `${where} has delayMs ${describeValue(candidate.delayMs)}; expected a number >= 0`,
    );
  }
  if ("fault" in candidate) {
    if (!FAULTS.includes(candidate.fault as FaultKind)) {
      throw new FakeModelError(
        `${where} has unknown fault ${describeValue(candidate.fault)}; known: ${FAULTS.join(", ")}`,
      );
    }
    if (candidate.message !== undefined && typeof candidate.message !== "string") {
      throw new FakeModelError(`${where} has message ${describeValue(candidate.message)}; expected a string`);
    }
    return candidate as unknown as FaultReply;
  }
  if (!Array.isArray(candidate.content) || candidate.content.length === 0) {
    throw new FakeModelError(
      `${where} has no content blocks; expected content: [{ type: "text" | "tool_use", ... }]`,
    );
  }
  candidate.content.forEach((block: unknown, index: number) => {
    const b = block as Record<string, unknown> | null;
    const at = `${where}, block ${index}`;
    if (!b || typeof b !== "object") throw new FakeModelError(`${at} is ${describeValue(block)}`);
    if (b.type === "text") {
      if (typeof b.text !== "string")
        throw new FakeModelError(`${at}: text must be a string, got ${describeValue(b.text)}`);
    } else if (b.type === "tool_use") {
      if (typeof b.name !== "string" || b.name === "") {
        throw new FakeModelError(`${at}: tool_use needs a tool name, got ${describeValue(b.name)}`);
      }
      if (!b.input || typeof b.input !== "object" || Array.isArray(b.input)) {
        throw new FakeModelError(`${at}: tool_use input must be an object, got ${describeValue(b.input)}`);
      }
    } else {
      throw new FakeModelError(
        `${at} has unknown block type ${describeValue(b.type)}; the kit sends "text" and "tool_use"`,
      );
    }
  });
  return candidate as unknown as ContentReply;
}

/**
 * A content reply that reuses a tool_use id already in the conversation: the real CLI hangs on it
 * instead of failing, so the kit refuses it with this error. Null when every id is new.
 */
export function reusedToolUseId(reply: Reply, request: ModelRequest): FakeModelError | null {
  if ("fault" in reply) return null;
  const used = new Set(request.toolCalls().map((call) => call.id));
  for (const block of reply.content) {
    if (block.type !== "tool_use" || block.id === undefined) continue;
    if (used.has(block.id)) {
      return new FakeModelError(
        `fake model: the policy's reply to request #${request.index} reuses tool_use id ${JSON.stringify(block.id)}; ids must be unique in a conversation`,
      );
    }
    used.add(block.id);
  }
  return null;
}

/** Side requests get a sensible answer when the policy returns nothing; conversation requests do not. */
export function defaultReply(request: ModelRequest): ContentReply {
  if (request.kind === "title")
    return { content: [{ type: "text", text: JSON.stringify({ title: "Offline session" }) }] };
  if (request.kind === "compact") {
    return {
      content: [
        { type: "text", text: "<summary>Earlier work was summarised by the offline model kit.</summary>" },
      ],
    };
  }
  throw new FakeModelError(
    `fake model: the policy returned nothing for request #${request.index} (${request.kind}); ` +
      `last user text: ${JSON.stringify(request.lastUserText().slice(0, 120))}`,
  );
}
