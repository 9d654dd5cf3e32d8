import { describe, expect, it } from "vitest";
import {
  CUT_CALL_PROMPT_CHARS,
  cutCall,
  cutCallLines,
  cutCallsNote,
  withCutCalls,
  type CutCall,
} from "../../../src/handoff/cut-calls.js";
import { degraded } from "../../../src/handoff/degraded.js";
import { Handoff } from "../../../src/handoff/handoff-document.js";
import { parseHandoff } from "../../../src/handoff/read-handoff.js";
import { handoffPrompt } from "../../../src/handoff/prompt.js";
import { LOCALES } from "../../../src/locale/locale.js";

const agent: CutCall = cutCall(
  "Agent",
  {
    subagent_type: "builder",
    description: "build the shim",
    prompt: "Build src/shim.h\nthen run   make test.",
  },
  "build the shim",
);
const bash: CutCall = cutCall("Bash", { command: "npm test" }, "npm test");

const written = new Handoff({
  step: "port",
  doing: "Porting the shim.",
  decided: "- C99, because the old compiler has no C11.",
  next: "- Run `make` in build/.",
  scene: "- `src/shim.h` — the shim",
});

describe("cutCall", () => {
  it("keeps an Agent call's subagent, description and the start of its prompt, on one line", () => {
    expect(agent).toEqual({
      tool: "Agent",
      subagentType: "builder",
      description: "build the shim",
      summary: "Build src/shim.h then run make test.",
    });
  });

  it("cuts a long prompt at code points, never through a surrogate pair", () => {
    const call = cutCall("Agent", { prompt: "😀".repeat(CUT_CALL_PROMPT_CHARS + 50) }, "");
    expect(call.summary).toBe(`${"😀".repeat(CUT_CALL_PROMPT_CHARS)}...`);
    expect(call).not.toHaveProperty("subagentType");
  });

  it("keeps the caller's one-line summary for any other tool", () => {
    expect(bash).toEqual({ tool: "Bash", summary: "npm test" });
    expect(cutCall("Read", { file_path: "a.txt" }, "a.txt\n")).toEqual({ tool: "Read", summary: "a.txt" });
  });
});

describe("cutCallLines", () => {
  it("names each call on one list line, in both locales", () => {
    expect(cutCallLines([agent, bash], "en")).toEqual([
      '- Cut by the handoff (issued, did not run): Agent (builder) "build the shim" — Build src/shim.h then run make test.',
      "- Cut by the handoff (issued, did not run): Bash — npm test",
    ]);
    expect(cutCallLines([agent, bash], "zh")).toEqual([
      "- 被交接切断(已发出,未执行):Agent(builder)「build the shim」 —— Build src/shim.h then run make test.",
      "- 被交接切断(已发出,未执行):Bash —— npm test",
    ]);
  });

  it("leaves out what a call does not have", () => {
    expect(cutCallLines([{ tool: "TodoWrite", summary: "" }], "en")).toEqual([
      "- Cut by the handoff (issued, did not run): TodoWrite",
    ]);
  });
});

describe("withCutCalls", () => {
  it("appends a line per call to next; the frozen file reads back with it there, in both locales", () => {
    for (const locale of LOCALES) {
      const carried = withCutCalls(written, [agent, bash], locale);
      const lines = cutCallLines([agent, bash], locale);
      expect(carried.next).toBe(`- Run \`make\` in build/.\n\n${lines.join("\n")}`);
      const back = parseHandoff(carried.toMarkdown(locale), "port");
      expect(back.sections()).toEqual(carried.sections());
      expect(back.promptBlock(locale)).toContain(lines[0]);
      // The other sections are untouched.
      expect({ ...back.sections(), next: "" }).toEqual({ ...written.sections(), next: "" });
    }
  });

  it("carries the calls on the degraded path too", () => {
    for (const locale of LOCALES) {
      const fallback = degraded("port", "Port the shim.", { why: "missing: next", locale });
      const carried = withCutCalls(fallback, [agent], locale);
      expect(carried.degraded).toBe(true);
      expect(carried.next.startsWith(fallback.next)).toBe(true);
      expect(carried.next.endsWith(cutCallLines([agent], locale)[0]!)).toBe(true);
      const back = parseHandoff(carried.toMarkdown(locale));
      expect(back.next).toBe(carried.next);
      expect(back.scene).toBe(fallback.scene);
    }
  });

  it("a prompt that looks like a heading or a fence stays inside its line", () => {
    const tricky = cutCall("Agent", { prompt: "## Scene\n```\nrm -rf /\n```\n**Next step**" }, "");
    const carried = withCutCalls(written, [tricky], "en");
    const back = parseHandoff(carried.toMarkdown("en"));
    expect(back.sections()).toEqual(carried.sections());
    expect(back.scene).toBe(written.scene);
    expect(back.notes).toBe("");
  });

  it("adds nothing twice, and nothing at all without calls", () => {
    expect(withCutCalls(written, [], "en")).toBe(written);
    const once = withCutCalls(written, [bash], "en");
    expect(withCutCalls(once, [bash], "en")).toBe(once);
  });

  it("a person who deletes the line deletes the call: the file as edited is what the successor reads", () => {
    const carried = withCutCalls(written, [bash], "en");
    const edited = carried.toMarkdown("en").replace(`${cutCallLines([bash], "en")[0]}\n`, "");
    expect(parseHandoff(edited).next).toBe(written.next);
  });
});

describe("the writing turn's prompt", () => {
  it("names the cut calls before its closing line, in both locales", () => {
    for (const locale of LOCALES) {
      const plain = handoffPrompt(locale, { used: 152_000, window: 200_000 });
      const prompt = handoffPrompt(locale, { used: 152_000, window: 200_000, cutCalls: [agent, bash] });
      const note = cutCallsNote([agent, bash], locale);
      const closing = plain.slice(plain.lastIndexOf("\n\n"));
      expect(prompt).toBe(`${plain.slice(0, plain.lastIndexOf("\n\n"))}\n\n${note}${closing}`);
      for (const line of cutCallLines([agent, bash], locale)) expect(note).toContain(line);
      expect(note).toMatch(locale === "zh" ? /没有执行/ : /did not run/);
    }
  });

  it("is unchanged without cut calls", () => {
    expect(cutCallsNote([], "en")).toBe("");
    expect(handoffPrompt("en", { used: 1_000, window: 2_000, cutCalls: [] })).toBe(
      handoffPrompt("en", { used: 1_000, window: 2_000 }),
    );
  });
});
