/**
 * The fault matrix: every way the provider can fail a request, played by the offline kit against the
 * real binary. Each case ends in success or in one clear error — in the thrown StepFailedError and in
 * the record — after a bounded number of requests (a retry budget left at the CLI's default, 10, would
 * show as more; a time bound would only measure how busy the machine is), and leaves no `claude` process (test/support/no-claude-left.ts
 * fails a test that does). The CLI's own retries are kept short by its environment:
 * CLAUDE_CODE_MAX_RETRIES=2 (the runtime's default) and, for the slow reply, API_TIMEOUT_MS.
 * An overflow at the handoff switch (in the writing turn, in the successor's first turn) is the step
 * loop's rule, not the binary's: test/unit/runtime/step-rules.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  StepFailedError,
  coordinator,
  subagent,
  type RuntimeOptions,
  type StepResult,
} from "../../src/index.js";
import { type StepRecord } from "../../src/public/stores.js";
import { fault, on, script, text, toolUse, type Policy } from "../../src/testing/index.js";
import { rig, type Rig } from "./runtime-helpers.js";

let current: Rig | undefined;

const analyst = subagent("Analyses files.", "Use the command line; never estimate by hand.", {
  tools: ["Bash", "Read"],
});
const lead = () => coordinator("lead", "Goal: check the workspace.", { analyst }, { glance: false });

/** The coordinator delegates one check, then answers; a fault is scripted around it. */
function delegating(final: string): Policy {
  return (request) => {
    if (request.isSubagent) {
      return request.countToolResults("Bash") === 0
        ? toolUse("Bash", { command: "echo checked" })
        : text("Ran echo: checked.");
    }
    if (request.countToolResults("Agent") === 0)
      return toolUse("Agent", { subagent_type: "analyst", description: "Check", prompt: "Run echo." });
    return text(final);
  };
}

type Outcome = { ok: true; result: StepResult; error?: undefined } | { ok: false; error: unknown };

async function runCase(
  policy: Policy,
  options: Partial<RuntimeOptions> = {},
  mergeEnv = false,
): Promise<{ outcome: Outcome; record: StepRecord }> {
  current = await rig({ policy });
  // `env` replaces the kit's environment; merged, it only adds to it.
  const rt = current.runtime(mergeEnv ? { ...options, env: current.model.env(options.env ?? {}) } : options);
  const outcome: Outcome = await rt.run("faulty", lead(), "Check the workspace.").then(
    (result) => ({ ok: true, result }),
    (error: unknown) => ({ ok: false, error }),
  );
  const record = (
    JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8")) as {
      steps: Record<string, StepRecord>;
    }
  ).steps.faulty!;
  return { outcome, record };
}

/** A success: the answer, a done record; what went wrong on the way is in `errors`, not lost. */
function expectSuccess(run: Awaited<ReturnType<typeof runCase>>, answer: string): StepResult {
  const { outcome, record } = run;
  if (!outcome.ok) throw outcome.error;
  expect(outcome.result.result).toBe(answer);
  expect(record.status).toBe("done");
  expect(record.result).toBe(answer);
  return outcome.result;
}

/** One clear error: a StepFailedError whose message names the cause, the same in the record. */
function expectClearFailure(run: Awaited<ReturnType<typeof runCase>>, cause: RegExp): void {
  const { outcome, record } = run;
  expect(outcome.error, "the step was expected to fail").toBeInstanceOf(StepFailedError);
  const message = (outcome.error as Error).message;
  expect(message).toMatch(cause);
  expect(message).not.toMatch(/\n\s+at /);
  expect(record.status).toBe("failed");
  expect(record.errors.some((error) => cause.test(error))).toBe(true);
}

