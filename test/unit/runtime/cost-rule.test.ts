/**
 * The cost rule over a scripted query: `HandoffPolicy({ rule: "cost" })` hands off far below the line
 * once staying has cost as much as a handoff; the same session under the seeds' line runs on.
 */
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { HandoffPolicy } from "../../../src/handoff/policy.js";
import { response, result } from "../../support/scripted-query.js";
import { HANDOFF_ANSWER, session, useStepHarness } from "../../support/step-harness.js";

const harness = useStepHarness();

/** The cost rule at a 100k window (line 50k), a handoff priced with a 500-token document. */
function costPolicy(maxGenerations?: number): HandoffPolicy {
  return new HandoffPolicy({
    window: 100_000,
    headroom: 50_000,
    rule: "cost",
    handoffOutputTokens: 500,
    ...(maxGenerations === undefined ? {} : { maxGenerations }),
  });
}

/** Main-thread responses of one session growing 3,000 tokens a turn from a 5,000-token floor. */
function growing(id: string, turns: number): SDKMessage[] {
  const messages: SDKMessage[] = [];
  for (let turn = 0; turn < turns; turn++) messages.push(...response(id, 5_000 + 3_000 * turn, "tool_use"));
  return messages;
}

describe("HandoffPolicy rule: cost", () => {
  it("hands off where staying has cost a handoff, far below the line", async () => {
    // Handoff priced with a 500-token document: 0.1 × context + 5 × 500 + 1.25 × (5,000 + 500).
    // Turn 9 (32,000): re-read above the floor 0.1 × 3,000 × (1 + … + 9) = 13,500 ≥ 12,575 (due);
    // turn 8 (29,000): 10,800 < 12,275 (not yet).
    const policy = costPolicy();
    const h = harness(
      [
        session("s1", growing("s1", 10), response("s1", 35_000), result("s1", { text: "never" })),
        session("s1", response("s1", 33_000), result("s1", { text: HANDOFF_ANSWER })),
        session("s2", response("s2", 6_000), result("s2", { text: "done" })),
      ],
      { policy },
    );
    const step = await h.run.run();
    expect(step).toMatchObject({ generations: 2, degraded: 0, result: "done" });
    expect(h.saves.at(-1)!.history[0]).toMatchObject({ context: 32_000 });
    expect(policy.at).toBe(50_000);
    h.assertComplete();
  });

  it("under the seeds' line the same session runs on", async () => {
    const policy = new HandoffPolicy({ window: 100_000, headroom: 50_000, handoffOutputTokens: 500 });
    const h = harness(
      [session("s1", growing("s1", 10), response("s1", 35_000), result("s1", { text: "finished" }))],
      { policy },
    );
    const step = await h.run.run();
    expect(step).toMatchObject({ generations: 1, result: "finished" });
    h.assertComplete();
  });
});

describe("HandoffPolicy rule: cost, at maxGenerations", () => {
  it("stops at a cap the caller set, saying so, not blaming the window", async () => {
    const policy = costPolicy(1);
    const h = harness(
      [session("s1", growing("s1", 10), response("s1", 35_000), result("s1", { text: "never" }))],
      {
        policy,
      },
    );
    const step = await h.run.run().catch((error: unknown) => error);
    const text = JSON.stringify(step instanceof Error ? step.message : step);
    expect(text).toContain("reached the maxGenerations you set (1)");
    expect(text).not.toContain("raise window");
  });
});
