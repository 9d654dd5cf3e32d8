/**
 * A demo-like run for the report tests: three generations of one step handing off twice (the second
 * handoff degraded), a glance, a denial and a spill in generation 1, goal-guard rounds and checks, and a
 * second short step. The numbers follow the demo's shape (window 60K, handoff at 35K, warning at 15K).
 */
import type { ReportInput, ReportStep } from "../../src/report/report-input.js";

const START = Date.parse("2026-11-30T09:00:00Z");

function series(generation: number, contexts: number[], offsetTurns: number): ReportStep["turns"] {
  return contexts.map((context, index) => ({
    generation,
    context,
    time: new Date(START + (offsetTurns + index) * 7_000).toISOString(),
  }));
}

export function demoLikeStep(): ReportStep {
  const first = series(1, [8_100, 8_900, 9_600, 10_400, 14_200, 18_600, 23_100, 27_500, 31_900, 36_200], 0);
  const second = series(2, [9_300, 10_100, 14_400, 18_800, 23_300, 27_700, 32_000, 35_900], 10);
  const third = series(3, [9_800, 10_600, 11_200, 12_900], 18);
  const turns = [...first, ...second, ...third];
  turns[1]!.denials = 1;
  turns[2]!.spills = 1;
  turns[12]!.spills = 2;
  turns[13]!.denials = 1;
  return {
    step: "demo",
    task: 'Survey the 90 design notes in docs/ and have a summary table written; `npm test` must pass <"too">.',
    status: "done",
    window: 60_000,
    at: 35_000,
    warnAt: 15_000,
    turns,
    generations: [
      {
        generation: 1,
        costUsd: 0.0412,
        numTurns: 10,
        handoff: { degraded: false, path: ".flower/notes/handoff-demo-1.md" },
      },
      {
        generation: 2,
        costUsd: 0.0388,
        numTurns: 8,
        handoff: { degraded: true, path: ".flower/notes/handoff-demo-2.md" },
      },
      { generation: 3, costUsd: 0.0175, numTurns: 4 },
    ],
    guard: [
      {
        round: 1,
        verdict: "not met",
        passed: false,
        time: "2026-11-30T09:02:20Z",
        checks: [
          { name: "summary table has 90 rows", passed: false, detail: "found 48 rows" },
          { name: "npm test", passed: true },
        ],
      },
      {
        round: 2,
        verdict: "met",
        passed: true,
        time: "2026-11-30T09:02:48Z",
        checks: [
          { name: "summary table has 90 rows", passed: true },
          { name: "npm test", passed: true },
        ],
      },
    ],
    checks: [{ name: "check-summary.sh", passed: true, detail: "rows: 90" }],
  };
}

export function demoLikeRun(): ReportInput {
  return {
    title: "flower demo",
    generatedAt: "2026-11-30T09:03:00Z",
    steps: [
      demoLikeStep(),
      {
        step: "follow-up",
        status: "failed",
        window: 60_000,
        at: 35_000,
        warnAt: 15_000,
        turns: series(1, [7_900, 8_400, 9_100], 30),
        generations: [{ generation: 1, costUsd: 0.0061, numTurns: 3 }],
      },
    ],
  };
}
