/**
 * The step loop's rules for the switch between generations, over the harness (StepRun and a scripted
 * query): degraded handoffs, the loop brake and maxGenerations, handoff off, a stop at the handoff, a frozen handoff a person
 * broke, an overflow at the switch, a successor's retry.
 * What only the binary can show (the writing turn in the burned session, a stop at a boundary and the
 * files a person edits, a subagent's context) stays in test/e2e/handoff.e2e.test.ts.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StepFailedError } from "../../../src/errors.js";
import { HandoffPolicy } from "../../../src/handoff/policy.js";
import { overflow, response, result, type ScriptedSession } from "../../support/scripted-query.js";
import { HANDOFF_ANSWER, session, useStepHarness } from "../../support/step-harness.js";

const harness = useStepHarness();

/** The first generation's context passes `at` (50k of the harness's 100k window): a handoff is due. */
const over = (id: string): ScriptedSession => session(id, response(id, 60_000, "tool_use"));
/** The writing turn in the burned session answers with `text`. */
const writes = (id: string, text = HANDOFF_ANSWER): ScriptedSession => session(id, result(id, { text }));
const writingCalls = (calls: Array<{ options?: { env?: Record<string, string | undefined> } }>) =>
  calls.filter((call) => call.options?.env?.WRITING === "true");

describe("degraded handoffs", () => {
  it("an overflow freezes a degraded handoff with the task's first 1200 characters, in zh, and asks no writing turn", async () => {
    const task = `Summarise big-0.txt. ${"Context for the task. ".repeat(100)}`;
    const h = harness(
      [
        session("s1", response("s1", 30_000, "tool_use"), overflow("s1")),
        session("s2", result("s2", { text: "Successor finished from the degraded handoff." })),
      ],
      { locale: "zh", prompt: task },
    );
    const step = await h.run.run();
    expect(step).toMatchObject({
      result: "Successor finished from the degraded handoff.",
      attempts: 0,
      degraded: 1,
    });
    expect(step.errors).toEqual([expect.stringMatching(/^交接降级\(.*prompt is too long/i)]);
    const path = join(h.workspace, ".flower", "notes", "交接-survey.md");
    expect(step.handoffs).toEqual([path]);
    const frozen = readFileSync(path, "utf8");
    expect(frozen).toContain("[降级:交接没写成]");
    expect(frozen).toContain(task.slice(0, 1200));
    expect(frozen).not.toContain(task.slice(0, 1201));
    const record = h.saves.at(-1)!;
    expect(record.errors[0]).toMatch(/^交接降级/);
    expect(record.history[0]!.handoff?.why).toMatch(/prompt is too long/i);
    expect(writingCalls(h.calls)).toEqual([]);
    expect(h.calls[1]!.prompt).toContain("[降级:交接没写成]");
    h.assertComplete();
  });

  it("a writing turn without `doing`/`next`, asked once more and still empty, degrades, and the successor starts from the degraded handoff", async () => {
    const h = harness([
      over("s1"),
      writes("s1", "Sorry, I cannot summarise right now."),
      // The follow-up turn in the same session, naming the weak sections: still nothing usable.
      writes("s1", "Still nothing to add."),
      session("s2", result("s2", { text: "done after degraded handoff" })),
    ]);
    const step = await h.run.run();
    expect(step).toMatchObject({ result: "done after degraded handoff", degraded: 1, generations: 2 });
    expect(step.errors[0]).toMatch(/^交接降级\(missing: doing, next/);
    expect(writingCalls(h.calls)).toHaveLength(2);
    expect(h.calls[3]!.prompt).toContain("[降级:交接没写成]");
    h.assertComplete();
  });
});

/** A generation that works `turns` turns below the line, then passes it. */
const works = (id: string, turns: number): ScriptedSession =>
  session(
    id,
    ...Array.from({ length: turns }, (_, turn) => response(id, 10_000 + turn * 1_000, "tool_use")).flat(),
    ...response(id, 60_000, "tool_use"),
  );

describe("the loop brake", () => {
  it("stops a successor whose start-up is already at the line, with the start-up floor diagnosis; it is not asked to write", async () => {
    const h = harness([over("s1"), writes("s1"), over("s2")]);
    const error = await h.run.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepFailedError);
    expect((error as Error).message).toMatch(
      /generation 2 began at 60000 tokens, already at the handoff line \(50000\)/,
    );
    expect((error as Error).message).toMatch(/start-up floor/);
    expect((error as Error).message).toMatch(/raise window, or use --no-handoff/);
    expect(h.saves.at(-1)).toMatchObject({ status: "failed", generations: 2, retired: ["s1"] });
    expect(writingCalls(h.calls)).toHaveLength(1);
    h.assertComplete();
  });

  it("stops two generations in a row that reach the line within their first turns", async () => {
    const h = harness([works("s1", 1), writes("s1"), works("s2", 1)]);
    const error = await h.run.run().catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /generation 2 and the one before reached the handoff line \(50000\) within 2 turns/,
    );
    expect(h.saves.at(-1)).toMatchObject({ status: "failed", generations: 2 });
    h.assertComplete();
  });

  it("lets a long healthy job hand off as often as it needs: twelve generations that work, then done", async () => {
    const script: ScriptedSession[] = [];
    for (let generation = 1; generation <= 12; generation++) {
      script.push(works(`s${generation}`, 3), writes(`s${generation}`));
    }
    script.push(session("s13", response("s13", 10_000), result("s13", { text: "all done" })));
    const h = harness(script);
    const step = await h.run.run();
    expect(step).toMatchObject({ generations: 13, degraded: 0, result: "all done" });
    h.assertComplete();
  });

  it("one short generation is not a loop: the next one that works goes on", async () => {
    const h = harness([
      works("s1", 1),
      writes("s1"),
      works("s2", 4),
      writes("s2"),
      session("s3", response("s3", 10_000), result("s3", { text: "done" })),
    ]);
    expect(await h.run.run()).toMatchObject({ generations: 3, result: "done" });
    h.assertComplete();
  });
});

