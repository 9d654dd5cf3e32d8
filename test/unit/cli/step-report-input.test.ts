import { describe, expect, it } from "vitest";
import { newStepRecord, type StepRecord } from "../../../src/records/step-record.js";
import { validateReportInput } from "../../../src/report/report-input.js";
import { reportStep } from "../../../src/cli/record-views/step-report-input.js";

function generation(n: number, turns: StepRecord["history"][number]["turns"], handoff = true) {
  return {
    generation: n,
    sessionId: `s${n}`,
    startedAt: "2026-11-30T12:00:00.000Z",
    endedAt: null,
    costUsd: 0.1 * n,
    numTurns: 40,
    context: turns?.at(-1)?.[0] ?? 0,
    turns,
    handoff: handoff
      ? { path: `/n/h${n}.md`, degraded: n === 2, why: null, missing: [], scene: { found: [], missing: [] } }
      : null,
  };
}

describe("reportStep", () => {
  it("draws every main-thread turn across generations with the step's own handoff line", () => {
    const record: StepRecord = {
      ...newStepRecord("build", "lead", "Build it."),
      policy: { enabled: true, window: 200_000, at: 150_000, warnAt: 130_000 },
      history: [
        generation(1, [
          [40_000, 0, 0],
          [151_000, 1, 0],
        ]),
        generation(2, [[30_000, 0, 2]], false),
      ],
    };
    const step = reportStep(record, "done");
    expect(step).toMatchObject({
      step: "build",
      task: "Build it.",
      status: "done",
      window: 200_000,
      at: 150_000,
      warnAt: 130_000,
    });
    expect(step.turns).toEqual([
      { generation: 1, context: 40_000, spills: 0, denials: 0 },
      { generation: 1, context: 151_000, spills: 1, denials: 0 },
      { generation: 2, context: 30_000, spills: 0, denials: 2 },
    ]);
    // Main-thread round trips, not the record's numTurns (which counts subagent turns too).
    expect(step.generations.map((g) => g.numTurns)).toEqual([2, 1]);
    expect(step.generations[0]!.handoff).toEqual({ degraded: false, path: "/n/h1.md" });
    expect(() => validateReportInput({ title: "t", steps: [step] })).not.toThrow();
  });

  it("an older record without a series gives one point per generation and the default line", () => {
    const old = generation(1, undefined, false);
    delete old.turns;
    const step = reportStep({ ...newStepRecord("old", "lead", "p"), history: [{ ...old, context: 12_000 }] });
    expect(step.turns).toEqual([{ generation: 1, context: 12_000, spills: 0, denials: 0 }]);
    expect(step).toMatchObject({ window: 1_000_000, at: 950_000, warnAt: 930_000 });
  });
});
