/**
 * `flower handoff` seen from the step loop, over a scripted query: a request addressed to the driver is
 * acted on at the next main-thread boundary that issued calls (like a crossed line, below any line), the
 * writing turn is told whose words to put first, the frozen handoff and the successor's prompt lead
 * `next` with them, marked as the person's, and the ledger records who asked. A response that ends the
 * turn needs no handoff: the request is left alone. End to end: test/e2e/cli/handoff-on-demand.test.ts.
 */
import { readFileSync, rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { HandoffPolicy } from "../../../src/handoff/policy.js";
import type { HandoffRequest } from "../../../src/records/handoff-requests.js";
import type { HandoffRequestSource } from "../../../src/runtime/generations/handoff-request-watch.js";
import { response, result } from "../../support/scripted-query.js";
import { HANDOFF_ANSWER, session, stepHarness } from "../../support/step-harness.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const REQUEST: HandoffRequest = {
  id: "r1",
  step: "survey",
  lease: "token",
  next: "Sum data/a and data/b only",
  by: "ann@desk",
  at: "2026-11-30T12:00:00.000Z",
};

/** A channel whose request arrives after `boundaries` looks (the person asks mid-session). */
function channel(boundaries: number, request: HandoffRequest = REQUEST) {
  let looks = 0;
  const taken: string[] = [];
  const source: HandoffRequestSource = {
    pending: () => (looks++ >= boundaries && taken.length === 0 ? request : null),
    take: (r) => taken.push(r.id),
  };
  return { source, taken };
}

function harness(...args: Parameters<typeof stepHarness>) {
  const h = stepHarness(...args);
  dirs.push(h.workspace);
  return h;
}

describe("a handoff a person asked for", () => {
  it("hands off at the next boundary, far below the line, with the person's words first in next", async () => {
    const { source, taken } = channel(1);
    const h = harness(
      [
        session(
          "s1",
          response("s1", 12_000, "tool_use"),
          // The person asked by now: the interrupt lands at this boundary.
          response("s1", 13_000, "tool_use"),
          response("s1", 14_000),
          result("s1", { text: "never" }),
        ),
        session("s1", result("s1", { text: HANDOFF_ANSWER })),
        session("s2", response("s2", 5_000), result("s2", { text: "Summed." })),
      ],
      {},
      "flower-ondemand-",
      { handoffRequests: source },
    );
    const done = await h.run.run();
    expect(done.status).toBe("done");
    expect(done.generations).toBe(2);
    h.assertComplete();

    const marked = "- From ann@desk via flower handoff: Sum data/a and data/b only";
    // The writing turn (same session) is told who asked and what to put first.
    expect(h.calls[1]!.prompt).toContain("a person asked for this handoff with flower handoff");
    expect(h.calls[1]!.prompt).toContain(marked);
    // The successor starts from the person's words, first under next, the model's next step after them.
    const successor = h.calls[2]!.prompt;
    expect(successor).toContain(marked);
    expect(successor.indexOf(marked)).toBeLessThan(successor.indexOf("Sum the per-file counts."));
    const record = h.run.record;
    expect(readFileSync(record.handoffs[0]!, "utf8")).toContain(marked);
    expect(record.handoffRequests).toEqual([
      { by: "ann@desk", at: REQUEST.at, next: REQUEST.next, generation: 1 },
    ]);
    expect(taken).toEqual(["r1"]);
    expect(h.events).toContainEqual({
      type: "handoff-request",
      step: "survey",
      by: "ann@desk",
      next: REQUEST.next,
    });
  });

  it("without words: a plain handoff, noted as the person's", async () => {
    const { source } = channel(0, { ...REQUEST, next: null });
    const h = harness(
      [
        session("s1", response("s1", 12_000, "tool_use"), response("s1", 13_000), result("s1")),
        session("s1", result("s1", { text: HANDOFF_ANSWER })),
        session("s2", response("s2", 5_000), result("s2", { text: "Summed." })),
      ],
      { locale: "zh" },
      "flower-ondemand-",
      { handoffRequests: source },
    );
    await h.run.run();
    expect(h.calls[2]!.prompt).toContain("- ann@desk 用 flower handoff 要求了这次交接(没有留话)。");
    expect(h.run.record.handoffRequests?.[0]?.next).toBeNull();
  });

  it("is honoured with automatic handoffs off (--no-handoff): the person's is the only one", async () => {
    const { source, taken } = channel(0);
    const h = harness(
      [
        session("s1", response("s1", 12_000, "tool_use"), response("s1", 13_000), result("s1")),
        session("s1", result("s1", { text: HANDOFF_ANSWER })),
        session("s2", response("s2", 95_000), result("s2", { text: "Summed." })),
      ],
      { policy: new HandoffPolicy({ enabled: false, window: 100_000, headroom: 50_000 }) },
      "flower-ondemand-",
      { handoffRequests: source },
    );
    const done = await h.run.run();
    expect(done.generations).toBe(2);
    expect(taken).toEqual(["r1"]);
  });

  it("leaves the request alone when the session ends its turn on its own", async () => {
    const { source, taken } = channel(0);
    const h = harness(
      [session("s1", response("s1", 12_000), result("s1", { text: "All counted." }))],
      {},
      "flower-ondemand-",
      { handoffRequests: source },
    );
    const done = await h.run.run();
    expect(done.status).toBe("done");
    expect(done.generations).toBe(1);
    expect(taken).toEqual([]);
    expect(h.run.record.handoffRequests).toBeUndefined();
  });
});
