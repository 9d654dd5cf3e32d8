import { describe, expect, it } from "vitest";
import { checkResult } from "../../support/check-result.js";
import { displayOutput } from "./display-output.js";
import { guardSummary } from "../../../src/cli/record-views/guard-summary.js";
import type { Locale } from "../../../src/locale/locale.js";
import { newGuardRecord } from "../../../src/records/guard-record.js";
import type { FlowerEvent } from "../../../src/runtime/events.js";

function render(events: FlowerEvent[], locale: Locale): string[] {
  return displayOutput(events, locale).split("\n").filter(Boolean);
}

const step = "fix";
const events: FlowerEvent[] = [
  {
    type: "goal-checks",
    step,
    round: 1,
    passed: 3,
    total: 4,
    results: [
      {
        index: 1,
        command: "npm test",
        passed: false,
        exitCode: 1,
        durationMs: 840,
        logPath: "/home/u/p/.flower/artifacts/goal-check-1.log",
        reason: "exit code 1, expected 0",
      },
      {
        index: 2,
        command: "true",
        passed: true,
        exitCode: 0,
        durationMs: 3,
        logPath: "/x/goal-check-2.log",
        reason: null,
      },
    ],
  },
  { type: "guard-round", step, round: 2, rounds: 3, failing: 1, total: 4, cause: "checks", notMet: 0 },
  { type: "claim-flagged", step, agent: "fixer", matched: ["done"], excerpt: "All done." },
  {
    type: "review",
    step,
    round: 2,
    outcome: "not-met",
    criteria: [
      { criterion: "Export works", verdict: "met", evidence: "" },
      { criterion: "Docs updated", verdict: "not-met", evidence: "README unchanged" },
    ],
    why: null,
    answerPath: null,
  },
  {
    type: "step-end",
    step,
    ok: false,
    status: "goal-not-met",
    sessionId: "s",
    costUsd: 0.5,
    numTurns: 9,
    turns: 9,
    generations: 1,
    errors: [],
  },
];

describe("the live view of the goal guard", () => {
  it("shows the checks, the round, a flagged claim, the review and the end (en)", () => {
    expect(render(events, "en")).toEqual([
      "!! goal checks: 1 of 4 failing",
      "   x 1. npm test — exit code 1, expected 0; log:",
      "      ~/p/.flower/artifacts/goal-check-1.log",
      ">> guard round 2/3 · 1 of 4 checks failing — sent back with the evidence",
      '?  fixer claims success without evidence: "All done."',
      "!! review: met 1 · not met 1 · cannot tell 0",
      "   x Docs updated",
      "<= goal-not-met fix · 9 turns · $0.50",
    ]);
  });

  it("in Chinese", () => {
    const lines = render(events, "zh");
    expect(lines[0]).toBe("!! 目标检查:4 项中 1 项未通过");
    expect(lines[3]).toBe(">> 守门第 2/3 轮 · 4 项检查中 1 项未通过 —— 带着证据退回继续做");
    expect(lines.at(-1)).toBe("<= 目标未达成 fix · 9 轮 · $0.50");
  });
});

describe("a failed check's reason in the live view", () => {
  const checks = (withFailure: boolean): FlowerEvent => ({
    type: "goal-checks",
    step,
    round: 0,
    passed: 0,
    total: 2,
    results: [
      {
        index: 1,
        command: "sleep 60",
        passed: false,
        exitCode: null,
        durationMs: 1002,
        logPath: "/home/u/p/.flower/artifacts/goal-check-1.run-1.log",
        reason: "timed out after 1 s",
        ...(withFailure ? { failure: { kind: "timed-out" as const, timeoutMs: 1_000 } } : {}),
      },
      {
        index: 2,
        command: "pytest -q",
        passed: false,
        exitCode: 127,
        durationMs: 4,
        logPath: "/home/u/p/.flower/artifacts/goal-check-2.run-1.log",
        reason: "command not found: pytest (exit 127)",
        ...(withFailure ? { failure: { kind: "not-found" as const, name: "pytest" } } : {}),
      },
    ],
  });

  it("is in the reader's language (en, zh)", () => {
    expect(render([checks(true)], "en").slice(1)).toEqual([
      "   x 1. sleep 60 — timed out after 1 s; log:",
      "      ~/p/.flower/artifacts/goal-check-1.run-1.log",
      "   x 2. pytest -q — command not found: pytest (exit 127); log:",
      "      ~/p/.flower/artifacts/goal-check-2.run-1.log",
    ]);
    expect(render([checks(true)], "zh").slice(1)).toEqual([
      "   x 1. sleep 60 —— 超时(1 秒后被终止);日志:",
      "      ~/p/.flower/artifacts/goal-check-1.run-1.log",
      "   x 2. pytest -q —— 命令不存在:pytest(退出码 127);日志:",
      "      ~/p/.flower/artifacts/goal-check-2.run-1.log",
    ]);
  });

  it("keeps an event's English reason when it carries no failure", () => {
    expect(render([checks(false)], "zh")[1]).toContain("—— timed out after 1 s;日志:");
  });
});

