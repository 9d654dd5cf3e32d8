import { readFileSync } from "node:fs";
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import {
  SessionTranslator,
  summariseToolInput,
  type SessionSignal,
} from "../../../src/runtime/session/session-translator.js";

const recorded = JSON.parse(
  readFileSync(new URL("./fixtures/sdk-session-background-agent.json", import.meta.url), "utf8"),
) as SDKMessage[];

function readAll(messages: SDKMessage[]): { translator: SessionTranslator; signals: SessionSignal[] } {
  const translator = new SessionTranslator("survey");
  const signals = messages.flatMap((message) => translator.read(message));
  return { translator, signals };
}

describe("SessionTranslator on a recorded session", () => {
  const { translator, signals } = readAll(recorded);
  const sessionId = recorded.find((m) => m.type === "system")!.session_id;

  it("reports the session id once, from system/init", () => {
    expect(signals.filter((s) => s.kind === "session")).toEqual([{ kind: "session", sessionId }]);
    expect(translator.reading.sessionId).toBe(sessionId);
  });

  it("counts only the main thread's responses, with their context", () => {
    const responses = signals.filter((s) => s.kind === "main-response");
    const mainDeltas = recorded.filter(
      (m) =>
        m.type === "stream_event" &&
        m.parent_tool_use_id === null &&
        (m.event as { type: string }).type === "message_delta",
    );
    expect(responses).toHaveLength(mainDeltas.length);
    expect(translator.reading.mainResponses).toBe(mainDeltas.length);
    for (const response of responses)
      expect(response.kind === "main-response" && response.context > 5000).toBe(true);
    // The first response ended in a tool call, the last ended the turn.
    expect(responses[0]).toMatchObject({ stopReason: "tool_use" });
    expect(responses.at(-1)).toMatchObject({ stopReason: "end_turn" });
  });

  it("shows the main thread's tool call and the subagent's start and end", () => {
    const events = signals.flatMap((s) => (s.kind === "event" ? [s.event] : []));
    expect(events).toContainEqual({
      type: "tool-use",
      step: "survey",
      agent: "coordinator",
      tool: "Bash",
      summary: "echo main-out",
    });
    expect(events).toContainEqual(
      expect.objectContaining({ type: "agent", phase: "start", agent: "helper" }),
    );
    expect(events).toContainEqual({ type: "agent", step: "survey", phase: "end", agent: "helper" });
    // The subagent's own Bash call is attributed to the subagent.
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "tool-use",
        agent: "helper",
        tool: "Bash",
        summary: "echo worker-out",
      }),
    );
  });

  it("keeps the session open while a background task runs, and ends it after the last result", () => {
    const results = signals.filter((s) => s.kind === "result");
    expect(results).toEqual([
      { kind: "result", backgroundRunning: true },
      { kind: "result", backgroundRunning: false },
    ]);
    expect(translator.reading).toMatchObject({
      sawResult: true,
      lastResultIsError: false,
      resultText: "All done.",
    });
    expect(translator.reading.numTurns).toBeGreaterThan(1);
  });
});

describe("SessionTranslator on error results", () => {
  it("joins the subtype, text and the API error's words", () => {
    const { translator } = readAll([
      {
        type: "assistant",
        parent_tool_use_id: null,
        error: "invalid_request",
        message: {
          content: [{ type: "text", text: "prompt is too long: 1000001 tokens > 1000000 maximum" }],
        },
      },
      {
        type: "result",
        subtype: "error_during_execution",
        is_error: true,
        num_turns: 2,
        total_cost_usd: 0.5,
        session_id: "s",
        errors: ["boom"],
      },
    ] as unknown as SDKMessage[]);
    expect(translator.reading.resultError).toBe(
      "error_during_execution: boom: prompt is too long: 1000001 tokens > 1000000 maximum",
    );
    expect(translator.reading).toMatchObject({ lastResultIsError: true, resultText: null, costTotal: 0.5 });
  });

  it("marks maxTurns and maxBudgetUsd as limits the user set", () => {
    for (const subtype of ["error_max_turns", "error_max_budget_usd"]) {
      const { translator } = readAll([
        { type: "result", subtype, is_error: true, num_turns: 3, total_cost_usd: 1, session_id: "s" },
      ] as unknown as SDKMessage[]);
      expect(translator.reading.limitReached).toBe(true);
    }
  });
});

describe("summariseToolInput", () => {
  it("picks the argument that says what the call does, cut to one line of 120", () => {
    expect(summariseToolInput({ command: "ls -la" })).toBe("ls -la");
    expect(summariseToolInput({ file_path: "/a/b.ts", limit: 3 })).toBe("/a/b.ts");
    expect(summariseToolInput({ command: "x".repeat(300) })).toHaveLength(120);
    expect(summariseToolInput({ other: 1 })).toBe("");
  });
});

