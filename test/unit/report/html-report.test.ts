import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../src/errors.js";
import { escapeHtml } from "../../../src/report/escape.js";
import { formatCost, renderHtmlReport } from "../../../src/report/html-report.js";
import type { ReportInput } from "../../../src/report/report-input.js";
import { demoLikeRun, demoLikeStep } from "../../support/report-fixture.js";

function count(html: string, pattern: RegExp): number {
  return html.match(new RegExp(pattern.source, "g"))?.length ?? 0;
}

describe("renderHtmlReport", () => {
  const html = renderHtmlReport(demoLikeRun());

  it("is one self-contained page: no script, no external resource, a policy that forbids fetching", () => {
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link/i);
    expect(html).not.toMatch(/(src|href)\s*=/i);
    expect(html).not.toMatch(/url\(/i);
    expect(html).not.toMatch(/@import/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });

  it("draws one point per turn with its numbers, per step", () => {
    const step = demoLikeStep();
    expect(count(html, /<circle class="turn /)).toBe(step.turns.length + 3);
    expect(html).toContain(`data-turn="10" data-generation="1" data-context="36200"`);
    expect(html).toContain(`data-turns="${step.turns.length}" data-handoffs="2"`);
  });

  it("draws the at and warnAt lines with their labels", () => {
    expect(count(html, /data-line="at" data-value="35000"/)).toBe(2);
    expect(count(html, /data-line="warnAt" data-value="15000"/)).toBe(2);
    expect(html).toContain(">handoff at 35K</text>");
    expect(html).toContain(">warn at 15K</text>");
  });

  it("marks each handoff, degraded ones as such", () => {
    expect(count(html, /<g class="handoff/)).toBe(2);
    expect(html).toContain(`data-handoff="1" data-degraded="false"`);
    expect(html).toContain(`data-handoff="2" data-degraded="true"`);
    expect(html).toContain(">handoff 2 (degraded)</text>");
  });

  it("tables cost and turns per generation, and the totals", () => {
    expect(html).toContain(
      `<tr data-generation="2" class="degraded"><td>2</td><td class="number">8</td><td class="number">$0.0388</td>`,
    );
    expect(html).toContain(`<div data-total="cost"><dt>Cost</dt><dd>$0.0975</dd></div>`);
    expect(html).toContain(`<div data-total="spills"><dt>Spills</dt><dd>3</dd></div>`);
    expect(html).toContain(`<div data-total="denials"><dt>Denials</dt><dd>2</dd></div>`);
    expect(html).toContain("2 steps · 25 turns · $0.1036 · 2 handoffs");
  });

  it("shows spills and denials per turn, and says so when there are none", () => {
    expect(count(html, /data-kind="spill"/)).toBe(2);
    expect(count(html, /data-kind="denial"/)).toBe(2);
    expect(html).toContain(`data-kind="spill" data-turn="13" data-count="2"`);
    expect(html).toContain(`data-activity="none"`);
  });

  it("shows guard rounds and checks when present, and leaves them out otherwise", () => {
    expect(count(html, /data-round="/)).toBe(2);
    expect(html).toContain(`data-round="1" data-passed="false"`);
    expect(html).toContain("found 48 rows");
    expect(count(html, /<h3>Goal guard rounds<\/h3>/)).toBe(1);
    const bare = renderHtmlReport({
      title: "t",
      steps: [{ ...demoLikeStep(), guard: undefined, checks: undefined }],
    });
    expect(bare).not.toContain("Goal guard rounds");
    expect(bare).not.toContain("<h3>Checks</h3>");
  });

  it("escapes every text that comes from the run", () => {
    const hostile = '<script>alert("x")</script>';
    const input: ReportInput = {
      title: hostile,
      steps: [
        {
          ...demoLikeStep(),
          step: `a"b<c>`,
          task: hostile,
          status: `"><img onerror=x>`,
          generations: [
            { generation: 1, costUsd: 0, numTurns: 1, handoff: { degraded: false, path: `/x/<b>'q'.md` } },
          ],
          guard: [
            {
              round: 1,
              verdict: hostile,
              passed: false,
              checks: [{ name: `"n"`, passed: true, detail: hostile }],
            },
          ],
        },
      ],
    };
    const page = renderHtmlReport(input);
    expect(page).not.toContain("<script");
    expect(page).not.toContain("<img");
    expect(page).not.toContain("<b>");
    expect(page).toContain(escapeHtml(hostile));
    expect(page).toContain(`data-step="a&quot;b&lt;c&gt;"`);
    expect(page).toContain(`/x/&lt;b&gt;&#39;q&#39;.md`);
  });

  it("gives goal-not-met a status colour of its own, apart from done and failed", () => {
    const page = renderHtmlReport({
      title: "t",
      steps: ["done", "failed", "goal-not-met"].map((status) => ({
        ...demoLikeStep(),
        step: status,
        status,
      })),
    });
    expect(page).toContain(`<span class="status status-goal-not-met">goal-not-met</span>`);
    const css = /<style>([\s\S]*)<\/style>/.exec(page)![1]!;
    const variables = new Map(
      [...css.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((match) => [match[1]!, match[2]!.trim()]),
    );
    /** The colour a `.status-<status>` rule sets, with a `var()` resolved from :root. */
    const colour = (status: string): string => {
      const rule = new RegExp(`\\.status-${status}\\s*\\{([^}]*)\\}`).exec(css)?.[1] ?? "";
      const value = /(?:^|;)\s*color:\s*([^;]+)/.exec(rule)?.[1]?.trim() ?? "";
      const variable = /^var\((--[\w-]+)\)$/.exec(value)?.[1];
      return variable ? (variables.get(variable) ?? "") : value;
    };
    const colours = ["done", "failed", "goal-not-met"].map(colour);
    for (const found of colours) expect(found).toMatch(/^#[0-9a-f]{6}$/);
    expect(new Set(colours).size).toBe(3);
  });

  it("speaks Chinese on request", () => {
    const zh = renderHtmlReport(demoLikeRun(), { locale: "zh" });
    expect(zh).toContain(`<html lang="zh">`);
    expect(zh).toContain(">换代线 35K</text>");
    expect(zh).toContain(">预警线 15K</text>");
    expect(zh).toContain("换代 2(降级)");
  });

  it("draws a step without turns as a sentence, not an empty chart", () => {
    const page = renderHtmlReport({ title: "t", steps: [{ ...demoLikeStep(), turns: [] }] });
    expect(page).not.toContain("<circle");
    expect(page).toContain("No turns recorded for this step.");
  });

  it("names the bad field of a bad input", () => {
    const bad = (mutate: (input: ReportInput) => void) => {
      const input = demoLikeRun();
      mutate(input);
      return () => renderHtmlReport(input);
    };
    expect(bad((input) => (input.steps[0]!.turns[3]!.context = -1))).toThrow(ConfigurationError);
    expect(bad((input) => (input.steps[0]!.turns[3]!.context = Number.NaN))).toThrow(
      /steps\[0\]\.turns\[3\]\.context: got NaN/,
    );
    expect(bad((input) => (input.steps[0]!.turns[12]!.generation = 1))).toThrow(
      /turns\[12\]\.generation: got 1.*never go back/,
    );
    expect(bad((input) => (input.steps[1]!.window = 0))).toThrow(/steps\[1\]\.window: got 0/);
    expect(bad((input) => (input.steps[0]!.turns[0]!.time = "yesterday"))).toThrow(
      /turns\[0\]\.time: got "yesterday"/,
    );
    expect(
      bad((input) => (input.steps[0]!.generations[1]!.handoff = { degraded: "no" as unknown as boolean })),
    ).toThrow(/generations\[1\]\.handoff\.degraded/);
    expect(bad((input) => (input.steps[0]!.guard![0]!.checks![0]!.passed = 1 as unknown as boolean))).toThrow(
      /guard\[0\]\.checks\[0\]\.passed/,
    );
    expect(bad((input) => (input.steps = {} as unknown as []))).toThrow(/steps: got an object/);
  });
});

describe("formatCost", () => {
  it("keeps four digits under a dollar and two above", () => {
    expect(formatCost(0)).toBe("$0.0000");
    expect(formatCost(0.01234)).toBe("$0.0123");
    expect(formatCost(12.345)).toBe("$12.35");
  });
});
