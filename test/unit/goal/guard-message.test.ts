import { describe, expect, it } from "vitest";
import {
  describeFailure,
  guardRoundMessage,
  guardStatusLine,
  type CheckOutcome,
} from "../../../src/goal/guard-message.js";
import { ConfigurationError } from "../../../src/errors.js";
import { checkResult } from "../../support/check-result.js";

const logDir = "/work/app/.flower/artifacts";

function outcome(index: number, overrides: Partial<CheckOutcome> = {}): CheckOutcome {
  // A failing `npm test` (the shared fixture; a message reads only the CheckOutcome fields of it).
  return {
    ...checkResult(index, "npm test", false, {
      logPath: `${logDir}/goal-check-${index}.log`,
      tail: "FAIL src/cart.test.ts > totals > applies the coupon\nAssertionError: expected 90 to be 81\nTests  1 failed | 41 passed (42)",
    }),
    ...overrides,
  };
}

const passing = (index: number, command = "npm run build"): CheckOutcome =>
  outcome(index, { command, passed: true, exitCode: 0, reason: null, tail: "built in 1.2 s" });

describe("guardRoundMessage", () => {
  it("names the round, each failing check, its exit code, log and last lines (en)", () => {
    const message = guardRoundMessage({
      round: 2,
      rounds: 3,
      locale: "en",
      results: [
        outcome(1),
        passing(2),
        outcome(3, {
          command: "grep -c TODO src/app.ts",
          exitCode: 0,
          pattern: "^0$",
          tail: "3",
          reason: "output does not match /^0$/",
        }),
        passing(4, "npx tsc --noEmit"),
      ],
    });
    expect(message).toContain("Round 2 of 3: 2 of 4 checks failed.");
    expect(message).toContain("1. `npm test` — exit 1 (expected 0)");
    expect(message).toContain(`log: ${logDir}/goal-check-1.log`);
    expect(message).toContain("   | AssertionError: expected 90 to be 81");
    expect(message).toContain("3. `grep -c TODO src/app.ts` — exit 0, but the output does not match /^0$/");
    expect(message).not.toContain("npm run build");
    expect(message).not.toContain("last round");
    expect(message).toMatch(/Do not claim success without running these checks/);
    expect(message.trimEnd().endsWith("flower runs the checks again.")).toBe(true);
  });

  it("says timed out and not found, and warns on the last round (zh)", () => {
    const message = guardRoundMessage({
      round: 3,
      rounds: 3,
      locale: "zh",
      results: [
        outcome(1, { timedOut: true, exitCode: null, signal: "SIGTERM", timeoutMs: 90_000, tail: "" }),
        outcome(2, { command: "pytest -q", exitCode: 127, notFound: true, tail: "sh: 1: pytest: not found" }),
      ],
    });
    expect(message).toContain("第 3/3 轮:2 项检查中 2 项未通过");
    expect(message).toContain("1. `npm test` — 超时(90 秒后被终止)");
    expect(message).toContain("2. `pytest -q` — 命令不存在(退出码 127)");
    expect(message).toContain(`日志: ${logDir}/goal-check-2.log`);
    expect(message).toContain("这是最后一轮");
    expect(message).toContain("没有跑过这些检查,就不要声称成功");
  });

  it("stays within maxChars for many failing checks with long tails, and points to the rest", () => {
    const longTail = Array.from({ length: 20 }, (_, line) => `error ${line}: ${"x".repeat(90)}`).join("\n");
    const results = Array.from({ length: 40 }, (_, index) =>
      outcome(index + 1, { command: `npm run check:${index + 1}`, tail: longTail }),
    );
    for (const locale of ["en", "zh"] as const) {
      const message = guardRoundMessage({ round: 1, rounds: 3, locale, results });
      expect(message.length).toBeLessThanOrEqual(4_000);
      expect(message).toContain("1. `npm run check:1`");
      expect(message).toMatch(
        locale === "en" ? /…and \d+ more failing checks; logs in / : /……另有 \d+ 项检查未通过/,
      );
      expect(message).toContain(logDir);
    }
    const small = guardRoundMessage({ round: 1, rounds: 3, locale: "en", results, maxChars: 1_200 });
    expect(small.length).toBeLessThanOrEqual(1_200);
    expect(small).toContain("Do not claim success");
  });

  it("shortens a long multi-line command to one line", () => {
    const command = `set -e\n${"echo step; ".repeat(60)}\nnpm test`;
    const message = guardRoundMessage({
      round: 1,
      rounds: 1,
      locale: "en",
      results: [outcome(1, { command })],
    });
    const line = message.split("\n").find((text) => text.startsWith("1. "))!;
    expect(line.length).toBeLessThan(220);
    expect(line).toContain("set -e ⏎ echo step;");
  });

  it("adds notes before the instruction, still within bounds", () => {
    const message = guardRoundMessage({
      round: 1,
      rounds: 3,
      locale: "en",
      results: [passing(1)],
      notes: ["Reviewer: acceptance 2 (export keeps Chinese characters) not met."],
    });
    expect(message).toContain("0 of 1 check failed");
    expect(message.indexOf("Reviewer:")).toBeLessThan(message.indexOf("Keep working"));
    const huge = guardRoundMessage({
      round: 1,
      rounds: 3,
      locale: "en",
      results: [outcome(1)],
      notes: ["n".repeat(9_000)],
    });
    expect(huge.length).toBeLessThanOrEqual(4_000);
    expect(huge).toContain("Do not claim success");
  });

  it("names bad options", () => {
    const base = { round: 1, rounds: 3, locale: "en" as const, results: [outcome(1)] };
    expect(() => guardRoundMessage({ ...base, round: 4 })).toThrow(ConfigurationError);
    expect(() => guardRoundMessage({ ...base, round: 4 })).toThrow(/round: got 4/);
    expect(() => guardRoundMessage({ ...base, rounds: 0 })).toThrow(/rounds: got 0/);
    expect(() => guardRoundMessage({ ...base, locale: "de" as never })).toThrow(/locale: got "de"/);
    expect(() => guardRoundMessage({ ...base, maxChars: 10 })).toThrow(/maxChars: got 10/);
    expect(() => guardRoundMessage({ ...base, results: "x" as never })).toThrow(/results: got "x"/);
  });
});

