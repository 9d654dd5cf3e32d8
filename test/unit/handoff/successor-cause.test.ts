/**
 * The successor's first prompt says why the previous generation handed off: a handoff a person asked
 * for with `flower handoff` says so, in both languages, instead of "the previous session's context was
 * nearly full" (which stays for a handoff at the line). Also when the successor starts later from the
 * frozen file: the record's handoff requests name the generation that ended.
 */
import { describe, expect, it } from "vitest";
import { Handoff } from "../../../src/handoff/handoff-document.js";
import { withPersonsWords } from "../../../src/handoff/person.js";
import type { StepRecord } from "../../../src/records/step-record.js";
import { causeOf } from "../../../src/runtime/generations/generation-switch.js";

const asked = withPersonsWords(
  new Handoff({ step: "busy", doing: "Counting.", next: "Go on counting." }),
  { by: "ann@box", next: "Check the totals first" },
  "en",
);

describe("the successor's prompt names who ended the generation", () => {
  it("a person's request (en): said so, and not that the context was nearly full", () => {
    const prompt = asked.promptBlock("en", "person");
    expect(prompt.split("\n")[0]).toMatch(
      /^You are taking over the step "busy"\. A person asked the previous session to hand over \(with flower handoff; its context was not full\); it wrote the handoff below and retired\./,
    );
    expect(prompt).not.toContain("nearly full");
    expect(prompt).toContain("- From ann@box via flower handoff: Check the totals first");
  });

  it("a person's request (zh): said so, and not that the context was nearly full", () => {
    const zh = withPersonsWords(
      new Handoff({ step: "忙", doing: "在数。", next: "接着数。" }),
      { by: "ann@box", next: "先核对总数" },
      "zh",
    );
    const prompt = zh.promptBlock("zh", "person");
    expect(
      prompt.startsWith(
        "你在接手「忙」这一步。有人用 flower handoff 要求上一条会话交接(不是上下文满了),它写下下面这份交接书后退场",
      ),
    ).toBe(true);
    expect(prompt).not.toContain("上下文快满了");
    expect(prompt).toContain("先核对总数");
  });

  it("a handoff at the line still says the context was nearly full (the default)", () => {
    const handoff = new Handoff({ step: "busy", doing: "d", next: "n" });
    expect(handoff.promptBlock("en")).toContain("The previous session's context was nearly full;");
    expect(handoff.promptBlock("en", "context")).toBe(handoff.promptBlock("en"));
    expect(handoff.promptBlock("en")).not.toContain("A person asked");
    expect(handoff.promptBlock("zh")).toContain("上一条会话的上下文快满了");
  });
});

describe("causeOf: the frozen file's cause, from the record", () => {
  const record = (handoffRequests?: StepRecord["handoffRequests"]) =>
    ({
      history: [
        { generation: 1, handoff: { path: "/w/.flower/notes/archive/handoff-busy-1.md" } },
        { generation: 2, handoff: { path: "/w/.flower/notes/handoff-busy.md" } },
        { generation: 3, handoff: null },
      ],
      ...(handoffRequests ? { handoffRequests } : {}),
    }) as unknown as StepRecord;
  const request = (generation: number) => ({ by: "ann@box", at: "t", next: null, generation });

  it("is person when a request ended the generation that froze the file", () => {
    expect(causeOf(record([request(2)]), "/w/.flower/notes/handoff-busy.md")).toBe("person");
    expect(causeOf(record([request(1)]), "/w/.flower/notes/archive/handoff-busy-1.md")).toBe("person");
  });

  it("is context otherwise: no request, a request of another generation, a file no generation froze", () => {
    expect(causeOf(record(), "/w/.flower/notes/handoff-busy.md")).toBe("context");
    expect(causeOf(record([request(1)]), "/w/.flower/notes/handoff-busy.md")).toBe("context");
    expect(causeOf(record([request(2)]), "/w/elsewhere.md")).toBe("context");
  });
});
