/**
 * What a person reads of a step's work (src/checkpoints/) after the run: `flower show <step>` lists the files
 * each generation changed (eight named, then how many more), says the files left out of the checkpoints
 * and the checkpoint warnings once, and lists the generations a rewind took back after the current ones,
 * marked; `flower show <run>` counts the files per step; `flower report` has the same per generation. A
 * record written before checkpoints were kept shows nothing of them. Records are written to a run
 * directory's records.db and read through the commands in this process.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseCommandLine } from "../../../src/cli/command-line/args.js";
import { localTime } from "../../../src/cli/record-views/step-figures.js";
import { reportInput, wantedRecords } from "../../../src/cli/record-views/report-contents.js";
import { showCommand } from "../../../src/cli/commands/show.js";
import { openStepSource } from "../../../src/cli/record-views/step-source.js";
import type { Locale } from "../../../src/locale/locale.js";
import {
  newStepRecord,
  type GenerationRecord,
  type GenerationWork,
  type StepRecord,
} from "../../../src/records/step-record.js";
import { renderHtmlReport } from "../../../src/report/html-report.js";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();

beforeEach(() => {
  // The run directory only: a FLOWER_STORE of the machine running the tests must not be opened.
  vi.stubEnv("FLOWER_STORE", "");
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const AT = "2026-12-02T04:00:00.000Z";
const REWOUND_AT = "2026-12-02T05:30:00.000Z";
const ELEVEN = Array.from({ length: 11 }, (_, index) => `src/f${index + 1}.ts`);

function generation(
  number: number,
  session: string,
  options: { cost: number; turns: number; context: number; files?: string[]; handedOff?: boolean },
): GenerationRecord {
  const work: GenerationWork | undefined =
    options.files === undefined
      ? undefined
      : { start: `c${number}`, end: `c${number}e`, files: options.files };
  return {
    generation: number,
    sessionId: session,
    startedAt: AT,
    endedAt: options.handedOff ? AT : null,
    costUsd: options.cost,
    numTurns: options.turns,
    context: options.context,
    handoff: options.handedOff
      ? { path: null, degraded: false, why: null, missing: [], scene: { found: [], missing: [] } }
      : null,
    ...(work ? { work } : {}),
  };
}

/** A step of two generations that changed files, one generation a rewind took back, and what was left out. */
function workedStep(name = "fix", run?: string): StepRecord {
  const record = newStepRecord(name, "lead", "Fix the flaky test.", new Date(AT));
  const history = [
    generation(1, "s1", {
      cost: 0.1,
      turns: 4,
      context: 40_000,
      files: ["src/a.ts", "src/b.ts", "README.md"],
      handedOff: true,
    }),
    generation(2, "s2", { cost: 0.05, turns: 2, context: 12_000, files: ELEVEN }),
  ];
  return {
    ...record,
    ...(run ? { run, workflow: { run, name: "work", task: "Fix the flaky test." } } : {}),
    status: "done",
    sessionId: "s2",
    generations: 2,
    costUsd: 0.15,
    history,
    work: {
      run: run ?? name,
      workspace: "/home/u/proj",
      isolated: false,
      base: "b0",
      start: "c1",
      tip: "c2e",
      checkpoints: 9,
      leftOut: [
        { path: "data/big.bin", why: "too-large", bytes: 150 * 1024 * 1024 },
        { path: "vendor/lib", why: "nested-repository" },
      ],
      warnings: ["a checkpoint of the run's files failed (call): ENOSPC"],
    },
    rewound: [
      {
        at: REWOUND_AT,
        to: 2,
        commit: "c2",
        from: "c9",
        generations: [
          generation(2, "s2-old", {
            cost: 0.03,
            turns: 3,
            context: 20_000,
            files: ["src/c.ts"],
            handedOff: true,
          }),
        ],
        handoffs: [],
        retired: ["s2-old"],
      },
    ],
  };
}

/** The same step as a record written before checkpoints were kept: no `work` anywhere. */
function olderStep(name = "old"): StepRecord {
  const step = workedStep(name);
  const { work: _work, rewound: _rewound, ...rest } = step;
  return {
    ...rest,
    history: step.history.map(({ work: _generationWork, ...generationRest }) => generationRest),
  };
}

