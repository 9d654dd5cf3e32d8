/**
 * What the fake model writes on the wire, shaped like the real Messages API: JSON errors, a whole
 * message as JSON, or the same message as server-sent events (text in deltas, tool input as JSON
 * fragments), and the start of a stream that is then cut off.
 */
import type http from "node:http";
import type { ContentReply, FaultKind } from "./replies.js";
import type { Usage } from "./usage.js";

type ReplyContent = ContentReply["content"];

export function apiError(type: string, message: string) {
  return { type: "error", error: { type, message }, request_id: `req_fake_${Date.now().toString(36)}` };
}

/** Status, error type and message of the faults answered with an HTTP error. */
export const FAULT_STATUS: Record<
  Exclude<FaultKind, "cut-stream" | "cut-tool-input" | "prompt-too-long">,
  [number, string, string]
> = {
  overloaded: [529, "overloaded_error", "Overloaded"],
  "server-error": [500, "api_error", "Internal server error"],
  "invalid-request": [
    400,
    "invalid_request_error",
    "tools.0.type: Input tag 'custom' found using 'type' does not match any of the expected tags: 'bash_20250124', 'text_editor_20250124'",
  ],
  unauthorized: [401, "authentication_error", "invalid x-api-key"],
  forbidden: [
    403,
    "permission_error",
    "Your API key does not have permission to use the specified resource.",
  ],
};

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "request-id": `req_fake_${status}` });
  res.end(JSON.stringify(body));
}

export interface OutgoingMessage {
  model: string;
  id: string;
  /** The reply's blocks, every tool_use with its id. */
  content: ReplyContent;
  stopReason: "tool_use" | "end_turn";
  usage: Usage;
  /** Server-sent events (the CLI's default) or one JSON body (`stream: false`). */
  stream: boolean;
  /** Text is streamed in deltas of this many characters. */
  chunkChars: number;
}

/** Answers with a whole message: one JSON body, or a complete event stream. */
export function sendMessage(res: http.ServerResponse, message: OutgoingMessage): void {
  const { model, id, content, stopReason, usage } = message;
  if (!message.stream) {
    return sendJson(res, 200, {
      id,
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    });
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  writeEvent(res, "message_start", messageStart(model, id, { ...usage, output_tokens: 1 }));
  content.forEach((block, index) => {
    if (block.type === "text") {
      writeEvent(res, "content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const piece of chunks(block.text, message.chunkChars)) {
        writeEvent(res, "content_block_delta", { index, delta: { type: "text_delta", text: piece } });
      }
    } else {
      writeEvent(res, "content_block_start", {
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      // Tool input arrives as JSON fragments, as from the real API.
      for (const piece of chunks(
        JSON.stringify(block.input),
        Math.max(8, Math.ceil(JSON.stringify(block.input).length / 3)),
      )) {
        writeEvent(res, "content_block_delta", {
          index,
          delta: { type: "input_json_delta", partial_json: piece },
        });
      }
    }
    writeEvent(res, "content_block_stop", { index });
  });
  writeEvent(res, "message_delta", {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  writeEvent(res, "message_stop", {});
  res.end();
}

/** The first events of a text reply; the caller then destroys the socket mid-stream. */
export function startCutStream(res: http.ServerResponse, model: string, id: string, usage: Usage): void {
  res.writeHead(200, { "content-type": "text/event-stream" });
  writeEvent(res, "message_start", messageStart(model, id, usage));
  writeEvent(res, "content_block_start", { index: 0, content_block: { type: "text", text: "" } });
  writeEvent(res, "content_block_delta", {
    index: 0,
    delta: { type: "text_delta", text: "This reply is cut off mid-" },
  });
}

/** The first events of a tool call, its input JSON cut in the middle; the caller then destroys the socket. */
export function startCutToolStream(res: http.ServerResponse, model: string, id: string, usage: Usage): void {
  res.writeHead(200, { "content-type": "text/event-stream" });
  writeEvent(res, "message_start", messageStart(model, id, usage));
  writeEvent(res, "content_block_start", {
    index: 0,
    content_block: { type: "tool_use", id: `toolu_cut_${id}`, name: "Bash", input: {} },
  });
  writeEvent(res, "content_block_delta", {
    index: 0,
    delta: { type: "input_json_delta", partial_json: '{"command": "echo half-a-comm' },
  });
}

function messageStart(model: string, id: string, usage: Usage) {
  return {
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  };
}

function writeEvent(res: http.ServerResponse, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

function chunks(value: string, size: number): string[] {
  if (value.length === 0) return [""];
  const pieces: string[] = [];
  for (let i = 0; i < value.length; i += size) pieces.push(value.slice(i, i + size));
  return pieces;
}
