/**
 * Nothing a model writes is lost on its way to the successor. Every line of a handoff answer reaches the
 * successor's prompt (`promptBlock`) and the frozen file (`toMarkdown`), and survives a re-parse of that
 * file: in its section, or, where it belongs to none, in the trailing block of other notes.
 *
 * Each content line below carries a token (`tok` + digits); structure (headings that name a section,
 * rules, fence lines, blank lines) carries none. A heading's parenthesised decoration (`## 下一步 (next)`)
 * is part of the heading and is not a content line.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Handoff } from "../../../src/handoff/handoff-document.js";
import { NOTES_HEADING } from "../../../src/documents/notes.js";
import { parseHandoff } from "../../../src/handoff/read-handoff.js";
import { LOCALES, type Locale } from "../../../src/locale/locale.js";
import { properties } from "../../support/properties.js";

const TOKEN = /tok\d+/g;

/** Every token of `answer` in the prompt, in the frozen file and in the file re-frozen after a re-parse. */
function expectLossless(answer: string, locale: Locale): Handoff {
  const handoff = parseHandoff(answer, "step");
  const tokens = [...new Set(answer.match(TOKEN) ?? [])];
  const frozen = handoff.toMarkdown(locale);
  const reparsed = parseHandoff(frozen, "step");
  const refrozen = reparsed.toMarkdown(locale);
  const prompt = reparsed.promptBlock(locale);
  for (const token of tokens) {
    expect(frozen, `${token} in the frozen file`).toMatch(new RegExp(`${token}(?!\\d)`));
    expect(refrozen, `${token} after a re-parse`).toMatch(new RegExp(`${token}(?!\\d)`));
    expect(prompt, `${token} in the successor's prompt`).toMatch(new RegExp(`${token}(?!\\d)`));
  }
  // The frozen file is a fixed point: reading it back changes nothing.
  expect(reparsed.sections()).toEqual(handoff.sections());
  expect(reparsed.notes).toBe(handoff.notes);
  expect(refrozen).toBe(frozen);
  return handoff;
}

interface Shape {
  name: string;
  text: string;
  check?: (handoff: Handoff) => void;
}

