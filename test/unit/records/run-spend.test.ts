import { describe, expect, it } from "vitest";
import { daySpent, reachedBudget, runSpent, utcDay } from "../../../src/records/run-spend.js";
import { newStepRecord, type StepRecord } from "../../../src/records/step-record.js";

function step(
  name: string,
  run: string | undefined,
  costUsd: number,
  at = "2026-12-06T10:00:00.000Z",
): StepRecord {
  const record = newStepRecord(name, "coordinator", "task", new Date(at));
  if (run !== undefined) record.run = run;
  record.costUsd = costUsd;
  return record;
}

describe("run-spend", () => {
  it("a run's figure is the sum over its steps; a step run on its own is its own run", () => {
    const records = [
      step("r/requirements", "r", 0.01),
      step("r/work", "r", 0.02),
      step("alone", undefined, 0.5),
    ];
    expect(runSpent(records, "r")).toBeCloseTo(0.03, 10);
    expect(runSpent(records, "alone")).toBe(0.5);
    expect(runSpent(records, "none")).toBe(0);
  });

  it("a budget is reached at its ceiling, counting its offset; the first reached one is named", () => {
    const run = { by: "run" as const, usd: 0.1, offset: 0 };
    const day = { by: "day" as const, usd: 1, offset: 0.95 };
    expect(reachedBudget([run, day], 0.04)).toBeNull();
    expect(reachedBudget([run, day], 0.05)).toEqual({ budget: day, spent: 1 });
    expect(reachedBudget([run], 0.1)).toEqual({ budget: run, spent: 0.1 });
    expect(reachedBudget([], 100)).toBeNull();
  });

  it("a day's spend: each generation on the day it started, the rest on the day the record was written", () => {
    const record = step("s", undefined, 0.7, "2026-12-05T23:00:00.000Z");
    record.updatedAt = "2026-12-06T01:00:00.000Z";
    const generation = (n: number, startedAt: string, costUsd: number) => ({
      generation: n,
      sessionId: `s${n}`,
      startedAt,
      endedAt: null,
      costUsd,
      numTurns: 1,
      context: 0,
      handoff: null,
    });
    record.history = [
      generation(1, "2026-12-05T23:00:00.000Z", 0.3),
      generation(2, "2026-12-06T00:30:00.000Z", 0.3),
    ];
    expect(daySpent([record], "2026-12-05")).toBeCloseTo(0.3, 10);
    expect(daySpent([record], "2026-12-06")).toBeCloseTo(0.4, 10);
    expect(utcDay("2026-12-06T23:59:59.000Z")).toBe("2026-12-06");
  });
});
