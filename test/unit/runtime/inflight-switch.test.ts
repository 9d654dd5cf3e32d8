/**
 * The switch and the calls in flight, over a scripted query: a crossing response that issued calls
 * with room left (below window − DEFAULTS.inflightMargin) lets them finish and hands off one boundary
 * later; without room it cuts them and names them. And the plan the main thread kept in TodoWrite
 * reaches the successor. End to end through the real binary: test/e2e/inflight-switch.e2e.test.ts.
 */
import { readFileSync } from "node:fs";
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../../../src/defaults.js";
import { response, result } from "../../support/scripted-query.js";
import { HANDOFF_ANSWER, session, useStepHarness } from "../../support/step-harness.js";

/** The harness's window is 100k, its line at 50k. */
const harness = useStepHarness();

const WINDOW = 100_000;
const ROOM_UNTIL = WINDOW - DEFAULTS.inflightMargin;

/** A main-thread assistant message issuing these calls. */
function calls(id: string, ...blocks: Array<{ id: string; name: string; input: Record<string, unknown> }>) {
  return {
    type: "assistant",
    parent_tool_use_id: null,
    session_id: id,
    message: { content: blocks.map((block) => ({ type: "tool_use", ...block })) },
  } as unknown as SDKMessage;
}

/** The results of calls coming back to the main thread. */
function results(id: string, ...answers: Array<{ id: string; text: string }>) {
  return {
    type: "user",
    parent_tool_use_id: null,
    session_id: id,
    message: {
      role: "user",
      content: answers.map((answer) => ({
        type: "tool_result",
        tool_use_id: answer.id,
        content: answer.text,
      })),
    },
  } as unknown as SDKMessage;
}

/** A response (context, stop reason) carrying `messages` between its start and its end. */
function responseWith(id: string, context: number, ...messages: SDKMessage[]): SDKMessage[] {
  const [start, delta] = response(id, context, "tool_use");
  return [start!, ...messages, delta!];
}

const DELEGATION = {
  id: "toolu_agent",
  name: "Agent",
  input: { subagent_type: "counter", description: "count b", prompt: "Count the lines in data/b/." },
};
const AGENT_CUT = '- Cut by the handoff (issued, did not run): Agent (counter) "count b"';

describe("the switch and the calls in flight", () => {
  it("with room left, lets the crossing response's Agent call finish and hands off one boundary later", async () => {
    const crossing = 60_000;
    expect(crossing).toBeLessThan(ROOM_UNTIL);
    const h = harness([
      session(
        "s1",
        response("s1", 35_000, "tool_use"),
        responseWith("s1", crossing, calls("s1", DELEGATION)),
        // The subagent ran: its report came back.
        results("s1", { id: "toolu_agent", text: "data/b/ has 120 lines." }),
        // The next response issues a Read: the boundary where the switch hands off; the Read is cut.
        responseWith(
          "s1",
          62_000,
          calls("s1", { id: "toolu_read", name: "Read", input: { file_path: "c.txt" } }),
        ),
        // Never read: the interrupt lands at the boundary before.
        response("s1", 70_000),
        result("s1", { text: "never" }),
      ),
      session("s1", response("s1", 63_000), result("s1", { text: HANDOFF_ANSWER })),
      session("s2", response("s2", 9_000), result("s2", { text: "done" })),
    ]);
    const step = await h.run.run();
    expect(step).toMatchObject({ generations: 2, degraded: 0, result: "done" });
    // The handoff came after the subagent's result: the record's last context of generation 1 is 62k.
    const record = h.saves.at(-1)!;
    expect(record.history[0]).toMatchObject({ context: 62_000 });
    expect(record.history[0]!.handoff).toMatchObject({ cutCalls: 1, finishedCalls: 1 });
    // Nobody is told to redo the delegation; the Read that was cut is named.
    const frozen = readFileSync(step.handoffs[0]!, "utf8");
    expect(frozen).not.toContain(AGENT_CUT);
    expect(frozen).toContain("- Cut by the handoff (issued, did not run): Read — c.txt");
    expect(h.calls[1]!.prompt).not.toContain("Count the lines in data/b/.");
    expect(h.calls[2]!.prompt).not.toContain("Count the lines in data/b/.");
    expect(h.events.find((e) => e.type === "handoff" && e.phase === "done")).toMatchObject({
      cutCalls: 1,
      finishedCalls: 1,
    });
    h.assertComplete();
  });

  it("with room left, a turn that ends after the calls came back needs no handoff at all", async () => {
    const h = harness([
      session(
        "s1",
        responseWith("s1", 60_000, calls("s1", DELEGATION)),
        results("s1", { id: "toolu_agent", text: "data/b/ has 120 lines." }),
        response("s1", 61_000, "end_turn"),
        result("s1", { text: "120 lines" }),
      ),
    ]);
    const step = await h.run.run();
    expect(step).toMatchObject({ generations: 1, result: "120 lines", handoffs: [] });
    h.assertComplete();
  });

  it("without room (window − margin reached), cuts the Agent call at once and names it", async () => {
    const crossing = ROOM_UNTIL;
    const h = harness([
      session(
        "s1",
        responseWith("s1", crossing, calls("s1", DELEGATION)),
        // Never read: the interrupt lands at the crossing response.
        results("s1", { id: "toolu_agent", text: "data/b/ has 120 lines." }),
        response("s1", 80_000, "end_turn"),
      ),
      session("s1", response("s1", 76_000), result("s1", { text: HANDOFF_ANSWER })),
      session("s2", response("s2", 9_000), result("s2", { text: "done" })),
    ]);
    const step = await h.run.run();
    expect(step).toMatchObject({ generations: 2, result: "done" });
    const line = `${AGENT_CUT} — Count the lines in data/b/.`;
    expect(h.calls[1]!.prompt).toContain(line);
    expect(readFileSync(step.handoffs[0]!, "utf8")).toContain(line);
    expect(h.calls[2]!.prompt).toContain(line);
    expect(h.saves.at(-1)!.history[0]!.handoff).toMatchObject({ cutCalls: 1, finishedCalls: 0 });
    h.assertComplete();
  });
});