describe("maxGenerations, a cap the caller sets", () => {
  it("stops there saying it was asked to, not blaming the window", async () => {
    const h = harness([works("s1", 3), writes("s1"), works("s2", 3)], {
      policy: new HandoffPolicy({ window: 100_000, headroom: 50_000, maxGenerations: 2 }),
    });
    const error = await h.run.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepFailedError);
    expect((error as Error).message).toContain(
      "reached the maxGenerations you set (2): stopped there, as asked",
    );
    expect((error as Error).message).not.toMatch(/raise window/);
    expect(h.saves.at(-1)).toMatchObject({ status: "failed", generations: 2, retired: ["s1"] });
    expect(writingCalls(h.calls)).toHaveLength(1);
    h.assertComplete();
  });
});

describe("with handoff off", () => {
  it("an overflow is an ordinary failure: no switch, no degraded handoff, no handoff event", async () => {
    const h = harness([session("s1", overflow("s1"))], {
      policy: new HandoffPolicy({ enabled: false }),
      maxAttempts: 1,
    });
    const error = await h.run.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepFailedError);
    expect((error as Error).message).toMatch(/prompt is too long/i);
    expect(h.saves.at(-1)).toMatchObject({ status: "failed", generations: 1, degraded: 0, handoffs: [] });
    expect(h.events.some((e) => e.type === "handoff")).toBe(false);
    h.assertComplete();
  });
});

describe("a stop at the handoff", () => {
  /** A harness whose stop signal fires while the writing turn runs (Ctrl-C during the handoff). */
  function stoppedWhileWriting(plan: { notesDir?: string | null } = {}) {
    const stop = new AbortController();
    const h = harness(
      [
        over("s1"),
        () => {
          stop.abort();
          return writes("s1")({ prompt: "", options: undefined });
        },
      ],
      { stopSignal: stop.signal, ...plan },
    );
    return h;
  }

  it("a stop during the writing turn lets the handoff finish, undegraded, then stops", async () => {
    const h = stoppedWhileWriting();
    const stopped = await h.run.run();
    expect(h.saves.at(-1)?.status).toBe("stopped");
    expect(stopped.degraded).toBe(0);
    expect(readFileSync(stopped.handoffs[0]!, "utf8")).toContain("Counting the lines in data/.");
    expect(h.events.filter((e) => e.type === "handoff" && e.phase === "done")).toHaveLength(1);
    h.assertComplete();
  });

  it("without a workbench, the step continues in a successor from the handoff, not in the burned session", async () => {
    const first = stoppedWhileWriting({ notesDir: null });
    const stopped = await first.run.run();
    expect(stopped.handoffs).toEqual([]);
    expect(existsSync(join(first.workspace, ".flower"))).toBe(false);
    const record = first.saves.at(-1)!;
    expect(record.retired).toEqual(["s1"]);

    const second = harness([session("s2", result("s2", { text: "done in the successor" }))], {
      notesDir: null,
      continuation: { record, prompt: "Continue the task." },
    });
    const step = await second.run.run();
    expect(step).toMatchObject({ result: "done in the successor", sessionId: "s2", generations: 2 });
    expect(second.calls[0]!.options?.resume).toBeUndefined();
    expect(second.calls[0]!.prompt).toContain("You are taking over");
    expect(second.calls[0]!.prompt).toContain("Sum the per-file counts.");
    second.assertComplete();
  });
});

