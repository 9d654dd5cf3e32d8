/**
 * An in-process stand-in for the SDK's `query()`, for unit tests of the step loop (the runtime's
 * `_internal.query` seam). Each call plays the next scripted session: a function of the prompt and
 * options that returns the SDK messages the session emits. `interrupt()` ends the session after the
 * message being read, with the error result the CLI gives an interrupted turn. End-to-end tests use the
 * real binary and the offline kit instead.
 */
import type { Options, Query, SDKMessage, SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";

export interface ScriptedCall {
  prompt: string;
  options: Options | undefined;
}

export type ScriptedSession = (call: ScriptedCall) => SDKMessage[] | Promise<SDKMessage[]>;

export interface ScriptedQuery {
  query: (input: { prompt: AsyncIterable<SDKUserMessage>; options?: Options }) => Query;
  calls: ScriptedCall[];
  /** Throws when scripted sessions were left over. */
  assertComplete: () => void;
}

export function scriptedQuery(sessions: ScriptedSession[]): ScriptedQuery {
  const calls: ScriptedCall[] = [];
  let next = 0;
  return {
    calls,
    assertComplete() {
      if (next < sessions.length)
        throw new Error(`${sessions.length - next} scripted session(s) left over (played ${next})`);
    },
    query({ prompt, options }) {
      const index = next++;
      const script = sessions[index];
      let interrupted = false;
      let closed = false;
      async function* play(): AsyncGenerator<SDKMessage, void> {
        const first = await prompt[Symbol.asyncIterator]().next();
        const content = first.done ? "" : first.value.message.content;
        const text = typeof content === "string" ? content : JSON.stringify(content);
        const call = { prompt: text, options };
        calls.push(call);
        if (!script) throw new Error(`query() called past the script (call ${index + 1})`);
        const messages = await script(call);
        for (const message of messages) {
          if (closed) return;
          yield message;
          if (interrupted) {
            const sessionId = messages.find((m) => "session_id" in m)?.session_id ?? "interrupted";
            yield result(sessionId, { subtype: "error_during_execution", isError: true });
            return;
          }
        }
      }
      const generator = play();
      return Object.assign(generator, {
        interrupt: async () => {
          interrupted = true;
        },
        close: () => {
          closed = true;
        },
      }) as unknown as Query;
    },
  };
}

export function init(sessionId: string): SDKMessage {
  return { type: "system", subtype: "init", session_id: sessionId } as unknown as SDKMessage;
}

/** One main-thread API response: prompt tokens in, output tokens out, and why it stopped. */
export function response(
  sessionId: string,
  context: number,
  stopReason: "tool_use" | "end_turn" = "end_turn",
): SDKMessage[] {
  return [
    {
      type: "stream_event",
      parent_tool_use_id: null,
      session_id: sessionId,
      event: { type: "message_start", message: { usage: { input_tokens: context - 10, output_tokens: 1 } } },
    },
    {
      type: "stream_event",
      parent_tool_use_id: null,
      session_id: sessionId,
      event: { type: "message_delta", usage: { output_tokens: 10 }, delta: { stop_reason: stopReason } },
    },
  ] as unknown as SDKMessage[];
}

export function result(
  sessionId: string,
  options: { text?: string; subtype?: string; isError?: boolean; turns?: number; cost?: number } = {},
): SDKMessage {
  const subtype = options.subtype ?? "success";
  return {
    type: "result",
    subtype,
    is_error: options.isError ?? false,
    num_turns: options.turns ?? 1,
    total_cost_usd: options.cost ?? 0.01,
    session_id: sessionId,
    ...(subtype === "success" ? { result: options.text ?? "done" } : { errors: [] }),
  } as unknown as SDKMessage;
}

/** The CLI's answer to a prompt over the model's window: an API error in an assistant message, then the failed result. */
export function overflow(
  sessionId: string,
  text = "prompt is too long: 101000 tokens > 100000 maximum",
): SDKMessage[] {
  return [
    {
      type: "assistant",
      parent_tool_use_id: null,
      session_id: sessionId,
      error: "invalid_request",
      message: { content: [{ type: "text", text }] },
    },
    result(sessionId, { subtype: "error_during_execution", isError: true }),
  ] as unknown as SDKMessage[];
}