describe("the plan across a handoff", () => {
  const todo = (content: string, status: string) => ({ content, status, activeForm: content });

  it("keeps the latest TodoWrite of the main thread in the record and hands it to the successor", async () => {
    const h = harness([
      session(
        "s1",
        responseWith(
          "s1",
          20_000,
          calls("s1", {
            id: "toolu_plan1",
            name: "TodoWrite",
            input: { todos: [todo("Count data/a/", "in_progress"), todo("Count data/b/", "pending")] },
          }),
        ),
        results("s1", { id: "toolu_plan1", text: "Todos have been modified successfully." }),
        // A subagent's own TodoWrite is its business, not the step's plan.
        {
          ...calls("s1", {
            id: "toolu_sub",
            name: "TodoWrite",
            input: { todos: [todo("WORKER-ONLY item", "pending")] },
          }),
          parent_tool_use_id: "toolu_worker",
        } as SDKMessage,
        responseWith(
          "s1",
          30_000,
          calls("s1", {
            id: "toolu_plan2",
            name: "TodoWrite",
            input: {
              todos: [
                todo("Count data/a/", "completed"),
                todo("Count data/b/", "in_progress"),
                todo("Sum the counts", "pending"),
              ],
            },
          }),
        ),
        results("s1", { id: "toolu_plan2", text: "Todos have been modified successfully." }),
        response("s1", 55_000, "tool_use"),
      ),
      session("s1", response("s1", 56_000), result("s1", { text: HANDOFF_ANSWER })),
      session("s2", response("s2", 9_000), result("s2", { text: "done" })),
    ]);
    const step = await h.run.run();
    expect(step.generations).toBe(2);
    expect(h.saves.at(-1)!.plan).toEqual([
      { content: "Count data/a/", status: "completed" },
      { content: "Count data/b/", status: "in_progress" },
      { content: "Sum the counts", status: "pending" },
    ]);
    const block = [
      "Plan at the handoff (TodoWrite; restore it with TodoWrite and go on from the first open item):",
      "- [x] Count data/a/",
      "- [~] (in progress) Count data/b/",
      "- [ ] Sum the counts",
    ].join("\n");
    expect(readFileSync(step.handoffs[0]!, "utf8")).toContain(`Sum the per-file counts.\n\n${block}`);
    expect(h.calls[2]!.prompt).toContain(block);
    expect(h.calls[2]!.prompt).not.toContain("WORKER-ONLY");
    h.assertComplete();
  });
});