describe("SessionTranslator on API errors (shapes as binary 2.1.332 sends them)", () => {
  const init = { type: "system", subtype: "init", session_id: "s1" };
  const retry = {
    type: "system",
    subtype: "api_retry",
    attempt: 1,
    max_retries: 2,
    retry_delay_ms: 593,
    error_status: 401,
    error: "authentication_failed",
    session_id: "s1",
  };
  const errorResult = {
    type: "result",
    subtype: "success",
    is_error: true,
    num_turns: 1,
    total_cost_usd: 0,
    session_id: "s1",
    result: "Failed to authenticate. API Error: 403 Forbidden",
    api_error_status: 403,
    api_error_type: "permission_error",
  };

  it("an api_retry is a signal and the reading's status; the result's status wins later", () => {
    const { translator, signals } = readAll([init, retry] as unknown as SDKMessage[]);
    expect(signals.at(-1)).toEqual({ kind: "api-retry", status: 401, error: "authentication_failed" });
    expect(translator.reading).toMatchObject({
      started: true,
      apiStatus: 401,
      apiErrorType: "authentication_failed",
    });
    translator.read(errorResult as unknown as SDKMessage);
    expect(translator.reading).toMatchObject({ apiStatus: 403, apiErrorType: "permission_error" });
  });

  it("a subagent's failed request is not the session's error type; no init means not started", () => {
    const workerError = {
      type: "assistant",
      parent_tool_use_id: "toolu_1",
      error: "invalid_request",
      message: { content: [{ type: "text", text: "API Error: 400 prompt is too long" }] },
      session_id: "s1",
    };
    const { translator } = readAll([workerError] as unknown as SDKMessage[]);
    expect(translator.reading).toMatchObject({ started: false, apiErrorType: null });
  });
});

describe("SessionTranslator: a subagent is started when the binary registers its task", () => {
  /** The main thread's Agent call, as the binary forwards it. */
  const agentCall = {
    type: "assistant",
    parent_tool_use_id: null,
    message: {
      content: [
        {
          type: "tool_use",
          id: "toolu_a",
          name: "Agent",
          input: { subagent_type: "engineer", description: "Write the table", prompt: "Write it." },
        },
      ],
    },
    session_id: "s1",
  };
  const result = (content: string, isError: boolean) => ({
    type: "user",
    parent_tool_use_id: null,
    message: { content: [{ type: "tool_result", tool_use_id: "toolu_a", is_error: isError, content }] },
    tool_use_result: isError ? `Error: ${content}` : { status: "completed" },
    session_id: "s1",
  });
  const events = (messages: unknown[]) =>
    readAll(messages as SDKMessage[]).signals.flatMap((signal) =>
      signal.kind === "event" ? [signal.event] : [],
    );

  it("a call the binary refused (no Agent tool in this step) is a denial, never a subagent that started", () => {
    // As the bundled binary answers an Agent call in a session without the tool: no task_started.
    const refused = result(
      "<tool_use_error>Error: No such tool available: Agent. Agent is disabled for this session, in subagents as well as here.</tool_use_error>",
      true,
    );
    expect(events([agentCall, refused])).toEqual([
      {
        type: "tool-denied",
        step: "survey",
        tool: "Agent",
        command: "engineer: Write the table",
        reason:
          "No such tool available: Agent. Agent is disabled for this session, in subagents as well as here.",
      },
    ]);
  });

  it("a subagent that ran: started at its task_started, done at its result", () => {
    const started = {
      type: "system",
      subtype: "task_started",
      task_id: "t1",
      tool_use_id: "toolu_a",
      description: "Write the table",
      is_backgrounded: false,
      session_id: "s1",
    };
    const subagentCall = {
      type: "assistant",
      parent_tool_use_id: "toolu_a",
      message: {
        content: [{ type: "tool_use", id: "toolu_b", name: "Write", input: { file_path: "t.md" } }],
      },
      session_id: "s1",
    };
    expect(
      events([agentCall, started, subagentCall, result("done", false)]).map((event) =>
        event.type === "agent"
          ? `${event.agent} ${event.phase}`
          : `${event.type} ${"agent" in event ? event.agent : ""}`,
      ),
    ).toEqual(["engineer start", "tool-use engineer", "engineer end"]);
    // A binary that names no task: started and done, said together at the result.
    expect(
      events([agentCall, result("done", false)]).map((event) =>
        event.type === "agent" ? event.phase : event.type,
      ),
    ).toEqual(["start", "end"]);
  });
});
