import { describe, expect, it } from "vitest";
import { assessClaim, claimFlagLine } from "../../../src/goal/claims.js";
import { CLAIMS_CORPUS, type CorpusReport } from "./claims-corpus.js";
import { CLAIMS_FRESH_CASES } from "./claims-fresh-cases.js";
import { CLAIMS_HARD_CASES } from "./claims-hard-cases.js";

interface Score {
  reports: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  misses: string[];
}

function score(reports: readonly CorpusReport[]): Score {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  const misses: string[] = [];
  for (const report of reports) {
    const { flagged } = assessClaim(report.text);
    if (flagged && report.flagged) truePositives += 1;
    else if (flagged) falsePositives += 1;
    else if (report.flagged) falseNegatives += 1;
    if (flagged !== report.flagged) misses.push(`${report.id} (${flagged ? "flagged" : "missed"})`);
  }
  return {
    reports: reports.length,
    truePositives,
    falsePositives,
    falseNegatives,
    precision: truePositives / Math.max(1, truePositives + falsePositives),
    recall: truePositives / Math.max(1, truePositives + falseNegatives),
    misses,
  };
}

/**
 * Floors near what the detector achieves. Corpus: 1.0 on both splits (asserted at 0.95). Hard cases:
 * 0.357 / 0.455 untuned, 0.917 / 1.0 after the rules they prompted (see claims-hard-cases.ts). Fresh
 * cases (claims-fresh-cases.ts), measured once and not tuned on: 1.0 / 0.938 (missed "已实现").
 */
const FLOOR = { hardPrecision: 0.9, hardRecall: 0.95, freshPrecision: 0.95, freshRecall: 0.9 };
const tuning = CLAIMS_CORPUS.filter((_, position) => position % 3 !== 2);
const heldOut = CLAIMS_CORPUS.filter((_, position) => position % 3 === 2);

describe("assessClaim over the labelled corpus", () => {
  it("has a corpus of real size, both languages, every kind, in both splits", () => {
    expect(CLAIMS_CORPUS.length).toBeGreaterThanOrEqual(80);
    expect(new Set(CLAIMS_CORPUS.map((report) => report.id)).size).toBe(CLAIMS_CORPUS.length);
    for (const split of [tuning, heldOut]) {
      for (const locale of ["en", "zh"] as const)
        for (const kind of ["evidence", "bare", "progress", "failure"] as const)
          expect(split.some((report) => report.locale === locale && report.kind === kind)).toBe(true);
    }
  });

  it.each([
    ["tuning", tuning],
    ["held-out", heldOut],
  ] as const)("flags claims without evidence on the %s split", (name, reports) => {
    const result = score(reports);
    console.log(
      `claims corpus, ${name}: ${result.reports} reports, precision ${result.precision.toFixed(3)}, recall ${result.recall.toFixed(3)} ` +
        `(tp ${result.truePositives}, fp ${result.falsePositives}, fn ${result.falseNegatives})` +
        (result.misses.length > 0 ? `; wrong: ${result.misses.join(", ")}` : ""),
    );
    expect(result.truePositives).toBeGreaterThan(0);
    expect(result.precision).toBeGreaterThanOrEqual(0.95);
    expect(result.recall).toBeGreaterThanOrEqual(0.95);
  });
});

describe("assessClaim on hard cases (written after the detector; untuned 0.357 / 0.455)", () => {
  it("holds the precision and recall reached after the general rules they prompted", () => {
    const result = score(CLAIMS_HARD_CASES);
    console.log(
      `claims hard cases: ${result.reports} reports, precision ${result.precision.toFixed(3)}, recall ${result.recall.toFixed(3)} ` +
        `(tp ${result.truePositives}, fp ${result.falsePositives}, fn ${result.falseNegatives}); wrong: ${result.misses.join(", ")}`,
    );
    expect(result.reports).toBeGreaterThanOrEqual(25);
    expect(result.precision).toBeGreaterThanOrEqual(FLOOR.hardPrecision);
    expect(result.recall).toBeGreaterThanOrEqual(FLOOR.hardRecall);
  });
});

