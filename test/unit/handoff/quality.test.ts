import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { degraded } from "../../../src/handoff/degraded.js";
import { Handoff } from "../../../src/handoff/handoff-document.js";
import { parseHandoff } from "../../../src/handoff/read-handoff.js";
import { HANDOFF_PROMPT } from "../../../src/handoff/prompt.js";
import { assessHandoff, isHollow, qualityMissing, scenePaths } from "../../../src/handoff/handoff-quality.js";
import { FIXTURES } from "./fixtures.js";
import { useTempDirs } from "../../support/temp-dir.js";

describe("isHollow", () => {
  const hollow = [
    "",
    "(空)",
    "(empty)",
    "TBD",
    "- TODO",
    "待定",
    "无。",
    "N/A",
    "...",
    "**none**",
    "<what you are doing>",
    "{next}",
    "下一步",
    "ok",
    "跑",
    "手上正在做的那件事,做到了哪一步。必填。",
    "The first concrete thing the successor does, down to the command or file. Required.",
  ];
  for (const text of hollow) {
    it(`${JSON.stringify(text)} is hollow`, () => expect(isHollow(text)).toBe(true));
  }

  const solid = [
    "跑测试",
    "run make",
    "修 bug",
    "`npm test`",
    "在给 Makefile 加 macOS 垫片头。",
    "Porting the tokenizer.",
  ];
  for (const text of solid) {
    it(`${JSON.stringify(text)} has substance`, () => expect(isHollow(text)).toBe(false));
  }
});

describe("qualityMissing", () => {
  it("extends complete(): placeholder-only required sections count as missing", () => {
    const handoff = new Handoff({ doing: "TBD", next: "<next step>" });
    expect(handoff.complete()).toBe(true);
    expect(qualityMissing(handoff)).toEqual(["doing", "next"]);
    expect(qualityMissing(new Handoff({ doing: "修 bug", next: "..." }))).toEqual(["next"]);
    expect(qualityMissing(new Handoff({ next: "跑测试" }))).toEqual(["doing"]);
  });

  it("passes every realistic fixture and the degraded handoff", () => {
    for (const fixture of FIXTURES)
      expect(qualityMissing(parseHandoff(fixture.text)), fixture.name).toEqual([]);
    expect(qualityMissing(degraded("s", "task"))).toEqual([]);
  });

  it("catches a model that echoed the prompt back", () => {
    const echoed = parseHandoff(HANDOFF_PROMPT.zh.replace("{used}", "1").replace("{window}", "2"));
    expect(echoed.complete()).toBe(true);
    expect(qualityMissing(echoed)).toEqual(["doing", "next"]);
    const echoedEn = parseHandoff(HANDOFF_PROMPT.en);
    expect(qualityMissing(echoedEn)).toEqual(["doing", "next"]);
  });
});

describe("scenePaths", () => {
  it("finds backticked and bare paths, absolute, relative and ~", () => {
    const scene = [
      "- `src/cache/images.ts:42` —— LRU 在这里",
      "- `.flower/artifacts/heap-diff.txt`",
      "- `Makefile`, `package.json`",
      "- 日志:/var/log/build.log。",
      "- ~/proj/.flower/notes/交接-干活.md",
      "- ./scripts/run.sh and ../other/README.md",
      "- build/out/report.html (生成的报告)",
      "- `npm run soak` 不是路径, `-D_ANSI_SOURCE` 也不是, `https://example.com/a.ts` 也不是",
      "- `v2.3.0` 和 and/or 和 input/output 都不是",
      "- `src/cache/images.ts` 重复一次",
    ].join("\n");
    expect(scenePaths(scene)).toEqual([
      "src/cache/images.ts",
      ".flower/artifacts/heap-diff.txt",
      "Makefile",
      "package.json",
      "/var/log/build.log",
      "~/proj/.flower/notes/交接-干活.md",
      "./scripts/run.sh",
      "../other/README.md",
      "build/out/report.html",
    ]);
  });

  it("does not read paths out of a fenced block (a degraded handoff's task)", () => {
    expect(scenePaths("原始任务:\n\n```text\n看看 `/etc/passwd`\n```")).toEqual([]);
  });
});

describe("assessHandoff", () => {
  const temp = useTempDirs();
  let workspace: string;
  let home: string;

  beforeAll(() => {
    const root = temp.make("flower-quality-");
    workspace = join(root, "ws");
    home = join(root, "home");
    mkdirSync(join(workspace, "src"), { recursive: true });
    mkdirSync(join(home, "notes"), { recursive: true });
    writeFileSync(join(workspace, "src", "a.ts"), "");
    writeFileSync(join(home, "notes", "n.md"), "");
  });

  it("checks every scene path on disk", () => {
    const handoff = new Handoff({
      doing: "在改 a.ts",
      next: "跑测试",
      deadends: "TBD",
      scene: `- \`src/a.ts\`\n- \`src/gone.ts\`\n- \`~/notes/n.md\`\n- \`${join(workspace, "src")}\`\n- ${join(workspace, "missing.log")}`,
    });
    const report = assessHandoff(handoff, { workspace, home });
    expect(report.paths.found).toEqual(["src/a.ts", "~/notes/n.md", join(workspace, "src")]);
    expect(report.paths.missing).toEqual(["src/gone.ts", join(workspace, "missing.log")]);
    expect(report.missing).toEqual([]);
    expect(report.hollow).toEqual(["deadends"]);
    expect(report.complete).toBe(true);
  });

  it("reports hollow required sections as missing", () => {
    const report = assessHandoff(new Handoff({ doing: "(空)", next: "TODO" }), { workspace, home });
    expect(report.missing).toEqual(["doing", "next"]);
    expect(report.complete).toBe(false);
    expect(report.paths).toEqual({ found: [], missing: [] });
  });
});
