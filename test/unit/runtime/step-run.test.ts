/**
 * The step loop without the binary: StepRun over an in-process scripted query() and a recording
 * environment. End to end, the same paths run through the real binary in test/e2e/.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { StepFailedError } from "../../../src/errors.js";
import { MECHANICAL } from "../../../src/handoff/mechanical.js";
import { parseHandoff } from "../../../src/handoff/read-handoff.js";
import { REQUIREMENTS } from "../../../src/index.js";
import { init, overflow, response, result, type ScriptedSession } from "../../support/scripted-query.js";
import { HANDOFF_ANSWER, session, stepHarness, useStepHarness } from "../../support/step-harness.js";
import { newStepRecord } from "../../../src/records/step-record.js";

const harness = useStepHarness();

/** The main thread's Agent call to the counter (id toolu_7) in session s1, as the SDK streams it. */
function delegationTo(prompt: string): SDKMessage {
  return {
    type: "assistant",
    parent_tool_use_id: null,
    session_id: "s1",
    message: {
      content: [
        {
          type: "tool_use",
          id: "toolu_7",
          name: "Agent",
          input: { subagent_type: "counter", description: "count", prompt },
        },
      ],
    },
  } as unknown as SDKMessage;
}

describe("StepRun over a scripted query", () => {
  it("runs a step to its answer and books cost, the requests served and context", async () => {
    const h = harness([
      session("s1", response("s1", 12_000), result("s1", { text: "42 lines", turns: 3, cost: 0.25 })),
    ]);
    const step = await h.run.run();
    expect(step).toMatchObject({
      sessionId: "s1",
      result: "42 lines",
      generations: 1,
      attempts: 0,
      costUsd: 0.25,
      // The responses served (one here), not the SDK's num_turns (3), which counts a cut request too.
      numTurns: 1,
      context: 12_000,
    });
    expect(h.saves.at(-1)).toMatchObject({ status: "done", history: [{ sessionId: "s1", costUsd: 0.25 }] });
    expect(h.events.map((e) => e.type)).toEqual(["step-start", "context", "step-end"]);
    h.assertComplete();
  });

  it("counts the main thread's answered turns: a session that ended before its first answer has 0, not the SDK's num_turns", async () => {
    // As a Ctrl-C during the first request leaves it: the CLI's result counts the interrupted request.
    const h = harness([session("s1", result("s1", { text: "", turns: 2, cost: 0 }))]);
    await h.run.run().catch(() => undefined);
    expect(h.events.find((e) => e.type === "step-end")).toMatchObject({ turns: 0 });
    expect(h.saves.at(-1)?.history).toMatchObject([{ sessionId: "s1", turns: [] }]);
  });

  it("saves the frozen document and the step's end in one write: no record says frozen while still running", async () => {
    const answer = "## Task\nFix it.\n\n## Acceptance\n- It passes.\n";
    const h = harness(
      [session("s1", response("s1", 5_000), result("s1", { text: answer }))],
      (workspace) => ({
        freeze: { spec: REQUIREMENTS, run: "r1", notesDir: join(workspace, ".flower", "notes") },
      }),
    );
    await h.run.run();
    const frozen = h.saves.filter((record) => record.frozen);
    expect(frozen.map((record) => record.status)).toEqual(["done"]);
    expect(h.saves.at(-1)?.frozen?.path).toMatch(/requirements-r1\.md$/);
  });

  it("hands off past `at`: the same session writes, a new session takes over from the frozen file", async () => {
    const h = harness([
      session("s1", response("s1", 35_000, "tool_use"), response("s1", 55_000, "tool_use")),
      session("s1", response("s1", 56_000), result("s1", { text: HANDOFF_ANSWER, cost: 0.4 })),
      session("s2", response("s2", 9_000), result("s2", { text: "done", cost: 0.1 })),
    ]);
    const step = await h.run.run();
    expect(step).toMatchObject({
      sessionId: "s2",
      retired: ["s1"],
      generations: 2,
      degraded: 0,
      attempts: 0,
    });
    // The writing turn resumes the burned session; the successor is a new one, prompted with the file.
    expect(h.calls[1]!.options?.resume).toBe("s1");
    expect(h.calls[1]!.options?.env).toEqual({ WRITING: "true" });
    expect(h.calls[2]!.options?.resume).toBeUndefined();
    expect(h.calls[2]!.prompt).toContain("Sum the per-file counts.");
    const file = step.handoffs[0]!;
    expect(readFileSync(file, "utf8")).toContain("Counting the lines in data/.");
    // The interrupted session's cost (first result) and the writing turn's count once each.
    expect(step.costUsd).toBeCloseTo(0.5);
    // The writing turn shows nothing: no context event at 56k.
    const contexts = h.events.flatMap((e) => (e.type === "context" ? [e.context] : []));
    expect(contexts).toEqual([35_000, 55_000, 9_000]);
    expect(h.events.filter((e) => e.type === "handoff").map((e) => e.type === "handoff" && e.phase)).toEqual([
      "near",
      "writing",
      "done",
    ]);
    h.assertComplete();
  });

  it("names the calls the switch cut in the writing prompt, the frozen file and the record", async () => {
    const delegation = delegationTo("Count data/b/.");
    // At 80k of 100k there is no room to let the call finish (window − inflightMargin): it is cut.
    const [start, delta] = response("s1", 80_000, "tool_use");
    const h = harness([
      session("s1", response("s1", 35_000, "tool_use"), [start!, delegation, delta!]),
      session("s1", response("s1", 56_000), result("s1", { text: HANDOFF_ANSWER })),
      session("s2", response("s2", 9_000), result("s2", { text: "done" })),
    ]);
    const step = await h.run.run();
    const line = '- Cut by the handoff (issued, did not run): Agent (counter) "count" — Count data/b/.';
    expect(h.calls[1]!.prompt).toContain(line);
    expect(readFileSync(step.handoffs[0]!, "utf8")).toContain(`Sum the per-file counts.\n\n${line}\n`);
    expect(h.calls[2]!.prompt).toContain(line);
    expect(h.saves.at(-1)!.history[0]!.handoff).toMatchObject({ cutCalls: 1, degraded: false });
    expect(h.events.find((e) => e.type === "handoff" && e.phase === "done")).toMatchObject({ cutCalls: 1 });
    h.assertComplete();
  });

  it("a degraded handoff (zh) carries the cut call too", async () => {
    // Moved from test/e2e/cut-calls.e2e.test.ts, which keeps the binary's part: the cut call itself.
    const delegation = delegationTo("DELEGATED-7f3: count data/b/.");
    const [start, delta] = response("s1", 80_000, "tool_use");
    const sorry = () => session("s1", response("s1", 56_000), result("s1", { text: "抱歉,现在写不了。" }));
    const h = harness(
      [
        session("s1", response("s1", 35_000, "tool_use"), [start!, delegation, delta!]),
        sorry(),
        sorry(),
        session("s2", response("s2", 9_000), result("s2", { text: "Successor done." })),
      ],
      { locale: "zh" },
    );
    const step = await h.run.run();
    expect(step.result).toBe("Successor done.");
    expect(step.degraded).toBe(1);
    const frozen = parseHandoff(
      readFileSync(join(h.workspace, ".flower", "notes", "交接-survey.md"), "utf8"),
    );
    expect(frozen.degraded).toBe(true);
    expect(frozen.next).toContain(
      "- 被交接切断(已发出,未执行):Agent(counter)「count」 —— DELEGATED-7f3: count data/b/.",
    );
    expect(h.calls.at(-1)!.prompt).toContain("DELEGATED-7f3: count data/b/.");
    h.assertComplete();
  });

  describe("a writing turn with strong decided, dead ends and scene, and TBD under next", () => {
    const WEAK_NEXT = HANDOFF_ANSWER.replace("Sum the per-file counts.", "TBD");

    it("asks for next once more in the same session, and takes it", async () => {
      const h = harness([
        session("s1", response("s1", 55_000, "tool_use")),
        session("s1", response("s1", 56_000), result("s1", { text: WEAK_NEXT })),
        session("s1", response("s1", 57_000), result("s1", { text: "## next\nAdd up `counts.txt`." })),
        session("s2", response("s2", 9_000), result("s2", { text: "done" })),
      ]);
      const step = await h.run.run();
      // The follow-up is a writing turn of the burned session that names only the weak section.
      expect(h.calls[2]!.options?.resume).toBe("s1");
      expect(h.calls[2]!.options?.env).toEqual({ WRITING: "true" });
      expect(h.calls[2]!.prompt).toContain("## Next step");
      expect(h.calls[2]!.prompt).not.toContain("## Already decided");
      expect(h.calls[3]!.prompt).toContain("Add up `counts.txt`.");
      expect(h.calls[3]!.prompt).toContain("- wc over find: one pass");
      expect(step).toMatchObject({ degraded: 0, errors: [] });
      expect(h.saves.at(-1)!.history[0]!.handoff).toMatchObject({
        degraded: false,
        missing: ["next"],
        weak: [],
        askedAgain: true,
      });
      // One "writing" phase for both turns.
      expect(h.events.filter((e) => e.type === "handoff" && e.phase === "writing")).toHaveLength(1);
      h.assertComplete();
    });

    it("still weak: the successor gets decided, dead ends and scene verbatim, next mechanical and named", async () => {
      const h = harness([
        session("s1", response("s1", 55_000, "tool_use")),
        session("s1", response("s1", 56_000), result("s1", { text: WEAK_NEXT })),
        session("s1", response("s1", 57_000), result("s1", { text: "## next\nTBD" })),
        session("s2", response("s2", 9_000), result("s2", { text: "done" })),
      ]);
      const step = await h.run.run();
      const successor = h.calls[3]!.prompt;
      expect(successor).toContain("## Already decided\n- wc over find: one pass");
      expect(successor).toContain("## Dead ends\n- none");
      expect(successor).toContain("## Scene\n- data/");
      expect(successor).toContain("## What I am doing\nCounting the lines in data/.");
      expect(successor).toContain(`## Next step\n${MECHANICAL} Filled in by flower`);
      expect(successor).toContain('except "Next step"');
      expect(successor).not.toContain("this handoff is degraded");
      expect(readFileSync(step.handoffs[0]!, "utf8")).toContain("- wc over find: one pass");
      // The record lists the weak section; the event carries it.
      expect(h.saves.at(-1)!.history[0]!.handoff).toMatchObject({
        degraded: true,
        missing: ["next"],
        weak: ["next"],
        askedAgain: true,
      });
      expect(step.errors[0]).toMatch(/^交接降级\(missing: next; filled in mechanically/);
      expect(h.events.find((e) => e.type === "handoff" && e.phase === "done")).toMatchObject({
        weak: ["next"],
      });
      h.assertComplete();
    });

    it("with no room below the window for a follow-up, fills next at once", async () => {
      const h = harness([
        session("s1", response("s1", 55_000, "tool_use")),
        session("s1", response("s1", 95_000), result("s1", { text: WEAK_NEXT })),
        session("s2", response("s2", 9_000), result("s2", { text: "done" })),
      ]);
      await h.run.run();
      expect(h.calls[2]!.prompt).toContain("- wc over find: one pass");
      expect(h.saves.at(-1)!.history[0]!.handoff).toMatchObject({ weak: ["next"], askedAgain: false });
      h.assertComplete();
    });
  });

  it("an overflow hands off degraded without asking the full session, and the step goes on", async () => {
    const h = harness([
      session("s1", response("s1", 30_000, "tool_use"), overflow("s1")),
      session("s2", result("s2", { text: "done" })),
    ]);
    const step = await h.run.run();
    expect(step).toMatchObject({ generations: 2, degraded: 1, attempts: 0, retired: ["s1"] });
    expect(step.errors[0]).toMatch(/^交接降级\(.*prompt is too long/);
    expect(h.calls).toHaveLength(2);
    expect(h.calls[1]!.prompt).toContain("Count the lines in data/.");
    h.assertComplete();
  });

  it("retries a failed attempt by resuming with a note, and counts it", async () => {
    const h = harness([
      session(
        "s1",
        response("s1", 8_000, "tool_use"),
        result("s1", { subtype: "error_during_execution", isError: true }),
      ),
      session("s1", response("s1", 9_000), result("s1", { text: "done" })),
    ]);
    const step = await h.run.run();
    expect(step).toMatchObject({ attempts: 1, generations: 1, result: "done" });
    expect(h.calls[1]!.options?.resume).toBe("s1");
    expect(h.calls[1]!.prompt).toMatch(/^The previous attempt was cut off by an error/);
    expect(h.events.map((e) => e.type)).toContain("retry");
  });

  it("gives up after maxAttempts with a StepFailedError that carries the result", async () => {
    const failing = (id: string) =>
      session(id, result(id, { subtype: "error_during_execution", isError: true }));
    const h = harness([failing("a"), failing("b")], { maxAttempts: 2 });
    const error = await h.run.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepFailedError);
    expect((error as StepFailedError).message).toMatch(/2 of 2 attempts failed/);
    expect(h.saves.at(-1)?.status).toBe("failed");
  });

  it("does not retry a step that hit its budget: retrying would only spend more", async () => {
    // Moved from test/e2e/runtime.e2e.test.ts; the binary ending a step at its budget, twice without a
    // retry, is test/e2e/cli/continue-settings.test.ts's --max-budget-usd case.
    const h = harness(
      [
        session(
          "a",
          response("a", 8_000, "tool_use"),
          result("a", { subtype: "error_max_budget_usd", isError: true }),
        ),
      ],
      { maxAttempts: 3 },
    );
    const error = await h.run.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepFailedError);
    expect((error as Error).message).toMatch(/a limit was reached, not retried: error_max_budget_usd/);
    expect(h.saves.at(-1)).toMatchObject({ status: "failed", attempts: 1 });
    expect(h.calls).toHaveLength(1);
    expect(h.events.some((e) => e.type === "retry")).toBe(false);
    h.assertComplete();
  });

  it("a request that cannot pass ends the step after one attempt, with the API's words and a hint", async () => {
    const retry = (status: number, error: string) =>
      ({
        type: "system",
        subtype: "api_retry",
        error_status: status,
        error,
        session_id: "a",
      }) as unknown as SDKMessage;
    // The binary retries a 401 on its own: the driver interrupts it at its first retry notice.
    const h = harness([
      session(
        "a",
        retry(401, "authentication_failed"),
        retry(401, "authentication_failed"),
        retry(401, "authentication_failed"),
      ),
    ]);
    const error = await h.run.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepFailedError);
    expect((error as StepFailedError).message).toBe(
      'Step "survey" failed: not retried, it cannot pass: API Error: 401 authentication_failed — check ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)',
    );
    expect(h.calls).toHaveLength(1);
    expect(h.events.map((e) => e.type)).not.toContain("retry");
    expect(h.saves.at(-1)).toMatchObject({ status: "failed", attempts: 1 });
    expect(h.saves.at(-1)!.errors).toEqual([
      (error as StepFailedError).message.replace('Step "survey" failed: ', ""),
    ]);
  });

  it("a 403 in the result is not retried; a 529 is", async () => {
    const apiResult = (id: string, status: number, type: string, text: string) =>
      ({
        ...result(id, { isError: true }),
        result: text,
        api_error_status: status,
        api_error_type: type,
      }) as unknown as SDKMessage;
    const forbidden = harness([
      session("a", apiResult("a", 403, "permission_error", "API Error: 403 Forbidden")),
    ]);
    await expect(forbidden.run.run()).rejects.toThrow(
      /not retried, it cannot pass: API Error: 403 Forbidden/,
    );
    const overloaded = harness([
      session("a", apiResult("a", 529, "overloaded_error", "API Error: 529 Overloaded")),
      session("b", response("b", 9_000), result("b", { text: "done" })),
    ]);
    expect(await overloaded.run.run()).toMatchObject({ attempts: 1, result: "done" });
  });

  it("books a store load of a resumed session to the record, silently during the writing turn", async () => {
    const h = harness([
      session("s1", response("s1", 60_000, "tool_use")),
      () => {
        // The store reports its rewrite while the writing turn resumes s1.
        h.loads.get("s1")!({ expired: 2 });
        return [init("s1"), ...response("s1", 61_000), result("s1", { text: HANDOFF_ANSWER })];
      },
      session("s2", result("s2", { text: "done" })),
    ]);
    await h.run.run();
    expect(h.saves.at(-1)?.storeLoads).toEqual([expect.objectContaining({ sessionId: "s1", expired: 2 })]);
    expect(h.events.some((e) => e.type === "store-load")).toBe(false);
    expect(h.loads.size).toBe(0);
  });

  it("books a generation only when its session exists: a stop after the handoff leaves none behind", async () => {
    const stop = new AbortController();
    const first = harness(
      [
        session("s1", response("s1", 60_000, "tool_use")),
        () => {
          stop.abort(); // Ctrl-C while the handoff is being written: it finishes, then the step stops.
          return [init("s1"), ...response("s1", 61_000), result("s1", { text: HANDOFF_ANSWER })];
        },
      ],
      { stopSignal: stop.signal },
    );
    expect((await first.run.run()).generations).toBe(1);
    const stopped = first.saves.at(-1)!;
    expect(stopped).toMatchObject({ status: "stopped", generations: 1, retired: ["s1"] });
    expect(stopped.history).toHaveLength(1);
    expect(stopped.pendingHandoff).toBe(stopped.handoffs[0]);

    // Another process continues: the successor starts from the file and is generation 2, once.
    const second = harness([session("s2", response("s2", 5_000), result("s2", { text: "done" }))], {
      continuation: { record: stopped, prompt: "Continue the task." },
    });
    const step = await second.run.run();
    const record = second.saves.at(-1)!;
    expect(step).toMatchObject({ generations: 2, retired: ["s1"], sessionId: "s2" });
    expect(record.history.map((g) => g.sessionId)).toEqual(["s1", "s2"]);
    expect(record.history.filter((g) => g.handoff !== null)).toHaveLength(record.generations - 1);
    expect(second.calls[0]!.prompt).toContain("Sum the per-file counts.");
  });

  it("stops a successor that begins at the line, with the seeds' diagnosis in zh", async () => {
    const over = (id: string): ScriptedSession => session(id, response(id, 60_000, "tool_use"));
    const writes = (id: string): ScriptedSession => session(id, result(id, { text: HANDOFF_ANSWER }));
    const h = harness([over("s1"), writes("s1"), over("s2")], { locale: "zh" });
    const error = (await h.run.run().catch((e: unknown) => e)) as StepFailedError;
    expect(error).toBeInstanceOf(StepFailedError);
    expect(error.message).toContain("第 2 代一开始就有 60000 token");
    expect(error.message).toContain("阈值很可能低于这个角色的启动地板");
    expect(h.saves.at(-1)).toMatchObject({ generations: 2, retired: ["s1"], status: "failed" });
    h.assertComplete();
  });

  it("keeps the main thread's context per turn in each generation, with the policy it ran with", async () => {
    const h = harness([
      session("s1", response("s1", 35_000, "tool_use"), response("s1", 55_000, "tool_use")),
      session("s1", result("s1", { text: HANDOFF_ANSWER })),
      session("s2", response("s2", 9_000), result("s2", { text: "done" })),
    ]);
    await h.run.run();
    const record = h.saves.at(-1)!;
    expect(record.history.map((g) => g.turns)).toEqual([
      [
        [35_000, 0, 0],
        [55_000, 0, 0],
      ],
      [[9_000, 0, 0]],
    ]);
    expect(record.policy).toEqual({ enabled: true, window: 100_000, at: 50_000, warnAt: 30_000 });
  });
});

describe("a step started again", () => {
  it("keeps an earlier run that got somewhere, and takes over a start that never got a session (a driver killed before its first answer)", async () => {
    const never = {
      ...newStepRecord("survey", "lead", "Count the lines in data/.", new Date(Date.UTC(2026, 10, 30, 11))),
    };
    const once = stepHarness(
      [session("s2", response("s2", 4_000), result("s2", { text: "done" }))],
      {},
      "flower-again-",
      {
        earlier: () => never,
      },
    );
    try {
      await once.run.run();
      const record = once.saves.at(-1)!;
      expect(record.earlierRuns).toBeUndefined();
      expect(record.startedAt).toBe(never.startedAt);
    } finally {
      rmSync(once.workspace, { recursive: true, force: true });
    }

    const got = structuredClone(once.saves.at(-1)!);
    const twice = stepHarness(
      [session("s3", response("s3", 4_000), result("s3", { text: "again" }))],
      {},
      "flower-again-",
      {
        earlier: () => got,
      },
    );
    try {
      await twice.run.run();
      expect(twice.saves.at(-1)!.earlierRuns?.map((earlier) => earlier.sessionId)).toEqual(["s2"]);
    } finally {
      rmSync(twice.workspace, { recursive: true, force: true });
    }
  });
});
