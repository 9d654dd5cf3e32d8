import { describe, expect, it } from "vitest";
import { findChecksSection, parseChecksSection, parseGoalChecks } from "../../../src/goal/goal-document.js";

/** Full-width ,:;() as a Chinese writer types them (this file is kept ASCII on purpose). */
const zh = (text: string): string =>
  text.replace(/[,:;()]/g, (mark) => String.fromCharCode(mark.charCodeAt(0) + 0xfee0));

describe("parseGoalChecks: whole documents", () => {
  it("reads the checks section of an English goal document and nothing else", () => {
    const document = [
      "# Goal",
      "",
      "## goal",
      "The CSV export keeps Chinese characters intact.",
      "",
      "## checks",
      "- `npm test` — exit 0",
      "- `grep -c TODO src/app.ts` → output matches `^0$`",
      "- `node scripts/export.js fixtures/orders.json` — output contains `订单`",
      "",
      "## constraints",
      "- `rm -rf dist` is not allowed",
    ].join("\n");
    const parsed = parseGoalChecks(document);
    expect(parsed.sectionFound).toBe(true);
    expect(parsed.unparsed).toEqual([]);
    expect(parsed.checks).toEqual([
      { command: "npm test", expect: { exitCode: 0 } },
      { command: "grep -c TODO src/app.ts", expect: { pattern: "^0$" } },
      { command: "node scripts/export.js fixtures/orders.json", expect: { pattern: "订单" } },
    ]);
  });

  it("reads a Chinese goal document (检查, 退出码, 输出匹配, full-width punctuation)", () => {
    const document = zh(
      [
        "# 目标",
        "",
        "## 目标",
        "导出的 CSV 在 Excel 里中文不乱码。",
        "",
        "## 检查",
        "1. `npm test` —— 退出码 0",
        "2. `grep -c TODO src/app.ts` —— 输出匹配 `^0$`",
        "3. 导出能跑通:`node scripts/export.js` —— 退出码为 0,输出包含「已导出」",
        "4. `npm run lint` (退出码是 0,超时 300 秒)",
        "",
        "## 约束",
        "- 不改数据库结构",
      ].join("\n"),
    );
    const parsed = parseGoalChecks(document);
    expect(parsed.unparsed).toEqual([]);
    expect(parsed.checks).toEqual([
      { command: "npm test", expect: { exitCode: 0 } },
      { command: "grep -c TODO src/app.ts", expect: { pattern: "^0$" } },
      {
        command: "node scripts/export.js",
        expect: { exitCode: 0, pattern: "已导出" },
        description: "导出能跑通",
      },
      { command: "npm run lint", expect: { exitCode: 0 }, timeoutMs: 300_000 },
    ]);
  });

  it("says when a document has no checks section", () => {
    expect(parseGoalChecks("# Goal\n\n## goal\nShip it.\n\n## constraints\n- none")).toEqual({
      checks: [],
      unparsed: [],
      sectionFound: false,
    });
  });

  it("tells an empty or prose-only checks section apart by its unparsed lines", () => {
    const parsed = parseGoalChecks(
      "## goal\nFast pages.\n\n## checks\nThe page should feel fast.\nAsk QA.\n",
    );
    expect(parsed).toEqual({
      checks: [],
      unparsed: ["The page should feel fast.", "Ask QA."],
      sectionFound: true,
    });
  });

  it("finds bold and numbered headings, and stops at the next heading of the same level", () => {
    const document = "**Goal:** ship\n\n**Checks:**\n- `make test`\n\n**Non-goals:**\n- `make docs`";
    expect(parseGoalChecks(document.replace("**Goal:** ship", "# Goal")).checks).toEqual([
      { command: "make test" },
    ]);
    expect(
      findChecksSection("# G\n## 2. Checks (run from the root)\n- `a`\n### detail\n- `b`\n## next\n- `c`"),
    ).toBe("- `a`\n### detail\n- `b`");
  });

  it("does not take a heading inside a fence for a section", () => {
    const document = "# goal\n```\n## checks\n- `rm -rf /`\n```\n## checks\n- `true`";
    expect(parseGoalChecks(document).checks).toEqual([{ command: "true" }]);
  });
});