describe("flower show's goal guard section", () => {
  it("lists the outcome, each check run with exit code, duration and log, reviews and claims", () => {
    const guard = newGuardRecord(3);
    guard.rounds = 3;
    guard.outcome = "goal-not-met";
    guard.why = "goal not met: after 3 guard rounds a check still fails: npm test";
    guard.claimsFlagged = 1;
    guard.claims.push({ at: "t", agent: null, matched: ["done"], excerpt: "Done." });
    guard.checkRuns.push({
      round: 0,
      at: "t",
      passed: false,
      results: [
        {
          index: 1,
          command: "npm test",
          description: null,
          passed: false,
          exitCode: null,
          signal: "SIGTERM",
          timedOut: true,
          notFound: false,
          expectedExitCode: 0,
          pattern: null,
          timeoutMs: 1000,
          durationMs: 1003,
          logPath: "/a/goal-check-1.log",
          tail: "",
          reason: "timed out after 1 s",
        },
      ],
    });
    expect(guardSummary(guard, "en")).toEqual([
      "goal guard: GOAL NOT MET · 3 of 3 guard rounds · 1 flagged claim",
      "  ! goal not met: after 3 guard rounds a check still fails: npm test",
      "  checks, run 1 (after the first session): 0 of 1 pass",
      "    x  1. npm test · signal SIGTERM · 1003 ms · timed out after 1 s · log /a/goal-check-1.log",
      "  flagged claims:",
      '    - a subagent: "Done."',
    ]);
    expect(guardSummary(guard, "zh")[0]).toBe(
      "目标守门: 目标未达成 · 守门 3/3 轮 · 1 份汇报被标为无证据的声称",
    );
  });

  it("names the goal it runs, each switch asked for with both sides, and a goal not used (issue 22)", () => {
    const guard = newGuardRecord(3);
    const v1 = { checks: [{ command: "test -f ok.txt" }], guardRounds: 3, review: false };
    const v2 = { checks: [{ command: "true" }], guardRounds: 3, review: false };
    guard.goal = v1;
    guard.ignoredGoal = { at: "2026-12-01T10:00:00.000Z", path: "/n/goal-r.md", goal: v2 };
    expect(guardSummary(guard, "en").slice(1)).toEqual([
      "  goal: `test -f ok.txt`",
      "  ! changed on disk after the work began — not used (noticed at 2026-12-01T10:00:00.000Z): runs `test -f ok.txt`, not `true` · /n/goal-r.md",
    ]);
    guard.goal = v2;
    guard.goalSwitches = [{ at: "2026-12-01T11:00:00.000Z", path: "/n/goal-r.md", from: v1, to: v2 }];
    // The switch settles what was not used before it.
    expect(guardSummary(guard, "en").slice(1)).toEqual([
      "  goal: `true`",
      "  goal switched at 2026-12-01T11:00:00.000Z (asked for): checks `test -f ok.txt` → `true` · /n/goal-r.md",
    ]);
    expect(guardSummary(guard, "zh")[2]).toBe(
      "  目标在 2026-12-01T11:00:00.000Z 按要求切换: 检查 `test -f ok.txt` → `true` · /n/goal-r.md",
    );
  });

  it("lists each run's own log, and an old record's single log and English reason as they were", () => {
    const result = (run: number, passed: boolean) =>
      checkResult(1, "grep -q fixed status.txt", passed, {
        logPath: `/w/.flower/artifacts/goal-check-1.run-${run}.log`,
      });
    const guard = newGuardRecord(3);
    guard.rounds = 1;
    guard.outcome = "passed";
    guard.checkRuns.push(
      { round: 0, at: "t", passed: false, results: [result(1, false)] },
      { round: 1, at: "t", passed: true, results: [result(2, true)] },
    );
    expect(guardSummary(guard, "en").slice(1)).toEqual([
      "  checks, run 1 (after the first session): 0 of 1 pass",
      "    x  1. grep -q fixed status.txt · exit 1 · 3 ms · exit code 1, expected 0 · log /w/.flower/artifacts/goal-check-1.run-1.log",
      "  checks, run 2 (after round 1): 1 of 1 pass",
      "    ok 1. grep -q fixed status.txt · exit 0 · 3 ms · log /w/.flower/artifacts/goal-check-1.run-2.log",
    ]);
    expect(guardSummary(guard, "zh")[2]).toBe(
      "    x  1. grep -q fixed status.txt · 退出码 1 · 3 ms · 退出码 1(应为 0) · 日志 /w/.flower/artifacts/goal-check-1.run-1.log",
    );

    // Written before logs were kept per run and before the failure was kept: shown as stored.
    const { failure: _failure, ...old } = result(1, false);
    guard.checkRuns = [
      { round: 0, at: "t", passed: false, results: [{ ...old, logPath: "/w/goal-check-1.log" }] },
    ];
    expect(guardSummary(guard, "zh")[2]).toBe(
      "    x  1. grep -q fixed status.txt · 退出码 1 · 3 ms · exit code 1, expected 0 · 日志 /w/goal-check-1.log",
    );
  });
});