function runDirWith(records: StepRecord[]): string {
  const runDir = temp.make("flower-show-work-");
  const store = new SqliteRunRecords(runDir);
  try {
    for (const record of records) store.put(record);
  } finally {
    store.close();
  }
  return runDir;
}

/** What `flower show <name>` prints, run in this process. */
async function show(runDir: string, name: string, locale: Locale = "en"): Promise<string[]> {
  const parsed = parseCommandLine(["show", name, "--run-dir", runDir, "--lang", locale], {});
  if ("help" in parsed) throw new Error("parsed as help");
  const written: string[] = [];
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  try {
    expect(await showCommand(parsed)).toBe(0);
  } finally {
    write.mockRestore();
  }
  return written.join("").split("\n");
}

/** The lines from the generations' title to the line before `until` starts (or the end). */
function section(lines: string[], from: string, until: (line: string) => boolean): string[] {
  const start = lines.indexOf(from);
  expect(start, lines.join("\n")).toBeGreaterThanOrEqual(0);
  const rest = lines.slice(start);
  const end = rest.findIndex((line, index) => index > 0 && until(line));
  return end < 0 ? rest : rest.slice(0, end);
}

describe("flower show <step>: the files each generation changed", () => {
  it("names them under each generation, says what was left out and the warnings once, and lists the rewound generations after, marked", async () => {
    const runDir = runDirWith([workedStep()]);
    const lines = await show(runDir, "fix");
    expect(section(lines, "generations:", (line) => line.startsWith("handoff files"))).toEqual([
      "generations:",
      "    1  s1 · $0.1000 · 4 turns · context 40.0K",
      "       changed 3 files: src/a.ts, src/b.ts, README.md",
      "       -> handed off: (no workbench: not written to disk) · ok",
      "    2  s2 · $0.0500 · 2 turns · context 12.0K · current",
      "       changed 11 files: src/f1.ts, src/f2.ts, src/f3.ts, src/f4.ts, src/f5.ts, src/f6.ts, src/f7.ts, src/f8.ts and 3 more",
      "  left out of the checkpoints (a rewind cannot put them back): data/big.bin (too large, 150.0 MB), vendor/lib (a repository of its own)",
      "  ! checkpoints: a checkpoint of the run's files failed (call): ENOSPC",
      "",
      `rewound at ${localTime(REWOUND_AT)} (flower rewind), back to the start of generation 2; no longer the step's:`,
      "    2  s2-old · $0.0300 · 3 turns · context 20.0K · rewound",
      "       changed 1 file: src/c.ts",
      "       -> handed off: (no workbench: not written to disk) · ok",
      "",
    ]);
  });

  it("says the same in Chinese", async () => {
    const runDir = runDirWith([workedStep()]);
    const lines = await show(runDir, "fix", "zh");
    expect(lines).toContain("       改了 3 个文件:src/a.ts, src/b.ts, README.md");
    expect(lines).toContain(
      "       改了 11 个文件:src/f1.ts, src/f2.ts, src/f3.ts, src/f4.ts, src/f5.ts, src/f6.ts, src/f7.ts, src/f8.ts,还有 3 个",
    );
    expect(lines).toContain(
      "  没进检查点的文件(回退放不回它们):data/big.bin(太大,150.0 MB), vendor/lib(自带 git 仓库)",
    );
    expect(lines).toContain("  ! 检查点:a checkpoint of the run's files failed (call): ENOSPC");
    expect(lines).toContain(
      `${localTime(REWOUND_AT)} 回退(flower rewind)到第 2 代开头;以下几代已不算这一步的:`,
    );
    expect(lines).toContain("    2  s2-old · $0.0300 · 3 轮 · 上下文 20.0K · 已回退");
  });

  it("a generation that recorded its work and changed nothing says so", async () => {
    const step = workedStep();
    step.history[1]!.work!.files = [];
    const lines = await show(runDirWith([step]), "fix");
    expect(lines).toContain("       changed no files");
  });

  it("shows nothing of it for a record written before checkpoints were kept", async () => {
    const lines = await show(runDirWith([olderStep()]), "old");
    expect(section(lines, "generations:", (line) => line === "" || line.startsWith("handoff files"))).toEqual(
      [
        "generations:",
        "    1  s1 · $0.1000 · 4 turns · context 40.0K",
        "       -> handed off: (no workbench: not written to disk) · ok",
        "    2  s2 · $0.0500 · 2 turns · context 12.0K · current",
      ],
    );
    expect(lines.join("\n")).not.toMatch(/changed|checkpoint|rewound/);
  });
});