describe("the fault matrix", () => {
  it("a 529 storm longer than one attempt: the runtime's next attempt gets through", async () => {
    const policy = script([
      ...Array.from({ length: 5 }, () => fault("overloaded")),
      text("done after the storm"),
    ]);
    const run = await runCase(policy);
    const result = expectSuccess(run, "done after the storm");
    policy.assertComplete();
    expect(result.attempts).toBe(1);
    expect(run.record.errors.join("\n")).toMatch(/529|Overloaded/);
    expect(current!.model.requests).toHaveLength(6);
  });

  it("a 529 storm without end: one clear error after maxAttempts, 3 requests per attempt; the record says so", async () => {
    const run = await runCase(() => fault("overloaded"), { maxAttempts: 2 });
    expectClearFailure(run, /529|Overloaded/);
    expect((run.outcome.error as Error).message).toMatch(/Step "faulty" failed: 2 of 2 attempts failed/);
    expect(run.record.attempts).toBe(2);
    expect(current!.model.requests).toHaveLength(6);
  });

  it("500s in the middle of a run: the session is resumed and finishes", async () => {
    let served = 0;
    const run = await runCase((request) => {
      if (request.isSubagent) return delegating("")(request);
      if (request.countToolResults("Agent") === 1 && served < 3) {
        served += 1;
        return fault("server-error");
      }
      return delegating("done after the 500s")(request);
    });
    const result = expectSuccess(run, "done after the 500s");
    expect(served).toBe(3);
    expect(result.attempts).toBe(1);
    expect(run.record.errors.join("\n")).toMatch(/500|Internal server error/);
    // The resumed session still has the subagent's report: nothing was redone.
    expect(current!.model.requests.filter((request) => request.isSubagent)).toHaveLength(2);
    expect(current!.model.requests).toHaveLength(7);
  });

  it("a stream cut in the middle of a tool call's input: retried whole, half a command never runs", async () => {
    const policy = script([fault("cut-tool-input")], { otherwise: delegating("done after the cut") });
    const run = await runCase(policy);
    const result = expectSuccess(run, "done after the cut");
    policy.assertComplete();
    expect(result.attempts).toBe(0);
    const everything = current!.model.requests.map((request) => request.allText()).join("\n");
    expect(everything).not.toContain("half-a-comm");
    expect(current!.model.requests).toHaveLength(5);
  });

  it("a reply slower than the CLI's timeout: the CLI gives up on it and asks again", async () => {
    const policy = script([text("too late", { delayMs: 8_000 })], {
      otherwise: delegating("done after the slow reply"),
    });
    const run = await runCase(policy, { env: { API_TIMEOUT_MS: "1500" } }, true);
    expectSuccess(run, "done after the slow reply");
    policy.assertComplete();
  });

  it("overflow in a subagent: the coordinator gets the subagent's failure and the step goes on", async () => {
    const policy = script([on("subagent", fault("prompt-too-long"))], {
      otherwise: (request) =>
        request.isSubagent
          ? text("unused")
          : request.countToolResults("Agent") === 0
            ? delegating("")(request)
            : text(`worker failed: ${request.lastToolResult()?.text.slice(0, 60) ?? ""}`),
    });
    const run = await runCase(policy);
    const { outcome } = run;
    if (!outcome.ok) throw outcome.error;
    expect(outcome.result.result).toMatch(/^worker failed: /);
    expect(outcome.result.result).toMatch(/too long|Prompt/i);
    expect(run.record.status).toBe("done");
    policy.assertComplete();
    expect(current!.model.requests).toHaveLength(3);
  });

  it("a 400 for a tool the provider does not know: one clear error, bounded", async () => {
    const run = await runCase(() => fault("invalid-request"), { maxAttempts: 2 });
    expectClearFailure(run, /does not match any of the expected tags/);
    // Said once, not three times (result text, API error, the iterator's throw).
    expect((run.outcome.error as Error).message.match(/does not match/g)).toHaveLength(1);
    expect((run.outcome.error as Error).message).not.toContain("success:");
    // It cannot pass: one attempt, not maxAttempts (the CLI itself tries a refused tool list a few
    // ways, 6 requests a session).
    expect((run.outcome.error as Error).message).toMatch(/not retried, it cannot pass: .*see flower -v$/);
    expect(run.record.attempts).toBe(1);
    expect(current!.model.requests.length).toBeLessThanOrEqual(6);
  });
});
