/**
 * The quality check and the degraded path of declared documents: a required section missing or hollow,
 * or a goal without a runnable check, makes the document degraded with the reason — and keeps what was
 * written. The degraded line in a frozen file is flower's annotation: a person who fixes the content has
 * fixed the document.
 */
import { describe, expect, it } from "vitest";
import { GOAL, goalChecks } from "../../../src/documents/builtin/goal.js";
import { REQUIREMENTS } from "../../../src/documents/builtin/requirements.js";
import { assessDocument } from "../../../src/documents/quality.js";
import { produceDocument } from "../../../src/documents/produce.js";
import { parseDocument, withoutDegradedLine } from "../../../src/documents/read.js";

describe("required sections", () => {
  it("a requirements answer without acceptance is degraded: missing: acceptance", () => {
    const produced = produceDocument(
      REQUIREMENTS,
      "## Task\nAdd a --json flag.\n## Assumptions\n- English keys",
      {
        run: "r1",
      },
    );
    expect(produced.why).toBe("missing: acceptance");
    expect(produced.missing).toEqual(["acceptance"]);
    expect(produced.document.degraded).toBe("missing: acceptance");
    // Nothing written is lost on the degraded path.
    expect(produced.document.sections.task).toBe("Add a --json flag.");
    expect(produced.document.sections.assumptions).toBe("- English keys");
    expect(produced.document.toMarkdown("en")).toContain("> [degraded: missing: acceptance]");
  });

  it("a hollow required section counts as missing; an optional hollow one is only reported", () => {
    const document = parseDocument(
      REQUIREMENTS,
      "## Task\nTBD\n## Acceptance\n- `npm test` passes\n## In scope\n...",
    );
    const assessment = assessDocument(document);
    expect(assessment.missing).toEqual(["task"]);
    expect(assessment.hollow).toEqual(["task", "inScope"]);
    expect(assessment.why).toBe("missing: task");
  });

  it("an instruction echoed back is hollow", () => {
    const document = parseDocument(
      REQUIREMENTS,
      "## Task\nOne paragraph: what is to be done, in the user's own terms.\n## Acceptance\n- the page loads",
    );
    expect(assessDocument(document).missing).toEqual(["task"]);
  });

  it("no answer at all degrades with the reason given", () => {
    const produced = produceDocument(REQUIREMENTS, null, { run: "r1", error: "the session ended failed" });
    expect(produced.why).toBe("the session ended failed");
    expect(produced.missing).toEqual(["task", "acceptance"]);
    expect(produced.document.toMarkdown("zh")).toContain("> [降级:the session ended failed]");
  });
});

describe("the goal's runnable checks", () => {
  it("a goal whose checks section has no runnable check is degraded with that reason", () => {
    const produced = produceDocument(
      GOAL,
      "## Goal\nThe CLI prints JSON.\n## Checks\n- the output looks right",
      {
        run: "r1",
      },
    );
    expect(produced.why).toBe("no runnable check in the checks section");
    expect(produced.missing).toEqual([]);
  });

  it("a goal with a command and an expectation yields a check", () => {
    const document = parseDocument(
      GOAL,
      "## 目标\nCLI 输出 JSON。\n## 检查\n- `node cli.js --json` 退出码为 0\n- `node cli.js --json` 输出匹配 `/\\{/`",
    );
    expect(document.degraded).toBeNull();
    expect(goalChecks(document).checks).toEqual([
      { command: "node cli.js --json", expect: { exitCode: 0 } },
      { command: "node cli.js --json", expect: { pattern: "\\{" } },
    ]);
  });

  it("a goal without checks at all is missing them (the required rule comes first)", () => {
    expect(produceDocument(GOAL, "## Goal\nShip.", { run: "r" }).why).toBe("missing: checks");
  });
});

describe("read-back of a degraded file", () => {
  it("the degraded line is not content; the document is judged again by what it now says", () => {
    const frozen = produceDocument(REQUIREMENTS, "## Task\nAdd a flag.", { run: "r1" }).document.toMarkdown(
      "en",
    );
    expect(frozen.split("\n")[2]).toBe("> [degraded: missing: acceptance]");
    const still = parseDocument(REQUIREMENTS, frozen, "r1");
    expect(still.degraded).toBe("missing: acceptance");
    expect(still.notes).toBe("");
    const fixed = frozen.replace(
      "## Acceptance\n(empty)",
      "## Acceptance\n- `flower --help` mentions the flag",
    );
    const read = parseDocument(REQUIREMENTS, fixed, "r1");
    expect(read.degraded).toBeNull();
    expect(read.toMarkdown("en")).not.toContain("degraded");
  });

  it("withoutDegradedLine leaves out flower's line under the title and the blank after it, every other byte kept", () => {
    const en =
      "# Requirements confirmation: r1\n\n> [degraded: missing: acceptance]\n\n## Task\nAdd a flag.\n";
    expect(withoutDegradedLine(REQUIREMENTS, en, "r1")).toBe(
      "# Requirements confirmation: r1\n\n## Task\nAdd a flag.\n",
    );
    // Windows line ends and the zh line: kept as they are.
    const zh = "\uFEFF# 需求确认书:r1\r\n\r\n> [降级:missing: acceptance]\r\n\r\n## 任务\r\n加一个选项。\r\n";
    expect(withoutDegradedLine(REQUIREMENTS, zh, "r1")).toBe(
      "\uFEFF# 需求确认书:r1\r\n\r\n## 任务\r\n加一个选项。\r\n",
    );
    // Read the same as the text with the line: parseDocument leaves it out with the same function.
    expect(parseDocument(REQUIREMENTS, withoutDegradedLine(REQUIREMENTS, en, "r1"), "r1")).toEqual(
      parseDocument(REQUIREMENTS, en, "r1"),
    );
    // Not flower's line: one a person quotes further down, or one under no title, is content.
    const quoted = "# Requirements confirmation: r1\n\n## Task\n> [degraded: not mine]\n";
    expect(withoutDegradedLine(REQUIREMENTS, quoted, "r1")).toBe(quoted);
    const untitled = "> [degraded: missing: acceptance]\n\n## Task\nAdd a flag.\n";
    expect(withoutDegradedLine(REQUIREMENTS, untitled, "r1")).toBe(untitled);
  });
});
