/**
 * The report's picture of a step's work: a column of the files each generation changed (eight named, the
 * rest folded in a `<details>`, no script), the files the checkpoints left out and their warnings said
 * once, and the generations a rewind took back in a table of their own after the step's, marked. A step
 * without work draws as before.
 */
import { describe, expect, it } from "vitest";
import { renderHtmlReport } from "../../../src/report/html-report.js";
import type { ReportInput, ReportStep } from "../../../src/report/report-input.js";
import { demoLikeStep } from "../../support/report-fixture.js";

function withFiles(): ReportStep {
  const step = demoLikeStep();
  return {
    ...step,
    generations: [
      { ...step.generations[0]!, files: ["docs/notes.md", "<b>.md"] },
      { ...step.generations[1]!, files: Array.from({ length: 10 }, (_, i) => `out/${i + 1}.csv`) },
      { ...step.generations[2]!, files: [] },
    ],
    leftOut: [{ path: "data/big.bin", why: "too-large", bytes: 2048 }],
    workWarnings: ["the shared store was away: checkpoints kept here only"],
    rewound: [
      {
        at: "2026-11-30T10:00:00Z",
        to: 3,
        generations: [{ generation: 3, costUsd: 0.02, numTurns: 5, files: ["summary.md"] }],
      },
    ],
  };
}

function page(step: ReportStep, locale: "en" | "zh" = "en"): string {
  return renderHtmlReport({ title: "t", steps: [step] }, { locale });
}

describe("the report's files per generation", () => {
  it("adds a files column: names escaped, eight shown, the rest folded, none said", () => {
    const html = page(withFiles());
    expect(html).toContain(
      "<th>Generation</th><th>Turns</th><th>Cost</th><th>Peak context</th><th>Ended in</th><th>Handoff document</th><th>Files changed</th>",
    );
    expect(html).toContain(
      `<td class="files" data-files="2"><code>docs/notes.md</code>, <code>&lt;b&gt;.md</code></td>`,
    );
    expect(html).toContain(
      `<code>out/8.csv</code> <details><summary>and 2 more</summary><code>out/9.csv</code>, <code>out/10.csv</code></details></td>`,
    );
    expect(html).toContain(`<td class="files" data-files="0"><span class="muted">none</span></td>`);
    expect(html).not.toMatch(/<script/i);
  });

  it("says the files left out and the warnings once, under the step's generations", () => {
    const html = page(withFiles());
    expect(html).toContain(
      `<p class="note" data-work="left-out">Left out of the checkpoints (a rewind cannot put them back): <code>data/big.bin</code> (too large, 2.0 KB)</p>`,
    );
    expect(html).toContain(
      `<p class="note" data-work="warning">Checkpoint warning: the shared store was away: checkpoints kept here only</p>`,
    );
  });

  it("lists the rewound generations after the step's, with when and where to, each row marked", () => {
    const html = page(withFiles());
    const rewound = html.slice(html.indexOf(`<table class="generations rewound" data-rewound-to="3">`));
    expect(rewound).toContain(
      "<caption>Rewound on 2026-11-30 10:00:00 UTC (flower rewind): back to the start of generation 3.",
    );
    expect(rewound).toContain(
      `<tr data-generation="3" data-rewound="true" class="rewound"><td>3</td><td class="number">5</td><td class="number">$0.0200</td><td class="number">—</td><td>rewound</td><td class="path"></td><td class="files" data-files="1"><code>summary.md</code></td></tr>`,
    );
    expect(html.indexOf("data-rewound-to")).toBeGreaterThan(html.indexOf(`<tr data-generation="3">`));
    const zh = page(withFiles(), "zh");
    expect(zh).toContain("<caption>2026-11-30 10:00:00 UTC 回退(flower rewind)到第 3 代开头。");
    expect(zh).toContain("<td>已回退</td>");
    expect(zh).toContain("<th>改动的文件</th>");
  });

  it("draws a step without work as before: no column, no note, no rewound table", () => {
    const html = page(demoLikeStep());
    expect(html).not.toContain("Files changed");
    expect(html).not.toContain('class="files"');
    expect(html).not.toContain("data-work=");
    expect(html).not.toContain("data-rewound");
  });

  it("names a bad field of the work", () => {
    const bad = (mutate: (step: ReportStep) => void) => {
      const step = withFiles();
      mutate(step);
      return () => renderHtmlReport({ title: "t", steps: [step] } satisfies ReportInput);
    };
    expect(bad((step) => (step.generations[0]!.files = [1 as unknown as string]))).toThrow(
      /steps\[0\]\.generations\[0\]\.files\[0\]/,
    );
    expect(bad((step) => (step.leftOut![0]!.why = "big" as never))).toThrow(/steps\[0\]\.leftOut\[0\]\.why/);
    expect(bad((step) => (step.rewound![0]!.at = "later"))).toThrow(/steps\[0\]\.rewound\[0\]\.at/);
    expect(bad((step) => (step.rewound![0]!.generations[0]!.numTurns = -1))).toThrow(
      /steps\[0\]\.rewound\[0\]\.generations\[0\]\.numTurns/,
    );
  });
});
