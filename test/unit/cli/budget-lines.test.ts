import { describe, expect, it } from "vitest";
import {
  budgetBelowSpent,
  budgetReachedLine,
  spentOfBudget,
  withBudget,
} from "../../../src/cli/record-views/budget-lines.js";
import { formatUsd, nextBudget } from "../../../src/records/run-spend.js";
import { newStepRecord, type StepRecord } from "../../../src/records/step-record.js";

function budgeted(costUsd: number, budgetUsd: number | undefined): StepRecord {
  const record = newStepRecord("b", "coordinator", "task");
  record.costUsd = costUsd;
  record.settings = {
    model: null,
    handoff: { enabled: true, window: 1_000_000, headroom: 50_000, windowGuessed: true },
    maxBudgetUsd: null,
    review: false,
    locale: "en",
    ...(budgetUsd !== undefined ? { budgetUsd } : {}),
  };
  return record;
}

describe("budget lines", () => {
  it("dollars with four decimals; a suggested budget twice the old one, or the spend plus it, in cents", () => {
    expect(formatUsd(0.0123)).toBe("$0.0123");
    expect(nextBudget(0.0123, 0.01)).toBe("0.03");
    expect(nextBudget(0.5, 0.1)).toBe("0.6");
    expect(nextBudget(0.001, 0.001)).toBe("0.01");
  });

  it("the continue line gets --budget on its first line, a store's note stays below", () => {
    expect(withBudget("flower continue b", "0.05")).toBe("flower continue b --budget 0.05");
    expect(withBudget("flower continue b --store x\n  note", "1")).toBe(
      "flower continue b --store x --budget 1\n  note",
    );
    expect(withBudget("", "1")).toBe("");
  });

  it("the line a budget-reached step ends with, in en and zh", () => {
    const record = budgeted(0.0123, 0.01);
    record.status = "budget-reached";
    record.budgetStop = { by: "run", spentUsd: 0.0123, budgetUsd: 0.01, at: "2026-12-06T00:00:00.000Z" };
    expect(budgetReachedLine(record, "flower continue b", "en")).toBe(
      "Budget reached: spent $0.0123 of $0.0100; flower continue b --budget 0.03 goes on",
    );
    expect(budgetReachedLine(record, "flower continue b", "zh")).toBe(
      "预算用完:已花 $0.0123,预算 $0.0100;flower continue b --budget 0.03 接着走",
    );
    expect(budgetReachedLine(budgeted(0.1, 1), "flower continue b", "en")).toBeNull();
  });

  it("spent of budget only where a budget is set; continue refused only at or over the spend", () => {
    expect(spentOfBudget([budgeted(0.02, 0.1)], "b", "en")).toBe("spent $0.0200 of $0.1000");
    expect(spentOfBudget([budgeted(0.02, undefined)], "b", "en")).toBeNull();
    const records = [budgeted(0.2, 0.1)];
    expect(budgetBelowSpent(records, "b", 0.5, "flower continue b", "en")).toBeNull();
    expect(budgetBelowSpent(records, "b", 0.15, "flower continue b", "en")).toBe(
      "flower: the run has spent $0.2000, the budget $0.1500 is already reached; nothing started (go on with a higher one: flower continue b --budget 0.35)",
    );
    // No budget given: the recorded one decides.
    expect(budgetBelowSpent(records, "b", undefined, "flower continue b", "en")).toContain("$0.1000");
    expect(budgetBelowSpent([budgeted(0.2, undefined)], "b", undefined, "", "en")).toBeNull();
  });
});