const SHAPES: Shape[] = [
  {
    name: "a scene section that begins with a rule (its content used to vanish)",
    text: "## Doing\ntok1 porting\n## Next\ntok2 run tests\n## Scene\n---\n- tok3 `src/a.ts`\n- tok4 `src/b.ts`",
    check: (handoff) => expect(handoff.scene).toBe("- tok3 `src/a.ts`\n- tok4 `src/b.ts`"),
  },
  {
    name: "text before the first heading",
    text: "tok1 Sure, here it is.\ntok2 I kept it short.\n\n## Doing\ntok3 x\n## Next\ntok4 y",
    check: (handoff) => expect(handoff.notes).toBe("tok1 Sure, here it is.\ntok2 I kept it short."),
  },
  {
    name: "closing remarks after a rule below the last section",
    text: "## Doing\ntok1\n## Next\ntok2\n## Scene\n- tok3 a.ts\n\n---\n\ntok4 Let me know if anything is unclear!",
    check: (handoff) => {
      expect(handoff.scene).toBe("- tok3 a.ts");
      expect(handoff.notes).toBe("tok4 Let me know if anything is unclear!");
    },
  },
  {
    name: "the whole answer in a fence, with text around it",
    text: "tok1 Here's the handoff:\n\n```markdown\n## Doing\ntok2\n## Next\ntok3\n```\n\ntok4 Good luck!",
    check: (handoff) => expect(handoff.notes).toBe("tok1 Here's the handoff:\n\ntok4 Good luck!"),
  },
  {
    name: "an unknown heading before the first section",
    text: "## Summary\ntok1 the parser is half ported\n\n## Doing\ntok2\n## Next\ntok3",
  },
  {
    name: "an unknown heading in the middle stays with the section above it",
    text: "## Doing\ntok1\n## Risks\ntok2 the cache may be stale\n## Next\ntok3",
    check: (handoff) => expect(handoff.doing).toBe("tok1\n## Risks\ntok2 the cache may be stale"),
  },
  {
    name: "a section written twice",
    text: "## Next\ntok1 first\n## Doing\ntok2\n## Next\ntok3 second",
    check: (handoff) => expect(handoff.next).toBe("tok1 first\n\ntok3 second"),
  },
  {
    name: "bold pseudo-headings inside a section",
    text: "## Doing\n**Important:** tok1 do not touch the lockfile\n**Context**\ntok2 it pins node 22\n## Next\ntok3",
  },
  {
    name: "a table",
    text: "## Decided\n| option | why |\n|---|---|\n| tok1 zod | tok2 shared with the API |\n## Doing\ntok3\n## Next\ntok4",
  },
  {
    name: "a code fence holding a rule and a heading",
    text: "## Doing\ntok1\n## Next\ntok2\n## Scene\n```yaml\n---\n## Next\nkey: tok3\n```\n- tok4 a.ts",
    check: (handoff) => expect(handoff.scene).toContain("key: tok3"),
  },
  {
    name: "nested lists",
    text: "## Dead ends\n- tok1 regex\n  - tok2 backtracking\n    1. tok3 25 min\n## Doing\ntok4\n## Next\ntok5",
  },
  {
    name: "HTML",
    text: "## Doing\n<details><summary>tok1 log</summary>\n\ntok2 line\n</details>\n## Next\n<b>tok3</b>",
  },
  {
    name: "CRLF line ends",
    text: "tok1 preamble\r\n## Doing\r\ntok2\r\n## Next\r\ntok3\r\n\r\n---\r\n\r\ntok4 bye\r\n",
  },
  {
    name: "zh, with a preamble and closing remarks",
    text: "tok1 好的,交接如下。\n\n## 现在在做什么\ntok2 在修 bug\n## 下一步\ntok3 跑测试\n\n---\n\ntok4 以上。",
    check: (handoff) =>
      expect(handoff.toMarkdown("zh")).toContain(`## ${NOTES_HEADING.zh}\ntok1 好的,交接如下。`),
  },
  {
    name: "words after the section name on the heading line",
    text: "## Doing — tok1 porting the scanner\n## Next step: tok2 run the suite\n## Dead ends right now\ntok3",
    check: (handoff) => {
      expect(handoff.doing).toBe("tok1 porting the scanner");
      expect(handoff.deadends).toBe("right now\ntok3");
    },
  },
  {
    name: "a rule in the middle of the last section, more content after it",
    text: "## Doing\ntok1\n## Next\ntok2\n## Scene\n- tok3 a.ts\n\n---\n\n- tok4 old/b.ts",
  },
  {
    name: "labels, then prose without a rule",
    text: "doing: tok1 migrating\nnext: tok2 convert the page\ntok3 That's all from me.",
    check: (handoff) => expect(handoff.next).toBe("tok2 convert the page\ntok3 That's all from me."),
  },
  {
    name: "an explicit block of other notes",
    text: "## Doing\ntok1\n## Next\ntok2\n## Other notes\ntok3 the CI is flaky on Mondays",
    check: (handoff) => expect(handoff.notes).toBe("tok3 the CI is flaky on Mondays"),
  },
  {
    name: "setext headings after a preamble",
    text: "tok1 Handing over.\n\nDoing\n=====\ntok2\n\nNext step\n---------\ntok3",
  },
  {
    name: "an answer with no section at all",
    text: "tok1 I ran out of context before I could write it.\ntok2 Sorry.",
    check: (handoff) => expect(handoff.missing()).toEqual(["doing", "next"]),
  },
];

