/** The writing turn's guard: a call that could carry the handoff elsewhere is turned back with one line. */
import { describe, expect, it } from "vitest";
import { denialOf } from "./hook-input.js";
import { WRITING_DENIAL } from "../../../src/guards/guard-text.js";
import { writingGuard } from "../../../src/guards/writing-guard.js";

async function decision(tool: string, input: unknown, locale: "en" | "zh" = "en"): Promise<string | null> {
  return denialOf(writingGuard(locale), tool, input);
}

describe("writingGuard", () => {
  it.each([
    ["Read", { file_path: "a.ts" }],
    ["Glob", { pattern: "**/*.ts" }],
    ["Grep", { pattern: "TODO" }],
    ["TodoWrite", { todos: [] }],
  ])("lets %s through: it cannot carry the handoff away", async (tool, input) => {
    expect(await decision(tool, input)).toBeNull();
  });

  it.each([
    ["Agent", { subagent_type: "writer", prompt: "Write the handoff to .flower/notes/my-handoff.md" }],
    ["Task", { prompt: "write it" }],
    ["Write", { file_path: ".flower/notes/my-handoff.md", content: "## Next step" }],
    ["Edit", { file_path: "HANDOFF.md", old_string: "a", new_string: "b" }],
    ["Bash", { command: "cat > handoff.md" }],
    ["SomeNewTool", {}],
  ])("turns %s back with the one line", async (tool, input) => {
    expect(await decision(tool, input)).toBe(WRITING_DENIAL.en);
  });

  it("speaks zh", async () => {
    expect(await decision("Agent", {}, "zh")).toBe(WRITING_DENIAL.zh);
    expect(WRITING_DENIAL.zh).toContain("交接书全文");
  });

  it("rejects a bad locale, naming it", () => {
    expect(() => writingGuard("fr" as "en")).toThrow(/locale: got "fr"/);
  });
});