describe("parseChecksSection: tolerant forms", () => {
  it.each([
    ["- `npm test` — exit 0", { command: "npm test", expect: { exitCode: 0 } }],
    ["* `npm test` - exits 0", { command: "npm test", expect: { exitCode: 0 } }],
    ["1) `npm test` -> exit code 0", { command: "npm test", expect: { exitCode: 0 } }],
    ["- [ ] `npm test` (exit status 0)", { command: "npm test", expect: { exitCode: 0 } }],
    ["- `./check.sh` — exits with code 3", { command: "./check.sh", expect: { exitCode: 3 } }],
    ["- `./check.sh` — rc=3", { command: "./check.sh", expect: { exitCode: 3 } }],
    ["- `curl -sf localhost/health` — returns 200", { command: "curl -sf localhost/health" }],
    ["- `npm test`", { command: "npm test" }],
    ["- `npm test` passes", { command: "npm test" }],
    ["- **`npm test`** — exit 0", { command: "npm test", expect: { exitCode: 0 } }],
    ["- ``echo `date` ok`` — exit 0", { command: "echo `date` ok", expect: { exitCode: 0 } }],
    ["- `$ npm test` — exit 0", { command: "npm test", expect: { exitCode: 0 } }],
    ["$ npm test — exit 0", { command: "npm test", expect: { exitCode: 0 } }],
    ["- npm test — exit 0", { command: "npm test", expect: { exitCode: 0 } }],
    [
      '- `curl -s localhost:3000/health` → output matches /"ok":\\s*true/i',
      { command: "curl -s localhost:3000/health", expect: { pattern: '"ok":\\s*true' } },
    ],
    [
      '- `wc -l < out.txt` — output matches "^42$"',
      { command: "wc -l < out.txt", expect: { pattern: "^42$" } },
    ],
    ["- `npm test` — output contains `0 failed`", { command: "npm test", expect: { pattern: "0 failed" } }],
    ["- `cat VERSION` — output contains 1.2.3", { command: "cat VERSION", expect: { pattern: "1\\.2\\.3" } }],
    [
      "- `npm run e2e` — exit 0, timeout 10 min",
      { command: "npm run e2e", expect: { exitCode: 0 }, timeoutMs: 600_000 },
    ],
    ["| `npm test` | exit 0 |", { command: "npm test", expect: { exitCode: 0 } }],
    [
      "- Unit tests: `npm test` — exit 0",
      { command: "npm test", expect: { exitCode: 0 }, description: "Unit tests" },
    ],
    [zh("- `npm test` —— 退出码为 0"), { command: "npm test", expect: { exitCode: 0 } }],
    [zh("- `npm test`,返回码:0"), { command: "npm test", expect: { exitCode: 0 } }],
    [
      zh("- `grep -c TODO a.ts` —— 输出需匹配正则 `^0$`"),
      { command: "grep -c TODO a.ts", expect: { pattern: "^0$" } },
    ],
    [zh('- `cat out.txt` —— 输出包含 "完成"'), { command: "cat out.txt", expect: { pattern: "完成" } }],
    [zh("- `npm test` 通过"), { command: "npm test" }],
  ])("reads %j", (line, check) => {
    expect(parseChecksSection(line)).toEqual({ checks: [check], unparsed: [] });
  });

  it("keeps a line whose expectation a check cannot express, and a bad pattern, as unparsed", () => {
    const body = "- `grep TODO src` — exits non-zero\n- `echo x` — output matches `(`\n- `true` — exit 0";
    expect(parseChecksSection(body)).toEqual({
      checks: [{ command: "true", expect: { exitCode: 0 } }],
      unparsed: ["- `grep TODO src` — exits non-zero", "- `echo x` — output matches `(`"],
    });
  });

  it("does not guess a command from prose", () => {
    expect(parseChecksSection("- make sure the tests pass\n- 所有测试都要通过\n- The app starts")).toEqual({
      checks: [],
      unparsed: ["- make sure the tests pass", "- 所有测试都要通过", "- The app starts"],
    });
  });

  it("reads a fenced block as one check per line, with the intro line's expectation", () => {
    const body = [
      "Each of these must exit 0:",
      "```sh",
      "$ npm run build",
      "# the unit tests",
      "npm test",
      "```",
    ].join("\n");
    expect(parseChecksSection(body)).toEqual({
      checks: [
        { command: "npm run build", expect: { exitCode: 0 }, description: "Each of these must exit 0" },
        { command: "npm test", expect: { exitCode: 0 }, description: "Each of these must exit 0" },
      ],
      unparsed: [],
    });
  });

  it("reads a fenced script as one check, with the expectation after the fence", () => {
    const body = ["```bash", "for f in dist/*.js; do", '  node --check "$f"', "done", "```", "→ exit 0"].join(
      "\n",
    );
    expect(parseChecksSection(body)).toEqual({
      checks: [{ command: 'for f in dist/*.js; do\n  node --check "$f"\ndone', expect: { exitCode: 0 } }],
      unparsed: [],
    });
  });

  it("skips table separators and blank lines, and keeps a table header as unparsed", () => {
    const body =
      "| command | passing |\n| --- | --- |\n| `npm test` | exit 0 |\n\n| `npm run lint` | exit 0 |";
    expect(parseChecksSection(body)).toEqual({
      checks: [
        { command: "npm test", expect: { exitCode: 0 } },
        { command: "npm run lint", expect: { exitCode: 0 } },
      ],
      unparsed: ["| command | passing |"],
    });
  });

  it("is safe on empty and odd input", () => {
    expect(parseChecksSection("")).toEqual({ checks: [], unparsed: [] });
    expect(parseGoalChecks(undefined as unknown as string)).toEqual({
      checks: [],
      unparsed: [],
      sectionFound: false,
    });
    expect(parseChecksSection("```\n```")).toEqual({ checks: [], unparsed: [] });
    expect(parseChecksSection("```sh\nnpm test").checks).toEqual([{ command: "npm test" }]);
  });
});
