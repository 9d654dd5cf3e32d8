/** The document-writing agents' guard: they may look (Read, Glob, Grep, glances), never change. */
import { describe, expect, it } from "vitest";
import { denialOf } from "./hook-input.js";
import { readOnlyGuard } from "../../../src/guards/read-only-guard.js";
import { READ_ONLY_DENIAL } from "../../../src/guards/guard-text.js";

async function decision(tool: string, input: unknown): Promise<string | null> {
  return denialOf(readOnlyGuard("en"), tool, input);
}

describe("readOnlyGuard", () => {
  it.each([
    ["Read", { file_path: "a.ts" }],
    ["Glob", { pattern: "**/*.ts" }],
    ["Grep", { pattern: "TODO" }],
    ["Bash", { command: "git status" }],
    ["Bash", { command: "ls -la && cat package.json" }],
    // Recall only searches the step's earlier transcripts.
    ["mcp__flower__recall", { query: "deploy token" }],
  ])("lets %s %j through", async (tool, input) => {
    expect(await decision(tool, input)).toBeNull();
  });

  it.each([
    ["Write", { file_path: "a.ts", content: "x" }],
    ["Edit", { file_path: "a.ts", old_string: "a", new_string: "b" }],
    ["NotebookEdit", { notebook_path: "a.ipynb" }],
    ["Bash", { command: "npm test" }],
    ["Bash", { command: "git status && rm -rf src" }],
    ["Bash", { command: "cat a > b" }],
    ["AskUserQuestion", { questions: [] }],
    ["WebFetch", { url: "https://example.com" }],
    ["mcp__tracker__update", { id: 1 }],
  ])("denies %s %j with the read-only message", async (tool, input) => {
    expect(await decision(tool, input)).toBe(READ_ONLY_DENIAL.en);
  });

  it("rejects a bad locale, naming it", () => {
    expect(() => readOnlyGuard("fr" as "en")).toThrow(/locale: got "fr"/);
  });
});
