/**
 * Capturing the calls a handoff interrupt cuts: the translator keeps the tool calls of the main thread's
 * latest response that have not come back, and a handoff-due outcome carries them.
 */
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { classifySession } from "../../../src/runtime/session/session-outcome.js";
import { SessionTranslator } from "../../../src/runtime/session/session-translator.js";

const start = (parent: string | null = null) =>
  ({
    type: "stream_event",
    parent_tool_use_id: parent,
    session_id: "s1",
    event: { type: "message_start", message: { usage: { input_tokens: 50_000 } } },
  }) as unknown as SDKMessage;

const delta = (parent: string | null = null) =>
  ({
    type: "stream_event",
    parent_tool_use_id: parent,
    session_id: "s1",
    event: { type: "message_delta", usage: { output_tokens: 20 }, delta: { stop_reason: "tool_use" } },
  }) as unknown as SDKMessage;

const assistant = (
  blocks: Array<{ id: string; name: string; input: object }>,
  parent: string | null = null,
) =>
  ({
    type: "assistant",
    parent_tool_use_id: parent,
    session_id: "s1",
    message: { content: blocks.map((block) => ({ type: "tool_use", ...block })) },
  }) as unknown as SDKMessage;

const results = (
  blocks: Array<{ id: string; text: string; isError?: boolean }>,
  parent: string | null = null,
) =>
  ({
    type: "user",
    parent_tool_use_id: parent,
    session_id: "s1",
    message: {
      role: "user",
      content: blocks.map((block) => ({
        type: "tool_result",
        tool_use_id: block.id,
        content: [{ type: "text", text: block.text }],
        is_error: block.isError ?? false,
      })),
    },
  }) as unknown as SDKMessage;

const interrupted = "The user doesn't want to proceed with this tool use. The tool use was rejected ...";

const delegation = {
  id: "toolu_2",
  name: "Agent",
  input: { subagent_type: "reader", description: "read it", prompt: "Read big-0.txt and report." },
};

function read(messages: SDKMessage[]): SessionTranslator {
  const translator = new SessionTranslator("survey");
  for (const message of messages) translator.read(message);
  return translator;
}

describe("the calls of the latest main-thread response", () => {
  it("are open until their result comes back; an interrupted result leaves them open", () => {
    const translator = read([
      start(),
      assistant([{ id: "toolu_1", name: "Bash", input: { command: "npm test" } }, delegation]),
      delta(),
      results([
        { id: "toolu_1", text: "exit 1", isError: true },
        { id: "toolu_2", text: interrupted, isError: true },
      ]),
    ]);
    expect(translator.reading.openCalls).toEqual([
      {
        tool: "Agent",
        subagentType: "reader",
        description: "read it",
        summary: "Read big-0.txt and report.",
      },
    ]);
  });

  it("a new main-thread response settles the previous one's calls; a subagent's calls never count", () => {
    const translator = read([
      start(),
      assistant([delegation]),
      delta(),
      // The subagent works: its responses and calls are not the main thread's.
      start("toolu_2"),
      assistant([{ id: "toolu_9", name: "Read", input: { file_path: "big-0.txt" } }], "toolu_2"),
      delta("toolu_2"),
    ]);
    expect(translator.reading.openCalls.map((call) => call.tool)).toEqual(["Agent"]);
    const next = read([start(), assistant([delegation]), delta(), start()]);
    expect(next.reading.openCalls).toEqual([]);
  });

  it("only a handoff-due outcome carries them as cut calls", () => {
    const translator = read([start(), assistant([delegation]), delta()]);
    const reading = { ...translator.reading, sawResult: true, lastResultIsError: true };
    const ending = { stopRequested: false, thrown: undefined };
    const due = classifySession({ ...ending, handoffRequested: true, reading });
    expect(due.kind).toBe("handoff-due");
    expect(due.cutCalls).toEqual(translator.reading.openCalls);
    expect(due.cutCalls).toHaveLength(1);
    const failed = classifySession({ ...ending, handoffRequested: false, reading });
    expect(failed.cutCalls).toEqual([]);
  });
});
