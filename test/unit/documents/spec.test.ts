/** defineDocument rejects a bad spec with an error naming the field and the value. */
import { describe, expect, it } from "vitest";
import type { DocumentSpec } from "../../../src/documents/document.js";
import { defineDocument } from "../../../src/documents/spec.js";
import { ParsedDocument } from "../../../src/documents/document.js";

const GOOD: DocumentSpec = {
  kind: "design",
  title: { zh: "设计", en: "Design" },
  file: { zh: "设计", en: "design" },
  sections: [{ key: "approach", heading: { zh: "做法", en: "Approach" }, required: true }],
  instructions: { zh: "写设计。", en: "Write the design." },
};

describe("defineDocument", () => {
  it("accepts a good spec as it is", () => {
    expect(defineDocument(GOOD)).toBe(GOOD);
  });

  it.each([
    [{ ...GOOD, kind: "" }, /document kind: got ""/],
    [{ ...GOOD, title: { zh: "设计" } }, /document design title\.en: got undefined/],
    [{ ...GOOD, file: { zh: "a/b", en: "design" } }, /document design file\.zh: got "a\/b"/],
    [{ ...GOOD, sections: [] }, /document design sections/],
    [{ ...GOOD, sections: [{ key: "notes", heading: { zh: "a", en: "a" } }] }, /section key: got "notes"/],
    [
      {
        ...GOOD,
        sections: [
          { key: "a", heading: { zh: "a", en: "a" } },
          { key: "a", heading: { zh: "b", en: "b" } },
        ],
      },
      /expected a key used once/,
    ],
    [
      { ...GOOD, sections: [{ key: "a", heading: { zh: "a", en: "a" }, aliases: [""] }] },
      /section a aliases/,
    ],
  ])("rejects %#", (spec, message) => {
    expect(() => defineDocument(spec as DocumentSpec)).toThrow(message);
  });

  it("a document refuses a section its spec does not declare, naming it", () => {
    expect(() => new ParsedDocument(GOOD, { sections: { risks: "x" } })).toThrow(
      /section: got "risks", expected one of approach/,
    );
  });
});
