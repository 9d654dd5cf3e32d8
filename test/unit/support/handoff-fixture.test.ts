import { describe, expect, it } from "vitest";
import { parseHandoff } from "../../../src/handoff/read-handoff.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";

describe("handoffMarkdown", () => {
  it("writes the asked-for headings in document order, lists as items, after a preamble", () => {
    expect(
      handoffMarkdown({
        preamble: "Here is my handoff.",
        next: ["Read the rest."],
        doing: "Reading.",
        scene: ["`a.txt` — input"],
      }),
    ).toBe(
      "Here is my handoff.\n\n## What I am doing\nReading.\n\n## Next step\n- Read the rest.\n\n## Scene\n- `a.txt` — input",
    );
  });

  it("reads back through the parser as the same sections, in both locales", () => {
    for (const locale of ["en", "zh"] as const) {
      const sections = {
        doing: "在读文件",
        decided: ["- 按编号读"],
        deadends: ["一次 cat 全部:被拒"],
        next: "读下一个",
        scene: ["`big-0.txt`"],
      };
      const handoff = parseHandoff(handoffMarkdown({ ...sections, locale }));
      expect(handoff.sections()).toEqual({
        doing: "在读文件",
        decided: "- - 按编号读",
        deadends: "- 一次 cat 全部:被拒",
        next: "读下一个",
        scene: "- `big-0.txt`",
      });
    }
  });

  it("refuses an empty fixture", () => {
    expect(() => handoffMarkdown({ preamble: "hi" })).toThrow(/at least one section/);
  });
});
