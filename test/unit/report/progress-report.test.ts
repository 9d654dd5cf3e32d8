/**
 * The report's picture of where a run stood at each handoff (the drift watch): a column of the goal's
 * checks run then (passing of all, how many newly), only for a step whose goal has checks, and the drift
 * watch's pause said under the step's generations. The record's progress becomes the report's input.
 */
import { describe, expect, it } from "vitest";
import { newStepRecord, type StepRecord } from "../../../src/records/step-record.js";
import { renderHtmlReport } from "../../../src/report/html-report.js";
import type { ReportInput, ReportStep } from "../../../src/report/report-input.js";
import { reportStep } from "../../../src/cli/record-views/step-report-input.js";
import { demoLikeStep } from "../../support/report-fixture.js";

function withProgress(): ReportStep {
  const step = demoLikeStep();
  return {
    ...step,
    generations: [
      { ...step.generations[0]!, checks: { passing: 1, total: 3, newly: 1 } },
      { ...step.generations[1]!, checks: { passing: 1, total: 3, newly: 0 } },
      { ...step.generations[2]! },
    ],
    drift: { generations: [2], at: "2026-12-06T03:00:00Z" },
  };
}

const page = (step: ReportStep, locale: "en" | "zh" = "en") =>
  renderHtmlReport({ title: "t", steps: [step] }, { locale });

describe("the report's progress per generation", () => {
  it("adds a checks column, one cell per generation that handed off, and says the drift pause", () => {
    const html = page(withProgress());
    expect(html).toContain("<th>Handoff document</th><th>Checks at handoff</th></tr>");
    expect(html).toContain(`<td class="checks" data-passing="1" data-newly="1">1/3 pass (1 newly)</td>`);
    expect(html).toContain(`<td class="checks" data-passing="1" data-newly="0">1/3 pass (none newly)</td>`);
    expect(html).toContain(`<td class="checks"></td></tr>`);
    expect(html).toContain(
      `<p class="note" data-drift="2">Paused by the drift watch on 2026-12-06 03:00:00 UTC: generations 2 made no newly passing check and changed no file.</p>`,
    );
    const zh = page(withProgress(), "zh");
    expect(zh).toContain("<th>交接时的检查</th>");
    expect(zh).toContain("1/3 通过(新通过 1)");
    expect(zh).toContain("被漂移看守停下");
  });

  it("draws a step without progress as before: no column, no note", () => {
    const html = page(demoLikeStep());
    expect(html).not.toContain("Checks at handoff");
    expect(html).not.toContain("data-drift");
  });

  it("names a bad field of the progress", () => {
    const bad = (mutate: (step: ReportStep) => void) => {
      const step = withProgress();
      mutate(step);
      return () => renderHtmlReport({ title: "t", steps: [step] } satisfies ReportInput);
    };
    expect(bad((step) => (step.generations[0]!.checks!.passing = 4))).toThrow(
      /steps\[0\]\.generations\[0\]\.checks\.passing/,
    );
    expect(bad((step) => (step.generations[0]!.checks!.newly = 2))).toThrow(
      /steps\[0\]\.generations\[0\]\.checks\.newly/,
    );
    expect(bad((step) => (step.drift!.generations = []))).toThrow(/steps\[0\]\.drift\.generations/);
  });

  it("takes the record's progress: checks only where the goal had checks, and the last drift pause", () => {
    const base = newStepRecord("work", "lead", "Fix it.");
    const generation = (n: number, progress: StepRecord["history"][number]["progress"]) => ({
      generation: n,
      sessionId: `s${n}`,
      startedAt: "2026-12-06T01:00:00.000Z",
      endedAt: null,
      costUsd: 0.1,
      numTurns: 4,
      context: 40_000,
      turns: [[40_000, 0, 0]] as [number, number, number][],
      handoff: null,
      ...(progress ? { progress } : {}),
    });
    const record: StepRecord = {
      ...base,
      history: [
        generation(1, { passing: ["test -f a"], checks: 2, newlyPassing: ["test -f a"], files: 1 }),
        generation(2, { passing: null, checks: 0, newlyPassing: [], files: 0 }),
        generation(3, undefined),
      ],
      drift: { after: 2, generations: [2], at: "2026-12-06T02:00:00.000Z" },
    };
    const step = reportStep(record, "stopped");
    expect(step.generations.map((g) => g.checks)).toEqual([
      { passing: 1, total: 2, newly: 1 },
      undefined,
      undefined,
    ]);
    // Generation 2 had no checks to run: the pause is said of its files alone.
    expect(step.drift).toEqual({
      generations: [2],
      at: "2026-12-06T02:00:00.000Z",
      measures: { checks: false, files: true },
    });
  });
});