describe("assessClaim on fresh cases (written after the detector was frozen, never tuned on)", () => {
  it("scores them as measured the first time", () => {
    const result = score(CLAIMS_FRESH_CASES);
    console.log(
      `claims fresh cases: ${result.reports} reports, precision ${result.precision.toFixed(3)}, recall ${result.recall.toFixed(3)} ` +
        `(tp ${result.truePositives}, fp ${result.falsePositives}, fn ${result.falseNegatives}); wrong: ${result.misses.join(", ")}`,
    );
    expect(result.reports).toBeGreaterThanOrEqual(30);
    expect(result.precision).toBeGreaterThanOrEqual(FLOOR.freshPrecision);
    expect(result.recall).toBeGreaterThanOrEqual(FLOOR.freshRecall);
  });
});

describe("assessClaim: claims", () => {
  it.each([
    "Done.",
    "All tests pass now.",
    "Fixed the login bug.",
    "Task completed.",
    "It works now.",
    "Successfully migrated the settings page.",
    "搞定了。",
    "已修复。",
    "全部测试通过。",
    "任务已完成,请查收。",
  ])("reads %j as a claim of success", (text) => {
    const result = assessClaim(text);
    expect(result).toMatchObject({ claimsSuccess: true, hasEvidence: false, flagged: true });
    expect(result.matched.length).toBeGreaterThan(0);
  });

  it.each([
    "Not done yet: the parser still rejects nested arrays.",
    "The fix is not complete; 2 of 10 runs still fail.",
    "Tests still fail after the change.",
    "I couldn't get the build to pass.",
    "测试未通过,还在查原因。",
    "没有完成,卡在依赖安装那一步。",
    "这个问题还没修好。",
    "Progress: read the code, haven't changed anything yet.",
  ])("does not read %j as a claim of success", (text) => {
    expect(assessClaim(text)).toMatchObject({ claimsSuccess: false, flagged: false });
  });
});

describe("assessClaim: evidence", () => {
  it.each([
    ["an artifact path", "Done. Output in .flower/artifacts/run-42.log"],
    ["a backticked command", "Fixed; `npm test` is green."],
    ["a command line in a fence", "Done.\n```\n$ make check\nall good\n```"],
    ["test counts", "All tests pass: 12 passed, 0 failed."],
    ["an exit code", "Completed, the build exits 0."],
    ["a zh exit code", "已完成,构建退出码 0。"],
    ["a file it changed", "Fixed the bug in src/parser/lexer.ts."],
    ["a backticked file name", "Fixed the typo in `README.md`."],
  ])("accepts %s", (_name, text) => {
    const result = assessClaim(text);
    expect(result).toMatchObject({ claimsSuccess: true, hasEvidence: true, flagged: false });
    expect(result.evidence.length).toBeGreaterThan(0);
  });

  it("does not take a framework name for a file, nor a vague 'I ran the tests'", () => {
    expect(assessClaim("Done, and it works with Node.js and Vue.js.").flagged).toBe(true);
    expect(assessClaim("I ran the tests and they all pass. Done.").flagged).toBe(true);
  });

  it("is safe on empty and odd input", () => {
    expect(assessClaim("")).toEqual({
      claimsSuccess: false,
      hasEvidence: false,
      flagged: false,
      matched: [],
      evidence: [],
    });
    expect(assessClaim(undefined as unknown as string).flagged).toBe(false);
    expect(assessClaim("x".repeat(200_000)).flagged).toBe(false);
  });

  it("keeps the evidence list short", () => {
    const many = Array.from({ length: 30 }, (_, index) => `- wrote src/part-${index}.ts`).join("\n");
    const result = assessClaim(`Done.\n${many}`);
    expect(result.evidence.length).toBeLessThanOrEqual(8);
  });
});

describe("claimFlagLine", () => {
  it("is one line in each locale", () => {
    for (const locale of ["en", "zh"] as const) {
      const line = claimFlagLine(locale);
      expect(line).not.toContain("\n");
      expect(line.startsWith("[flower]")).toBe(true);
    }
    expect(claimFlagLine("en")).toContain("treat it as a claim, not evidence");
    expect(claimFlagLine("zh")).toMatch(/声称/);
  });
});
