/**
 * A declared document read from a model's answer or a frozen file: both locales' headings, the tolerant
 * forms the handoff parser knows, nothing lost (lines outside the sections land in the notes block), and
 * a frozen file is a fixed point of parse → freeze.
 */
import { describe, expect, it } from "vitest";
import { GOAL } from "../../../src/documents/builtin/goal.js";
import { REQUIREMENTS } from "../../../src/documents/builtin/requirements.js";
import { parseDocument } from "../../../src/documents/read.js";
import { LOCALES } from "../../../src/locale/locale.js";

const ZH_ANSWER = [
  "好的,下面是需求确认书:",
  "",
  "## 任务",
  "给 CLI 加一个 --json 选项,输出机器可读的结果。",
  "## 范围内",
  "- run 和 show 两个命令",
  "## 范围外",
  "- report 命令",
  "## 验收标准",
  "- `flower show --json` 输出合法 JSON",
  "## 假设",
  "- JSON 字段名用英文",
  "## 待确认问题",
  "- 要不要给 runs 也加?",
  "",
  "---",
  "",
  "有问题随时说。",
].join("\n");

describe("parseDocument", () => {
  it("reads the zh headings and keeps the preamble and closing remarks as notes", () => {
    const document = parseDocument(REQUIREMENTS, ZH_ANSWER, "r1");
    expect(document.sections.task).toBe("给 CLI 加一个 --json 选项,输出机器可读的结果。");
    expect(document.sections.inScope).toBe("- run 和 show 两个命令");
    expect(document.sections.outOfScope).toBe("- report 命令");
    expect(document.sections.acceptance).toBe("- `flower show --json` 输出合法 JSON");
    expect(document.sections.assumptions).toBe("- JSON 字段名用英文");
    expect(document.sections.openQuestions).toBe("- 要不要给 runs 也加?");
    expect(document.notes).toBe("好的,下面是需求确认书:\n\n有问题随时说。");
    expect(document.degraded).toBeNull();
  });

  it("reads tolerant forms: bold, numbered, label lines, another language's headings, a fenced document", () => {
    const answer = [
      "Here you go:",
      "```markdown",
      "**1. Task:** Add a --json flag to the CLI.",
      "2) In scope",
      "- run, show",
      "Out-of-scope: report",
      "### 验收标准",
      "- `flower show --json | node -e 'JSON.parse(require(\"fs\").readFileSync(0))'` exits 0",
      "__Open questions__",
      "- none",
      "```",
      "Good luck!",
    ].join("\n");
    const document = parseDocument(REQUIREMENTS, answer, "r1");
    expect(document.sections.task).toBe("Add a --json flag to the CLI.");
    expect(document.sections.inScope).toBe("- run, show");
    expect(document.sections.outOfScope).toBe("report");
    expect(document.sections.acceptance).toContain("flower show --json");
    expect(document.sections.openQuestions).toBe("- none");
    expect(document.notes).toBe("Here you go:\n\nGood luck!");
    expect(document.degraded).toBeNull();
  });

  it("recognises the spec's aliases and the key written as words", () => {
    const answer =
      "## Done when\n- tests pass: `npm test` exits 0\n## the task\nFix the build.\n## open questions\n(none)";
    const document = parseDocument(REQUIREMENTS, answer);
    expect(document.sections.acceptance).toBe("- tests pass: `npm test` exits 0");
    expect(document.sections.task).toBe("Fix the build.");
    expect(document.sections.openQuestions).toBe("");
  });

  it("a frozen file, in either locale, is a fixed point of parse → freeze (nothing lost, nothing added)", () => {
    const document = parseDocument(REQUIREMENTS, ZH_ANSWER, "r1");
    for (const locale of LOCALES) {
      const frozen = document.toMarkdown(locale);
      const back = parseDocument(REQUIREMENTS, frozen, "r1");
      expect(back.sections).toEqual(document.sections);
      expect(back.notes).toBe(document.notes);
      expect(back.toMarkdown(locale)).toBe(frozen);
    }
  });

  it("a person's edit of the frozen file is what is read back", () => {
    const frozen = parseDocument(REQUIREMENTS, ZH_ANSWER, "r1").toMarkdown("zh");
    const edited = frozen.replace("- JSON 字段名用英文", "- JSON 字段名用 snake_case(已和用户确认)");
    expect(parseDocument(REQUIREMENTS, edited, "r1").sections.assumptions).toBe(
      "- JSON 字段名用 snake_case(已和用户确认)",
    );
  });

  it("renders every declared section in order, empty ones as (空) / (empty), and the title with the run", () => {
    const document = parseDocument(
      GOAL,
      "## Goal\nShip it.\n## Checks\n- `npm test` exits 0",
      "20261130-142600",
    );
    expect(document.toMarkdown("en")).toBe(
      [
        "# Goal: 20261130-142600",
        "## Goal\nShip it.",
        "## Checks\n- `npm test` exits 0",
        "## Constraints\n(empty)",
        "## Non-goals\n(empty)",
      ].join("\n\n") + "\n",
    );
    expect(document.toMarkdown("zh").split("\n")[0]).toBe("# 目标:20261130-142600");
    expect(document.toMarkdown("zh")).toContain("## 约束\n(空)");
  });

  it("a heading inside a code fence is code, not a section", () => {
    const answer =
      "## Task\nWrite docs.\n```md\n## Acceptance\nnot a heading\n```\n## Acceptance\n- the README has a section";
    const document = parseDocument(REQUIREMENTS, answer);
    expect(document.sections.task).toBe("Write docs.\n```md\n## Acceptance\nnot a heading\n```");
    expect(document.sections.acceptance).toBe("- the README has a section");
  });
});

describe("a title that is also a section heading", () => {
  it("a model's `# Goal` / `# 目标` heading is the goal section, flower's `# Goal: <run>` is the title", () => {
    const answer = "# Goal\nShip the flag.\n# Checks\n- `npm test` exits 0";
    expect(parseDocument(GOAL, answer).sections.goal).toBe("Ship the flag.");
    expect(parseDocument(GOAL, "# 目标:把开关做好\n## 检查\n- `npm test` 退出码为 0").sections.goal).toBe(
      "把开关做好",
    );
    const frozen = parseDocument(GOAL, answer, "r-7").toMarkdown("zh");
    expect(frozen.startsWith("# 目标:r-7\n")).toBe(true);
    const back = parseDocument(GOAL, frozen, "r-7");
    expect(back.sections.goal).toBe("Ship the flag.");
    expect(back.notes).toBe("");
  });
});
