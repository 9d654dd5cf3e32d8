/**
 * A run with a budget shows what it spent of it: the report's totals (the whole run's spend, on each of
 * its steps) and the live page's cost cell; a run without one shows its cost alone.
 */
import { describe, expect, it } from "vitest";
import { runRows } from "../../../src/cli/page/serve-rows.js";
import { newStepRecord, type StepRecord } from "../../../src/records/step-record.js";
import { renderHtmlReport } from "../../../src/report/html-report.js";
import type { ReportStep } from "../../../src/report/report-input.js";
import { demoLikeStep } from "../../support/report-fixture.js";

const page = (step: ReportStep, locale: "en" | "zh" = "en") =>
  renderHtmlReport({ title: "t", steps: [step] }, { locale });

function budgeted(costUsd: number, budgetUsd?: number): StepRecord {
  const record = newStepRecord("b", "lead", "Build it.", new Date("2026-12-06T01:00:00Z"));
  return {
    ...record,
    status: "budget-reached",
    costUsd,
    ...(budgetUsd !== undefined
      ? { settings: { ...record.settings, budgetUsd } as StepRecord["settings"] }
      : {}),
  };
}

describe("spent of budget", () => {
  it("the report's totals say the run's spend of its budget; without one, nothing", () => {
    const html = page({ ...demoLikeStep(), budget: { spentUsd: 0.1066, budgetUsd: 0.1 } });
    expect(html).toContain(`<div data-total="budget"><dt>Run budget</dt><dd>$0.1066 of $0.1000</dd></div>`);
    expect(page({ ...demoLikeStep(), budget: { spentUsd: 0.1066, budgetUsd: 0.1 } }, "zh")).toContain(
      "<dt>运行预算</dt>",
    );
    expect(page(demoLikeStep())).not.toContain('data-total="budget"');
    expect(() => page({ ...demoLikeStep(), budget: { spentUsd: 0.1, budgetUsd: 0 } })).toThrow(
      /steps\[0\]\.budget\.budgetUsd/,
    );
  });

  it("the page's row carries the run's budget where its records name one", () => {
    const statusOf = (record: StepRecord) => record.status;
    const [row] = runRows({ steps: [budgeted(0.1066, 0.1)], holders: new Map(), statusOf });
    expect(row).toMatchObject({ costUsd: 0.1066, budgetUsd: 0.1 });
    const [plain] = runRows({ steps: [budgeted(0.5)], holders: new Map(), statusOf });
    expect(plain).not.toHaveProperty("budgetUsd");
  });
});