describe("a frozen handoff a person broke before continue", () => {
  // Moved from test/e2e/bad-input.e2e.test.ts: reading the file on continue is StepRun's. The binary's
  // part (a person's edit reaching the successor) stays in test/e2e/handoff.e2e.test.ts, the 10 MB file
  // the successor cannot fit in test/e2e/bad-input.e2e.test.ts.
  for (const [kind, content, why] of [
    ["empty", "", /is empty/],
    ["binary", Buffer.from([0x00, 0xff, 0xfe, 0x89, 0x50, 0x4e, 0x47, 0x00, 0x1b, 0x5b]), /not UTF-8 text/],
  ] as const) {
    it(`${kind}: the successor starts from the degraded handoff with the task, and the record says why`, async () => {
      const stop = new AbortController();
      const first = harness(
        [
          over("s1"),
          () => {
            stop.abort();
            return writes("s1")({ prompt: "", options: undefined });
          },
        ],
        { stopSignal: stop.signal },
      );
      await first.run.run();
      const stopped = first.saves.at(-1)!;
      expect(stopped.pendingHandoff).toBeTruthy();
      const path = stopped.pendingHandoff!;
      writeFileSync(path, content);

      const second = harness([session("s2", result("s2", { text: "successor started" }))], {
        workspace: first.workspace,
        notesDir: join(first.workspace, ".flower", "notes"),
        continuation: { record: stopped, prompt: "Continue the task." },
      });
      const step = await second.run.run();
      expect(step.result).toBe("successor started");
      expect(second.calls[0]!.options?.resume).toBeUndefined();
      expect(second.calls[0]!.prompt).toContain("Degraded handoff");
      expect(second.calls[0]!.prompt).toContain("Count the lines in data/.");
      const record = second.saves.at(-1)!;
      expect(record.status).toBe("done");
      expect(record.errors.some((error) => /^handoff degraded/.test(error) && why.test(error))).toBe(true);
      // The person's file is left as they left it.
      expect(readFileSync(path)).toEqual(Buffer.from(content));
      second.assertComplete();
    });
  }
});

describe("a successor whose first attempt fails", () => {
  it("is retried from the handoff, not from the original task", async () => {
    const failedAtStart = session("s2", result("s2", { subtype: "error_during_execution", isError: true }));
    const h = harness([
      over("s1"),
      writes("s1"),
      failedAtStart,
      session("s3", result("s3", { text: "done in generation 2" })),
    ]);
    const step = await h.run.run();
    expect(step).toMatchObject({ result: "done in generation 2", attempts: 1, generations: 2 });
    // Tried again as it was started: a new session with the successor's prompt, the handoff.
    expect(h.calls[3]!.options?.resume).toBeUndefined();
    expect(h.calls[3]!.prompt).toBe(h.calls[2]!.prompt);
    expect(h.calls[3]!.prompt).toContain("You are taking over");
    expect(h.calls.slice(1).some((call) => call.prompt.includes("Count the lines in data/."))).toBe(false);
    h.assertComplete();
  });
});

describe("an overflow at the switch", () => {
  // Moved from test/e2e/fault-matrix.e2e.test.ts: the binary's overflow reaches StepRun as the message
  // `overflow()` plays (session-outcome.test.ts); what StepRun does with it is the loop's rule.
  it("while the handoff is written: a degraded handoff, the successor finishes", async () => {
    const h = harness([
      over("s1"),
      session("s1", overflow("s1")),
      session("s2", result("s2", { text: "the successor finished" })),
    ]);
    const step = await h.run.run();
    expect(step).toMatchObject({ result: "the successor finished", generations: 2, degraded: 1 });
    const record = h.saves.at(-1)!;
    expect(record.status).toBe("done");
    expect(record.result).toBe("the successor finished");
    expect(record.history[0]!.handoff?.degraded).toBe(true);
    expect(record.errors.join("\n")).toMatch(/交接降级/);
    expect(writingCalls(h.calls)).toHaveLength(1);
    h.assertComplete();
  });

  it("in the successor's first turn: one clear error, bounded, no endless handoffs", async () => {
    const h = harness([over("s1"), writes("s1"), session("s2", overflow("s2"))], { maxAttempts: 2 });
    const error = await h.run.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepFailedError);
    const message = (error as Error).message;
    expect(message).toMatch(/successor's first request is already over the context window.*too long/i);
    expect(message).not.toMatch(/\n\s+at /);
    const record = h.saves.at(-1)!;
    expect(record).toMatchObject({ status: "failed", generations: 2 });
    expect(record.errors.some((e) => /successor's first request/.test(e))).toBe(true);
    // No further session: neither another handoff nor a retry of a successor that cannot fit.
    expect(h.calls).toHaveLength(3);
    h.assertComplete();
  });
});
