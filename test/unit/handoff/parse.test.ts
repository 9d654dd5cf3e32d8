import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Handoff } from "../../../src/handoff/handoff-document.js";
import { parseHandoff, parseSections } from "../../../src/handoff/read-handoff.js";
import { HANDOFF_SECTIONS } from "../../../src/handoff-sections.js";
import { degraded } from "../../../src/handoff/degraded.js";
import { LOCALES } from "../../../src/locale/locale.js";
import { FIXTURES } from "./fixtures.js";
import { properties } from "../../support/properties.js";

describe("parseHandoff on what models write", () => {
  it("has ten differently formatted fixtures", () => {
    expect(FIXTURES).toHaveLength(10);
  });

  for (const fixture of FIXTURES) {
    it(fixture.name, () => {
      const handoff = parseHandoff(fixture.text, "step");
      for (const name of HANDOFF_SECTIONS) {
        expect(handoff[name], name).toBe(fixture.expected[name] ?? "");
      }
      expect(handoff.complete()).toBe(true);
      expect(handoff.step).toBe("step");
    });
  }

  it("reports missing required sections", () => {
    const handoff = parseHandoff("## 现在在做什么\n在修 bug\n\n## 走不通的路\n(空)\n");
    expect(handoff.missing()).toEqual(["next"]);
    expect(handoff.complete()).toBe(false);
    expect(parseHandoff("I could not finish, sorry.").missing()).toEqual(["doing", "next"]);
    expect(parseHandoff("").missing()).toEqual(["doing", "next"]);
  });

  it("lists the headings it found in order of appearance", () => {
    expect(parseSections("## Next\nx\n## Doing\ny\n## Next\nz").found).toEqual(["next", "doing"]);
  });

  it("joins a section written twice", () => {
    expect(parseHandoff("## Next\nfirst\n## Doing\nd\n## Next\nsecond").next).toBe("first\n\nsecond");
  });

  it("keeps headings that are not section names as content", () => {
    const handoff = parseHandoff("## Doing\nporting\n### Sub-task\nparser\n## Next\nrun tests");
    expect(handoff.doing).toBe("porting\n### Sub-task\nparser");
  });

  it("does not take the title for a section, even when the step is named like one", () => {
    const handoff = parseHandoff(new Handoff({ step: "下一步", doing: "a", next: "b" }).toMarkdown("zh"));
    expect(handoff.doing).toBe("a");
    expect(handoff.next).toBe("b");
  });

  it("ignores an unclosed fence instead of swallowing the rest", () => {
    const handoff = parseHandoff("## Doing\n```\ncode without end\n## Next\nrun it");
    expect(handoff.next).toBe("run it");
  });

  it("handles CRLF and a BOM", () => {
    const handoff = parseHandoff("\uFEFF## 现在在做什么\r\n修 bug\r\n## 下一步\r\n跑测试\r\n");
    expect(handoff.doing).toBe("修 bug");
    expect(handoff.next).toBe("跑测试");
  });

  it("keeps what follows a rule inside a section instead of dropping it up to the next heading", () => {
    const handoff = parseHandoff("## Doing\nporting the parser\n\n---\n\nhalf done\n## Next\nrun tests");
    expect(handoff.doing).toBe("porting the parser\n\n---\n\nhalf done");
    expect(handoff.next).toBe("run tests");
  });

  it("drops rules written as separators between sections", () => {
    const handoff = parseHandoff(
      "## Doing\nporting\n\n---\n\n## Next\n***\nrun tests\n\n___\n## Scene\n- a.ts",
    );
    expect(handoff.sections()).toMatchObject({ doing: "porting", next: "run tests", scene: "- a.ts" });
  });

  it("ends a model's last section at a rule, but keeps a rule a human put in a frozen file's last section", () => {
    const answer = "## Doing\nx\n## Next\ny\n## Scene\n- a.ts\n\n---\n\nHope this helps!";
    expect(parseHandoff(answer).scene).toBe("- a.ts");
    // Changed on purpose: the closing remark used to be dropped; now it moves to the notes block.
    expect(parseHandoff(answer).notes).toBe("Hope this helps!");
    const edited = new Handoff({ step: "s", doing: "x", next: "y", scene: "- a.ts\n\n---\n\n- old/b.ts" });
    for (const locale of LOCALES) {
      expect(parseHandoff(edited.toMarkdown(locale)).scene).toBe("- a.ts\n\n---\n\n- old/b.ts");
    }
  });

  it("treats a rule inside a code fence as code", () => {
    const answer = "## Doing\nx\n## Next\ny\n## Scene\n```yaml\n---\nkey: 1\n```\n- a.ts";
    expect(parseHandoff(answer).scene).toBe("```yaml\n---\nkey: 1\n```\n- a.ts");
  });

  it("does not mistake prose for labels", () => {
    const handoff = parseHandoff(
      "## Doing\nNote: the next release is Friday.\nNext.js config is in place.\n## Next\nship",
    );
    expect(handoff.doing).toBe("Note: the next release is Friday.\nNext.js config is in place.");
  });
});