describe("flower show <run>: how many files each step changed", () => {
  it("counts the files of the step's current generations, each once; a step without work says nothing", async () => {
    const worked = workedStep("r/work", "r");
    // A file changed again in the next generation counts once.
    worked.history[1]!.work!.files = [...ELEVEN, "src/a.ts"];
    const older = { ...olderStep("r/goal"), run: "r", workflow: { run: "r", name: "goal", task: "t" } };
    older.updatedAt = "2026-12-02T03:00:00.000Z";
    const lines = await show(runDirWith([older, worked]), "r");
    const steps = section(lines, "steps:", (line) => line === "");
    expect(steps).toHaveLength(3);
    expect(steps.find((line) => line.includes(" goal "))).toMatch(/· generations 2$/);
    expect(steps.find((line) => line.includes(" work "))).toMatch(/· generations 2 · 14 files changed$/);
    const zh = await show(runDirWith([older, worked]), "r", "zh");
    expect(zh.find((line) => line.includes(" work "))).toMatch(/· 代 2 · 改了 14 个文件$/);
  });
});

describe("flower report: the files per generation, and the rewound generations", () => {
  async function page(records: StepRecord[], name: string, locale: Locale = "en"): Promise<string> {
    const runDir = runDirWith(records);
    const source = await openStepSource({ "run-dir": runDir }, locale);
    try {
      return renderHtmlReport(reportInput(wantedRecords(source, [name], locale), source, locale, runDir), {
        locale,
      });
    } finally {
      await source.close();
    }
  }

  it("names each generation's files, folds the rest, says what was left out, and marks the rewound ones", async () => {
    const html = await page([workedStep()], "fix");
    expect(html).toContain("<th>Files changed</th>");
    expect(html).toContain(
      `<td class="files" data-files="3"><code>src/a.ts</code>, <code>src/b.ts</code>, <code>README.md</code></td>`,
    );
    expect(html).toContain(
      `<code>src/f8.ts</code> <details><summary>and 3 more</summary><code>src/f9.ts</code>, <code>src/f10.ts</code>, <code>src/f11.ts</code></details>`,
    );
    expect(html).toContain(
      `<p class="note" data-work="left-out">Left out of the checkpoints (a rewind cannot put them back): <code>data/big.bin</code> (too large, 150.0 MB), <code>vendor/lib</code> (a repository of its own)</p>`,
    );
    expect(html).toContain(
      `<p class="note" data-work="warning">Checkpoint warning: a checkpoint of the run&#39;s files failed (call): ENOSPC</p>`,
    );
    expect(html).toContain(
      `<caption>Rewound on 2026-12-02 05:30:00 UTC (flower rewind): back to the start of generation 2. These generations are no longer the step&#39;s; their files were put back.</caption>`,
    );
    expect(html).toMatch(
      /<tr data-generation="2" data-rewound="true" class="rewound"><td>2<\/td><td class="number">3<\/td><td class="number">\$0\.0300<\/td><td class="number">—<\/td><td>handoff · rewound<\/td><td class="path"><\/td><td class="files" data-files="1"><code>src\/c\.ts<\/code><\/td><\/tr>/,
    );
    // The rewound table comes after the step's own generations.
    expect(html.indexOf('data-rewound-to="2"')).toBeGreaterThan(html.indexOf('<tr data-generation="2">'));
  });

  it("speaks Chinese on request", async () => {
    const html = await page([workedStep()], "fix", "zh");
    expect(html).toContain("<th>改动的文件</th>");
    expect(html).toContain("<summary>还有 3 个</summary>");
    expect(html).toContain("2026-12-02 05:30:00 UTC 回退(flower rewind)到第 2 代开头。");
    expect(html).toContain("<td>换代 · 已回退</td>");
  });

  it("draws a record written before checkpoints as before: no files column, no notes, no rewound table", async () => {
    const html = await page([olderStep()], "old");
    expect(html).not.toContain("Files changed");
    expect(html).not.toContain('class="files"');
    expect(html).not.toContain("data-work=");
    expect(html).not.toContain("data-rewound");
    expect(html).not.toContain("Rewound on");
  });
});
