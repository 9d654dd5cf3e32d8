import { describe, expect, it } from "vitest";
import { Handoff } from "../../../src/handoff/handoff-document.js";
import { parseHandoff } from "../../../src/handoff/read-handoff.js";
import { HANDOFF_PROMPT, HANDOFF_SIGNATURE, handoffPrompt } from "../../../src/handoff/prompt.js";
import { HANDOFF_SECTIONS } from "../../../src/handoff-sections.js";
import { SECTION_HEADINGS } from "../../../src/handoff/handoff-document-text.js";
import { LOCALES } from "../../../src/locale/locale.js";

describe("HANDOFF_PROMPT", () => {
  it("carries the signature the test kit looks for, in both locales", () => {
    expect(HANDOFF_SIGNATURE).toBe("[flower:handoff]");
    for (const locale of LOCALES) expect(HANDOFF_PROMPT[locale]).toContain(HANDOFF_SIGNATURE);
  });

  it("has the two placeholders and fills them", () => {
    for (const locale of LOCALES) {
      expect(HANDOFF_PROMPT[locale]).toContain("{used}");
      expect(HANDOFF_PROMPT[locale]).toContain("{window}");
      const prompt = handoffPrompt(locale, { used: 152_000, window: 200_000 });
      expect(prompt).toContain("152.0K/200K");
      expect(prompt).not.toMatch(/\{used\}|\{window\}/);
      expect(prompt).toContain(HANDOFF_SIGNATURE);
    }
  });

  it("asks for the five headings the parser knows", () => {
    for (const locale of LOCALES) {
      for (const name of HANDOFF_SECTIONS) {
        expect(HANDOFF_PROMPT[locale]).toContain(`## ${SECTION_HEADINGS[locale][name]}`);
      }
      // A model that answers with the prompt's skeleton filled in is read back section by section.
      const filled = HANDOFF_SECTIONS.map(
        (name) => `## ${SECTION_HEADINGS[locale][name]}\n${name} text`,
      ).join("\n\n");
      const parsed = parseHandoff(filled);
      for (const name of HANDOFF_SECTIONS) expect(parsed[name]).toBe(`${name} text`);
    }
  });

  it("insists on dead ends with their measured cost, decisions with reasons, and scene as paths", () => {
    const zh = HANDOFF_PROMPT.zh;
    expect(zh).toContain("HT002");
    expect(zh).toContain("一小时");
    expect(zh).toContain("为什么");
    expect(zh).toContain("指针,不是内容");
    const en = HANDOFF_PROMPT.en;
    expect(en).toContain("HT002");
    expect(en).toContain("an hour");
    expect(en).toContain("with its reason");
    expect(en).toContain("pointers, not contents");
  });

  it("names the empty marker toMarkdown writes, so an honest empty dead-ends section parses as empty", () => {
    expect(HANDOFF_PROMPT.zh).toContain("(空)");
    expect(HANDOFF_PROMPT.en).toContain("(empty)");
    expect(new Handoff({ deadends: "(空)" }).deadends).toBe("(空)");
    expect(parseHandoff("## 走不通的路\n(空)").deadends).toBe("");
  });
});
