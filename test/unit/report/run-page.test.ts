/**
 * The run on one page (issue 23, item 9), as HTML text: close labels moved apart and the scale zoomed at
 * the CLI's 1M default, a goal-not-met step's failing check with its reason, the task as typed (line breaks
 * kept) apart from the prompt flower wrote, and a run's steps in order with their status. The browser test
 * (test/e2e/cli/demo.test.ts and goal-not-met.test.ts) checks the same on rendered pages.
 */
import { describe, expect, it } from "vitest";
import { contextScale, spreadLabels } from "../../../src/report/context-chart.js";
import { renderHtmlReport } from "../../../src/report/html-report.js";
import type { ReportInput, ReportStep } from "../../../src/report/report-input.js";

/** A small run at the 1M default: handoff at 950K, warning at 930K, contexts around 20K. */
function smallStep(overrides: Partial<ReportStep> = {}): ReportStep {
  return {
    step: "gnm/work",
    window: 1_000_000,
    at: 950_000,
    warnAt: 930_000,
    turns: [18_000, 19_500, 21_000].map((context) => ({ generation: 1, context })),
    generations: [{ generation: 1, costUsd: 0.01, numTurns: 3 }],
    ...overrides,
  };
}

function labelYs(html: string): Record<string, number> {
  const ys: Record<string, number> = {};
  for (const match of html.matchAll(/data-label="(\w+)"[^>]* y="([\d.]+)"/g))
    ys[match[1]!] = Number(match[2]);
  return ys;
}

describe("the context chart's labels and scale", () => {
  it("zooms a small run to its data and names the lines above it, apart (en and zh)", () => {
    for (const locale of ["en", "zh"] as const) {
      const html = renderHtmlReport({ title: "t", steps: [smallStep()] }, { locale });
      expect(html).toContain('data-zoomed="true"');
      expect(html).toContain('data-top="50000"');
      expect(html).not.toContain('class="threshold ');
      expect(html).toContain(locale === "en" ? ">↑ handoff at 950K</text>" : ">↑ 换代线 950K</text>");
      const ys = labelYs(html);
      expect(Math.abs(ys.at! - ys.warnAt!)).toBeGreaterThanOrEqual(15);
      expect(html).toContain(locale === "en" ? "zoomed to the data (top 50K)" : "纵轴放大到数据(顶端 50K)");
    }
  });

  it("keeps the window's scale when the data reaches the lines, and moves the two labels apart", () => {
    const step = smallStep({
      turns: [400_000, 800_000, 940_000].map((context) => ({ generation: 1, context })),
    });
    expect(contextScale(step)).toEqual({ top: 1_000_000, zoomed: false });
    const ys = labelYs(renderHtmlReport({ title: "t", steps: [step] }));
    expect(ys.warnAt! - ys.at!).toBeGreaterThanOrEqual(15);
  });

  it("spreads labels that want the same place, and keeps them inside the plot", () => {
    expect(spreadLabels([30, 30, 31], 28, 280)).toEqual([30, 45, 60]);
    expect(spreadLabels([279, 280], 28, 280)).toEqual([265, 280]);
    expect(spreadLabels([100, 200], 28, 280)).toEqual([100, 200]);
  });

  it("leaves out a generation label that would touch its neighbour", () => {
    const turns = Array.from({ length: 60 }, (_, index) => ({
      generation: index < 58 ? 1 : index === 58 ? 2 : 3,
      context: 10_000 + index * 100,
    }));
    const html = renderHtmlReport({
      title: "t",
      steps: [
        smallStep({ turns, generations: [1, 2, 3].map((g) => ({ generation: g, costUsd: 0, numTurns: 1 })) }),
      ],
    });
    const labels = [...html.matchAll(/class="generation-label"[^>]*>([^<]+)</g)].map((match) => match[1]);
    expect(labels).toEqual(["gen 1", "gen 2"]);
  });
});

