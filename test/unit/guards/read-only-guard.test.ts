/** The document-writing agents' guard: they may look (Read, Glob, Grep, glances), never change. */
import type { HookJSONOutput, PreToolUseHookInput } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { readOnlyGuard } from "../../../src/guards/read-only-guard.js";
import { READ_ONLY_DENIAL } from "../../../src/guards/text.js";

function preToolUse(tool: string, toolInput: unknown): PreToolUseHookInput {
  return {
    session_id: "s",
    transcript_path: "/tmp/s.jsonl",
    cwd: "/repo",
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: "toolu_1",
  };
}

async function decision(tool: string, input: unknown): Promise<string | null> {
  const output: HookJSONOutput = await readOnlyGuard("en").hooks[0]!(preToolUse(tool, input), "toolu_1", {
    signal: new AbortController().signal,
  });
  if (!("hookSpecificOutput" in output) || output.hookSpecificOutput?.hookEventName !== "PreToolUse")
    return null;
  return output.hookSpecificOutput.permissionDecision === "deny"
    ? (output.hookSpecificOutput.permissionDecisionReason ?? "")
    : null;
}

describe("readOnlyGuard", () => {
  it.each([
    ["Read", { file_path: "a.ts" }],
    ["Glob", { pattern: "**/*.ts" }],
    ["Grep", { pattern: "TODO" }],
    ["Bash", { command: "git status" }],
    ["Bash", { command: "ls -la && cat package.json" }],
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
  ])("denies %s %j with the read-only message", async (tool, input) => {
    expect(await decision(tool, input)).toBe(READ_ONLY_DENIAL.en);
  });

  it("rejects a bad locale, naming it", () => {
    expect(() => readOnlyGuard("fr" as "en")).toThrow(/locale: got "fr"/);
  });
});
