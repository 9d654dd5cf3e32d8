/** The drift watch's rule (runtime/judge/drift-watch.ts): which generations make a pause. */
import { describe, expect, it } from "vitest";
import type { GenerationProgress, GenerationRecord } from "../../../src/records/step-record.js";
import { driftEvidence, stalled } from "../../../src/runtime/judge/drift-watch.js";

function generation(number: number, progress?: Partial<GenerationProgress>): GenerationRecord {
  return {
    generation: number,
    sessionId: `s${number}`,
    startedAt: "2026-12-04T00:00:00.000Z",
    endedAt: null,
    costUsd: 0,
    numTurns: 5,
    context: 40_000,
    handoff: null,
    ...(progress ? { progress: { passing: [], checks: 1, newlyPassing: [], files: 0, ...progress } } : {}),
  };
}

describe("stalled", () => {
  it("no newly passing check and no file: stalled; either one is progress; nothing measured is not", () => {
    expect(stalled({ passing: ["a"], checks: 2, newlyPassing: [], files: 0 })).toBe(true);
    expect(stalled({ passing: ["a"], checks: 2, newlyPassing: ["a"], files: 0 })).toBe(false);
    expect(stalled({ passing: [], checks: 2, newlyPassing: [], files: 3 })).toBe(false);
    // A --direct run without a goal: the files alone.
    expect(stalled({ passing: null, checks: 0, newlyPassing: [], files: 0 })).toBe(true);
    expect(stalled({ passing: null, checks: 0, newlyPassing: [], files: null })).toBe(false);
  });
});

describe("driftEvidence", () => {
  const still = (number: number) => generation(number, {});
  it("the last N generations all stalled", () => {
    expect(driftEvidence([still(1), still(2), still(3)], 3, 0)?.map((g) => g.generation)).toEqual([1, 2, 3]);
    expect(driftEvidence([still(1), still(2)], 3, 0)).toBeNull();
  });

  it("one generation with progress among them: no pause", () => {
    expect(driftEvidence([still(1), generation(2, { files: 2 }), still(3)], 3, 0)).toBeNull();
    expect(driftEvidence([generation(1, { files: 2 }), still(2), still(3), still(4)], 3, 0)).not.toBeNull();
  });

  it("counts afresh after a pause, and 0 turns the watch off", () => {
    const history = [still(1), still(2), still(3), still(4), still(5)];
    expect(driftEvidence(history, 3, 3)).toBeNull();
    expect(driftEvidence([...history, still(6)], 3, 3)?.map((g) => g.generation)).toEqual([4, 5, 6]);
    expect(driftEvidence(history, 0, 0)).toBeNull();
  });

  it("without a goal's checks, files alone judge only a step that has changed a file (not an analysis job)", () => {
    const filesOnly = (number: number, files: number) =>
      generation(number, { passing: null, checks: 0, files });
    const reading = [filesOnly(1, 0), filesOnly(2, 0), filesOnly(3, 0), filesOnly(4, 0)];
    expect(driftEvidence(reading, 3, 0)).toBeNull();
    const coding = [filesOnly(1, 2), filesOnly(2, 0), filesOnly(3, 0), filesOnly(4, 0)];
    expect(driftEvidence(coding, 3, 0)?.map((g) => g.generation)).toEqual([2, 3, 4]);
    // With checks, a run that never changed a file is still judged by them.
    expect(driftEvidence([still(1), still(2), still(3)], 3, 0)).not.toBeNull();
  });

  it("a generation without a measure (older records) is not evidence", () => {
    expect(driftEvidence([still(1), generation(2), still(3)], 3, 0)).toBeNull();
  });
});

describe("Runtime({ driftAfter })", () => {
  it("refuses what is not a whole number >= 0, naming it", async () => {
    const { resolveRuntimeOptions } = await import("../../../src/runtime/options.js");
    for (const driftAfter of [-1, 2.5, Number.NaN])
      expect(() => resolveRuntimeOptions({ workspace: ".", driftAfter })).toThrow(
        /driftAfter.*an integer >= 0/,
      );
  });
});