const notMet: ReportStep = smallStep({
  status: "goal-not-met",
  why: "the checks still failed after 3 guard rounds",
  guard: [0, 1].map((round) => ({
    round,
    verdict: "failed",
    passed: false,
    checks: [
      { name: "npm test", passed: true, log: "../.flower/artifacts/goal-check-1.run-1.log" },
      {
        name: "test -f out.txt",
        passed: false,
        detail: "exit code 1, expected 0",
        tail: "no such file",
        log: `../.flower/artifacts/goal-check-2.run-${round + 1}.log`,
      },
    ],
  })),
});

describe("a goal-not-met step", () => {
  it.each([
    ["en", "Goal not met", "1 of 2 checks failed in the last run:"],
    ["zh", "目标未达成", "最后一次运行中 2 项检查有 1 项未通过:"],
  ] as const)("%s: says which check failed, why, its output and its log", (locale, title, count) => {
    const html = renderHtmlReport({ title: "t", steps: [notMet] }, { locale });
    const box = /<div class="verdict-box"[\s\S]*?<\/ul><\/div>/.exec(html)?.[0] ?? "";
    expect(box).toContain(`<strong>${title}</strong>`);
    expect(box).toContain("the checks still failed after 3 guard rounds");
    expect(box).toContain(count);
    expect(box).toContain(
      '<code>test -f out.txt</code> — <span class="reason">exit code 1, expected 0</span>',
    );
    expect(box).toContain('href="../.flower/artifacts/goal-check-2.run-2.log"');
    expect(box).toContain('<pre class="tail">no such file</pre>');
    expect(box).not.toContain("npm test");
  });
});

describe("a run on one page", () => {
  const input: ReportInput = {
    title: "gnm",
    run: {
      id: "gnm",
      task: "Write out.txt\nwith one line: hello",
      status: "goal-not-met",
      documents: [
        {
          title: "Goal",
          step: "goal",
          path: ".flower/notes/goal-gnm.md",
          notes: ["changed on disk after it was frozen"],
          sections: [{ label: "Checks", text: "- `test -f out.txt` exits 0" }],
        },
      ],
    },
    steps: [
      { ...smallStep({ step: "gnm/requirements", status: "done" }), prompt: "You write the requirements…" },
      { ...smallStep({ step: "gnm/goal", status: "done" }), prompt: "You write the goal…" },
      { ...notMet, prompt: "Work on this…" },
    ],
  };
  const html = renderHtmlReport(input);

  it("starts with the task as typed, line break kept, and the prompts folded apart from it", () => {
    expect(html).toContain('<div class="typed">Write out.txt\nwith one line: hello</div>');
    expect(count(html, /<div class="task">/)).toBe(1);
    expect(html).toContain(
      '<details class="prompt"><summary>The prompt flower wrote for this step</summary>',
    );
  });

  it("lists the steps in order with their status, the documents as frozen, the checks run by run", () => {
    const steps = [...html.matchAll(/<li data-step="([^"]+)" data-status="([^"]+)"/g)].map(
      (m) => `${m[1]}:${m[2]}`,
    );
    expect(steps).toEqual(["gnm/requirements:done", "gnm/goal:done", "gnm/work:goal-not-met"]);
    expect(html).toContain('<p class="note">changed on disk after it was frozen</p>');
    expect(html).toContain("<dt>Checks</dt>");
    expect(html).toContain("<th>after the first session</th><th>after round 1</th>");
    expect(count(html, /<td class="failed" data-run="\d" data-passed="false"/)).toBe(2);
    // The verdict once, at the top with the run's steps.
    expect(count(html, /class="verdict-box"/)).toBe(1);
    expect(html.indexOf('class="verdict-box"')).toBeLessThan(html.indexOf('<section class="step"'));
  });
});

function count(html: string, pattern: RegExp): number {
  return html.match(new RegExp(pattern.source, "g"))?.length ?? 0;
}