describe("describeFailure", () => {
  it("covers each way a check fails", () => {
    expect(describeFailure(outcome(1, { exitCode: null, signal: "SIGSEGV" }), "en")).toBe("ended by SIGSEGV");
    expect(describeFailure(outcome(1, { exitCode: null, signal: "SIGSEGV" }), "zh")).toBe(
      "被信号 SIGSEGV 终止",
    );
    expect(describeFailure(outcome(1, { timedOut: true, timeoutMs: 1_500 }), "en")).toBe(
      "timed out after 1.5 s",
    );
    expect(describeFailure(outcome(1, { exitCode: 2 }), "zh")).toBe("退出码 2(应为 0)");
    expect(describeFailure(outcome(1, { exitCode: 126, expectedExitCode: null, pattern: "x" }), "en")).toBe(
      "command not executable (exit 126)",
    );
    expect(describeFailure(outcome(1, { exitCode: 1, expectedExitCode: null, pattern: "^0$" }), "en")).toBe(
      "exit 1, but the output does not match /^0$/",
    );
  });
});

describe("guardStatusLine", () => {
  it("reads like the live view in both languages", () => {
    const results = [outcome(1), passing(2), passing(3), passing(4)];
    expect(guardStatusLine({ round: 2, rounds: 3, results, locale: "en" })).toBe(
      "guard round 2/3 · 1 of 4 checks failing",
    );
    expect(guardStatusLine({ round: 2, rounds: 3, results, locale: "zh" })).toBe(
      "守门第 2/3 轮 · 4 项检查中 1 项未通过",
    );
    expect(guardStatusLine({ round: 1, rounds: 3, results: [passing(1)], locale: "en" })).toBe(
      "guard round 1/3 · all 1 check passes",
    );
    expect(guardStatusLine({ round: 1, rounds: 3, results: [passing(1), passing(2)], locale: "zh" })).toBe(
      "守门第 1/3 轮 · 2 项检查全部通过",
    );
  });
});
