import { describe, expect, it } from "vitest";
import { parseReviewVerdict } from "../../../src/goal/review-verdict.js";
import { reviewPrompt, reviewRoundMessage } from "../../../src/goal/review-text.js";

const verdicts = (answer: string) => parseReviewVerdict(answer).criteria.map((c) => [c.criterion, c.verdict]);

describe("parseReviewVerdict", () => {
  it("reads the asked-for form: criterion — verdict — evidence, and skips the summary line", () => {
    const parsed = parseReviewVerdict(
      [
        "Here is my review.",
        "- CSV export works — met — evidence: out.csv has 3 rows",
        "- README documents the flag — not met — evidence: README.md never mentions --csv",
        "- It is fast — cannot tell — evidence: no benchmark in the workspace",
        "verdict: not met",
      ].join("\n"),
    );
    expect(parsed.outcome).toBe("not-met");
    expect(parsed.criteria).toEqual([
      { criterion: "CSV export works", verdict: "met", evidence: "out.csv has 3 rows" },
      {
        criterion: "README documents the flag",
        verdict: "not-met",
        evidence: "README.md never mentions --csv",
      },
      { criterion: "It is fast", verdict: "cannot-tell", evidence: "no benchmark in the workspace" },
    ]);
  });

  it("reads colons, numbers, bold, brackets first, arrows and a table", () => {
    expect(
      verdicts("1. **Export works**: **met** (saw out.csv)\n2. [not met] Docs updated — evidence: none"),
    ).toEqual([
      ["Export works", "met"],
      ["Docs updated", "not-met"],
    ]);
    expect(verdicts("Export works → Met. Evidence: out.csv")).toEqual([["Export works", "met"]]);
    expect(
      verdicts(
        "| Criterion | Verdict | Evidence |\n|---|---|---|\n| Export works | ✅ | out.csv |\n| Docs | no | missing |",
      ),
    ).toEqual([
      ["Export works", "met"],
      ["Docs", "not-met"],
    ]);
  });

  it("reads Chinese answers with full-width punctuation", () => {
    const parsed = parseReviewVerdict(
      "1. 导出 CSV —— 满足 —— 证据:out.csv 有 3 行\n2. README 写了用法:未满足。证据:README.md 没提\n3. 速度够快:无法判断\n结论:未满足",
    );
    expect(parsed.criteria.map((c) => [c.criterion, c.verdict, c.evidence])).toEqual([
      ["导出 CSV", "met", "out.csv 有 3 行"],
      ["README 写了用法", "not-met", "README.md 没提"],
      ["速度够快", "cannot-tell", ""],
    ]);
    expect(parsed.outcome).toBe("not-met");
  });

  it("does not read prose that merely contains a verdict word", () => {
    expect(
      verdicts("The tests pass and we met the deadline.\nNo README was found.\nI think it is fine"),
    ).toEqual([]);
  });

  it("met when nothing is not met (cannot tell does not block); degraded when nothing is readable", () => {
    expect(parseReviewVerdict("- a — met\n- b — cannot tell").outcome).toBe("met");
    expect(parseReviewVerdict("Looks good to me.")).toMatchObject({ outcome: "degraded", criteria: [] });
    expect(parseReviewVerdict("")).toMatchObject({ outcome: "degraded", why: "the reviewer gave no answer" });
    expect(parseReviewVerdict(null).outcome).toBe("degraded");
    // A fenced block is quoted material, not the verdict.
    expect(parseReviewVerdict("```\n- a — met\n```").outcome).toBe("degraded");
  });
});

describe("the reviewer's prompt and round message", () => {
  it("gives the reviewer only the frozen documents, or the task when there are none", () => {
    const prompt = reviewPrompt({
      locale: "en",
      requirementsText: "REQ-TEXT",
      goalText: "GOAL-TEXT",
      task: "TASK",
    });
    expect(prompt).toContain("[flower reviewer]");
    expect(prompt).toContain("REQ-TEXT");
    expect(prompt).toContain("GOAL-TEXT");
    expect(prompt).not.toContain("TASK");
    const zh = reviewPrompt({ locale: "zh", requirementsText: null, goalText: null, task: "把文件修好" });
    expect(zh).toContain("把文件修好");
    expect(zh).toContain("满足 | 未满足 | 无法判断");
  });

  it("lists the criteria not met with their evidence and says when it is the last round", () => {
    const message = reviewRoundMessage({
      round: 2,
      rounds: 2,
      locale: "en",
      criteria: [
        { criterion: "a", verdict: "met", evidence: "" },
        { criterion: "Docs updated", verdict: "not-met", evidence: "README.md is unchanged" },
      ],
    });
    expect(message).toContain("Round 2 of 2");
    expect(message).toContain("found 1 of 2 acceptance criteria not met");
    expect(message).toContain("1. Docs updated — evidence: README.md is unchanged");
    expect(message).toContain("This is the last round");
    expect(() => reviewRoundMessage({ round: 3, rounds: 2, locale: "en", criteria: [] })).toThrow(
      /round: got 3/,
    );
  });
});