describe("every line of a handoff answer reaches the successor", () => {
  it("has at least fifteen answer shapes", () => {
    expect(SHAPES.length).toBeGreaterThanOrEqual(15);
  });

  for (const shape of SHAPES) {
    it(shape.name, () => {
      for (const locale of LOCALES) shape.check?.(expectLossless(shape.text, locale));
    });
  }

  it("a handoff without stray lines freezes exactly as before: no notes heading", () => {
    const handoff = parseHandoff("## Doing\nx\n## Next\ny");
    expect(handoff.notes).toBe("");
    for (const locale of LOCALES) expect(handoff.toMarkdown(locale)).not.toContain(NOTES_HEADING[locale]);
  });
});

// ---------------------------------------------------------------------------------------------------
// The property: a token planted anywhere in a generated answer.

const SECTION_HEADINGS_BOTH = [
  "Doing",
  "What I am doing",
  "Already decided",
  "Decided",
  "Dead ends",
  "Next step",
  "Next",
  "Scene",
  "现在在做什么",
  "已经定下的",
  "走不通的路",
  "下一步",
  "现场",
  "Other notes",
  "其他说明",
];

type Part = (token: () => string) => string[];

const headingForm = fc.constantFrom(
  (title: string) => [`## ${title}`],
  (title: string) => [`### ${title}`],
  (title: string) => [`**${title}**`],
  (title: string) => [`**${title}:**`],
  (title: string) => [`${title}:`],
  (title: string) => [`1. ${title}`],
  (title: string) => [`【${title}】`],
  (title: string) => [title, "---"],
  (title: string) => [`## ${title} (notes)`],
);

const sectionHeading: fc.Arbitrary<Part> = fc
  .tuple(fc.constantFrom(...SECTION_HEADINGS_BOTH), headingForm)
  .map(
    ([title, form]) =>
      () =>
        form(title),
  );

const contentPart: fc.Arbitrary<Part> = fc.constantFrom<Part>(
  (t) => [`${t()} plain line`],
  (t) => [`${t()} 中文内容,带标点。`],
  (t) => [`- ${t()} item`, `  - ${t()} nested`, `    1. ${t()} deeper`],
  (t) => ["| a | b |", "|---|---|", `| ${t()} | ${t()} |`],
  (t) => ["```sh", `${t()} code`, "---", "## Next", "```"],
  (t) => ["~~~", `${t()} tilde fence`, "~~~"],
  () => ["---"],
  () => ["***"],
  () => ["* * *"],
  () => [""],
  (t) => [`<details><summary>${t()}</summary>`, `${t()} inside`, "</details>"],
  (t) => [`**Important:** ${t()} bold pseudo-heading`],
  (t) => [`**${t()} Context**`],
  (t) => [`## Risks ${t()}`],
  (t) => [`### ${t()} unknown heading`],
  (t) => [`> ${t()} quote`],
  (t) => [`Note: ${t()} prose with a colon`],
  (t) => [`    ${t()} indented`],
);

const answerArbitrary = fc
  .record({
    parts: fc.array(
      fc.oneof({ weight: 1, arbitrary: sectionHeading }, { weight: 3, arbitrary: contentPart }),
      {
        minLength: 1,
        maxLength: 25,
      },
    ),
    closing: fc.option(
      fc.constantFrom<Part>((t) => ["---", "", `${t()} Let me know!`]),
      { nil: undefined },
    ),
    wrap: fc.constantFrom("none", "none", "fence"),
    crlf: fc.boolean(),
  })
  .map(({ parts, closing, wrap, crlf }) => {
    let n = 0;
    const token = (): string => `tok${++n}`;
    const lines = [...parts, ...(closing ? [closing] : [])].flatMap((part) => part(token));
    if (wrap === "fence") {
      lines.unshift(`${token()} Here it is:`, "````markdown");
      lines.push("````", `${token()} bye`);
    }
    return lines.join(crlf ? "\r\n" : "\n");
  });

describe("every line of a handoff answer reaches the successor (property)", () => {
  it("a token planted anywhere appears in the prompt and the frozen file, and survives a re-parse", () => {
    fc.assert(
      fc.property(answerArbitrary, fc.constantFrom(...LOCALES), (answer, locale) => {
        expectLossless(answer, locale);
      }),
      properties(400),
    );
  });
});
