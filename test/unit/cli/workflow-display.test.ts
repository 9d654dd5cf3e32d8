import { describe, expect, it } from "vitest";
import { displayOutput } from "./display-output.js";
import { documentSummary, sectionItems } from "../../../src/cli/record-views/document-summary.js";
import { pauseLines } from "../../../src/cli/live/workflow-live.js";
import type { Locale } from "../../../src/locale/locale.js";
import type { FlowerEvent } from "../../../src/runtime/events.js";
import type { WorkflowResult } from "../../../src/workflow/run-workflow.js";

function show(events: FlowerEvent[], locale: Locale): string {
  return displayOutput(events, locale);
}

const step = (phase: "start" | "skip" | "done" | "paused", index: number, name: string, resumed?: boolean) =>
  ({ type: "workflow-step", run: "r", step: `r/${name}`, name, index, total: 3, phase, resumed }) as const;

const frozen = (degraded: boolean): FlowerEvent => ({
  type: "document-frozen",
  step: "r/requirements",
  run: "r",
  kind: "requirements",
  title: "需求确认书",
  path: "/home/u/ws/.flower/notes/需求-r.md",
  archived: null,
  degraded,
  ...(degraded ? { why: "missing: acceptance" } : {}),
  missing: degraded ? ["acceptance"] : [],
  sections: [
    { key: "task", heading: "任务", text: "修好不稳定的测试。" },
    { key: "acceptance", heading: "验收标准", text: "" },
    { key: "openQuestions", heading: "待确认问题", text: "- 超时能不能调大?\n- 只改测试?" },
  ],
});

describe("the live view of a workflow run", () => {
  it("names the active step as `step i/n · name`, and a skipped or continued one says so (en)", () => {
    const out = show(
      [
        step("skip", 0, "requirements"),
        step("start", 1, "goal", true),
        step("done", 1, "goal"),
        step("start", 2, "work"),
      ],
      "en",
    );
    expect(out).toBe(
      [
        "== step 1/3 · requirements · already done, not redone",
        "== step 2/3 · goal · continued",
        "== step 3/3 · work",
        "",
      ].join("\n"),
    );
  });

  it("in zh the step names and words are zh; a step of someone's own workflow keeps its name", () => {
    const out = show([step("start", 0, "requirements"), step("start", 1, "design")], "zh");
    expect(out).toBe("== 第 1/3 步 · 需求确认\n== 第 2/3 步 · design\n");
  });

  it("prints a frozen document's path and every section, empty ones too, labels lined up in columns", () => {
    const out = show([frozen(false)], "zh");
    expect(out).toBe(
      [
        "<- 需求确认书冻结在:",
        "   ~/ws/.flower/notes/需求-r.md",
        "  - 任务        修好不稳定的测试。",
        "  - 验收标准    (空)",
        "  - 待确认问题  超时能不能调大?;只改测试?",
        "",
      ].join("\n"),
    );
  });

  it("a degraded document is announced with its reason before the path", () => {
    const out = show([frozen(true)], "en");
    expect(out.split("\n")[0]).toBe(
      "!! 需求确认书 degraded (missing: acceptance) — an incomplete one was frozen; the run goes on",
    );
  });
});

describe("the pause", () => {
  const paused = (openQuestions: string): WorkflowResult => ({
    run: "fix",
    status: "paused",
    steps: [],
    degraded: [],
    filledIn: [],
    paused: { after: "requirements", next: "goal", document: null, openQuestions },
  });

  it("lists each open question on its own line and the exact command to go on", () => {
    expect(
      pauseLines(paused("- May the timeout be raised?\n- Only the test?"), "flower continue fix", "en"),
    ).toEqual([
      "",
      "Paused after the requirements step. Read the file; if a line is wrong, change it there: the next step reads the file as it is then.",
      "  open questions",
      "    - May the timeout be raised?",
      "    - Only the test?",
      "Go on with: flower continue fix",
      '(flower --yes "<task>" runs straight through, without this pause)',
    ]);
  });

  it("says (none) when the document has no open questions, `(empty)` included", () => {
    expect(pauseLines(paused("(empty)"), "flower continue fix", "en")).toContain("  open questions  (none)");
    expect(pauseLines(paused(""), "flower continue fix", "zh")).toContain("  待定问题  (无)");
  });
});

describe("documentSummary / sectionItems", () => {
  it("pads labels by terminal columns (a CJK character is two)", () => {
    expect(
      documentSummary(
        [
          { label: "Goal", text: "x" },
          { label: "目标", text: "y" },
        ],
        "en",
      ),
    ).toEqual(["  - Goal  x", "  - 目标  y"]);
  });

  it("drops bullets, numbers, blank lines and the empty markers of both languages", () => {
    expect(sectionItems("1. one\n\n- two\n(空)\n(empty)\n* three")).toEqual(["one", "two", "three"]);
  });
});

describe("the live view of a document or goal changed after the work began (issue 22)", () => {
  const changed = (kind: string, title: string, since: string, used: boolean): FlowerEvent => ({
    type: "document-changed",
    run: "r",
    step: "r/work",
    kind,
    title,
    path: `/home/u/ws/.flower/notes/${kind}-r.md`,
    since,
    used,
  });
  const change = (phase: "ignored" | "switched"): FlowerEvent => ({
    type: "goal-change",
    step: "r/work",
    phase,
    path: null,
    checks: { recorded: ["test -f ok.txt"], offered: ["true"] },
  });

  it("says it changed on disk after the work began, not used (en), and how to use the goal anyway", () => {
    expect(
      show(
        [
          changed("goal", "Goal", "work", false),
          changed("requirements", "Requirements confirmation", "goal", false),
          changed("goal", "Goal", "work", true),
          change("ignored"),
          change("switched"),
        ],
        "en",
      ),
    ).toBe(
      [
        "!  Goal: changed on disk after the work began — not used (flower continue with --reread-goal uses it)",
        "   ~/ws/.flower/notes/goal-r.md",
        "!  Requirements confirmation: changed on disk after the goal step began — not used",
        "   ~/ws/.flower/notes/requirements-r.md",
        "<- Goal: changed on disk after the work began — used, as asked (--reread-goal)",
        "   ~/ws/.flower/notes/goal-r.md",
        "!  a different goal was given to continue after the work began — not used; the guard runs the goal recorded then: runs `test -f ok.txt`, not `true`",
        "<- the goal was replaced as asked; the record keeps both: checks `test -f ok.txt` → `true`",
        "",
      ].join("\n"),
    );
  });

  it("zh", () => {
    expect(show([changed("goal", "目标", "work", false), change("switched")], "zh")).toBe(
      [
        "!  目标:工作开始后在磁盘上被改过——未采用(flower continue 加 --reread-goal 才采用)",
        "   ~/ws/.flower/notes/goal-r.md",
        "<- 目标已按要求替换;两个版本都记在记录里:检查 `test -f ok.txt` → `true`",
        "",
      ].join("\n"),
    );
  });
});