describe("round trip through toMarkdown", () => {
  it("reads back the seed's example in both locales", () => {
    const original = new Handoff({
      step: "干活",
      doing: "在给 Makefile 加 macOS 垫片头,让 sigemptyset 宏不再展开成语法错误。",
      decided: "不改业务源码 —— 用户明确说过边界,所以走 Makefile 生成 shim 这条路。",
      deadends: "- -D_ANSI_SOURCE 会把别的宏一起关掉。\n- 改 include 顺序无效。",
      next: "在干净 clone 上跑一次 make 验证 shim 成立。",
      scene: "",
    });
    for (const locale of LOCALES) {
      const parsed = parseHandoff(original.toMarkdown(locale), "干活");
      expect(parsed.sections()).toEqual(original.sections());
    }
  });

  it("reads back a degraded handoff whose task contains headings and fences", () => {
    const task = "## 下一步\n别信这一行\n```\n## Doing\n```\n" + "x".repeat(2000);
    const original = degraded("s", task, { why: "network" });
    for (const locale of LOCALES) {
      const parsed = parseHandoff(original.toMarkdown(locale), "s");
      expect(parsed.sections()).toEqual(original.sections());
      expect(parsed.degraded).toBe(true);
    }
  });

  // Content lines drawn from words that include markup (#, **, numbering, colons) but never a section name.
  const word = fc.constantFrom(
    "make",
    "shim",
    "构建",
    "路径",
    "`src/a.ts`",
    "因为",
    "so",
    "(x)",
    "#",
    "**bold**",
    "1.",
    "-",
    "—",
    ":",
    ",",
    "https://example.com",
    "a:b",
    "TODO",
    "`~/proj/x.md`",
    "测试",
    "错误",
    "step",
    "note:",
    "Scene-graph",
    "doings",
    "---",
    "***",
    "* * *",
    "___",
  );
  const line = fc.array(word, { minLength: 1, maxLength: 8 }).map((words) => words.join(" "));
  const section = fc
    .array(fc.oneof(line, fc.constant("")), { maxLength: 6 })
    .map((lines) => lines.join("\n"));

  it("toMarkdown → parseHandoff is the identity on the sections (property)", () => {
    fc.assert(
      fc.property(
        fc.record({ doing: section, decided: section, deadends: section, next: section, scene: section }),
        fc.constantFrom(...LOCALES),
        (sections, locale) => {
          const original = new Handoff({ step: "s", ...sections });
          const parsed = parseHandoff(original.toMarkdown(locale), "s");
          expect(parsed.sections()).toEqual(original.sections());
        },
      ),
      properties(300),
    );
  });

  it("never throws on arbitrary text (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const handoff = parseHandoff(text);
        expect(typeof handoff.doing).toBe("string");
      }),
      properties(500),
    );
  });
});
