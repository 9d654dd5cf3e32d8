import type { HookInput, HookJSONOutput } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import {
  MAIN_THREAD_TOOLS,
  delegateDenialReason,
  delegateGuard,
  type DelegateDenial,
  type DelegateGuardOptions,
} from "../../../src/guards/delegate-guard.js";
import { ConfigurationError } from "../../../src/errors.js";
import { preToolUse } from "./hook-input.js";

async function run(options: DelegateGuardOptions, input: HookInput): Promise<HookJSONOutput> {
  const hook = delegateGuard(options).hooks[0]!;
  return hook(input, "toolu_1", { signal: new AbortController().signal });
}

function denialReason(output: HookJSONOutput): string | null {
  if (!("hookSpecificOutput" in output) || output.hookSpecificOutput?.hookEventName !== "PreToolUse")
    return null;
  return output.hookSpecificOutput.permissionDecision === "deny"
    ? (output.hookSpecificOutput.permissionDecisionReason ?? "")
    : null;
}

describe("delegateGuard", () => {
  it("matches every tool: the allowlist decides, not a regex", () => {
    const matcher = delegateGuard({ glance: false, locale: "en" });
    expect(matcher.matcher).toBeUndefined();
    expect(matcher.hooks).toHaveLength(1);
    expect(MAIN_THREAD_TOOLS).toEqual(["Agent", "Task", "TodoWrite", "Read"]);
  });

  it.each([
    ["Write", { file_path: "/repo/a.txt", content: "x" }],
    ["Edit", { file_path: "/repo/a.txt", old_string: "a", new_string: "b" }],
    ["NotebookEdit", { notebook_path: "/repo/a.ipynb", new_source: "x" }],
    ["Bash", { command: "npm test" }],
    ["Glob", { pattern: "**/*.ts" }],
    ["Grep", { pattern: "TODO" }],
    ["WebFetch", { url: "https://example.com", prompt: "summarise" }],
    ["WebSearch", { query: "flower" }],
    ["mcp__tracker__get", { id: 7 }],
    ["mcp__x__BashLike", { command: "ls" }],
    ["Skill", { skill: "x" }],
    ["SomeToolNobodyKnows", {}],
  ])("denies %s on the main thread with the SDK's deny shape", async (tool, toolInput) => {
    const output = await run({ glance: true, locale: "en" }, preToolUse(tool, toolInput));
    expect(output).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: expect.stringContaining("Agent tool") as unknown,
      },
    });
  });

  it("lets every call of a subagent pass", async () => {
    for (const [tool, toolInput] of [
      ["Bash", { command: "rm -rf build" }],
      ["Write", { file_path: "/repo/a", content: "" }],
    ] as const) {
      expect(
        await run({ glance: false, locale: "zh" }, preToolUse(tool, toolInput, "aad9e2ac365328093")),
      ).toEqual({});
    }
  });

  it("lets a glance through only with glance on", async () => {
    const glance = preToolUse("Bash", {
      command: 'git status -s && echo "--- LOG ---" && git log --oneline -10',
    });
    expect(await run({ glance: true, locale: "zh" }, glance)).toEqual({});
    expect(denialReason(await run({ glance: false, locale: "zh" }, glance))).not.toBeNull();
    expect(
      denialReason(
        await run({ glance: true, locale: "zh" }, preToolUse("Bash", { command: "git status && rm -rf x" })),
      ),
    ).not.toBeNull();
  });

  it("denies a Bash call without a usable command", async () => {
    for (const toolInput of [{}, { command: 42 }, null, "ls"]) {
      expect(
        denialReason(await run({ glance: true, locale: "en" }, preToolUse("Bash", toolInput))),
      ).not.toBeNull();
    }
  });

  it("lets the main thread delegate, track tasks and read", async () => {
    for (const [tool, toolInput] of [
      ["Agent", { description: "d", prompt: "p", subagent_type: "engineer" }],
      ["Task", { description: "d", prompt: "p", subagent_type: "engineer" }],
      ["TodoWrite", { todos: [] }],
      ["Read", { file_path: "/x" }],
    ] as const) {
      expect(await run({ glance: false, locale: "en" }, preToolUse(tool, toolInput))).toEqual({});
    }
  });

  it("lets the tools the spec names through on the main thread, by exact name only", async () => {
    const options: DelegateGuardOptions = {
      glance: false,
      locale: "en",
      mainThreadTools: ["mcp__tracker__get", "WebSearch"],
    };
    expect(await run(options, preToolUse("mcp__tracker__get", { id: 7 }))).toEqual({});
    expect(await run(options, preToolUse("WebSearch", { query: "q" }))).toEqual({});
    expect(denialReason(await run(options, preToolUse("mcp__tracker__put", { id: 7 })))).not.toBeNull();
    expect(denialReason(await run(options, preToolUse("mcp__tracker__get_all", {})))).not.toBeNull();
    expect(denialReason(await run(options, preToolUse("Grep", { pattern: "x" })))).not.toBeNull();
    // Naming Bash lets every command through, not only glances.
    const bash = { ...options, mainThreadTools: ["Bash"] };
    expect(await run(bash, preToolUse("Bash", { command: "npm test" }))).toEqual({});
  });

  it("ignores other events", async () => {
    const post: HookInput = {
      ...preToolUse("Bash", { command: "rm" }),
      hook_event_name: "PostToolUse",
      tool_response: {},
    };
    expect(await run({ glance: false, locale: "en" }, post)).toEqual({});
  });

  it("shows the way in both languages, and names what passes when glance is on", () => {
    const zh = delegateDenialReason("Write", false, "zh");
    expect(zh).toContain("Agent");
    expect(zh).toContain("验收标准");
    expect(zh).toContain(".flower/artifacts/");
    expect(zh).toContain("路径和结论");
    const en = delegateDenialReason("Edit", true, "en");
    expect(en).toContain(".flower/artifacts/");
    expect(en).toContain("acceptance criteria");
    expect(en).not.toContain("git status");
    expect(delegateDenialReason("Bash", true, "en")).toContain("git status");
    expect(delegateDenialReason("Bash", false, "en")).not.toContain("git status");
    // Short: a denial stays in the main thread's context until it is pruned.
    for (const locale of ["zh", "en"] as const)
      expect(delegateDenialReason("Bash", true, locale).length).toBeLessThan(360);
  });

  it("reports each denial and survives an observer that throws", async () => {
    const seen: DelegateDenial[] = [];
    await run(
      { glance: true, locale: "en", onDeny: (denial) => seen.push(denial) },
      preToolUse("Bash", { command: "make" }),
    );
    await run(
      { glance: true, locale: "en", onDeny: (denial) => seen.push(denial) },
      preToolUse("Write", { file_path: "/a" }),
    );
    await run(
      { glance: true, locale: "en", onDeny: (denial) => seen.push(denial) },
      preToolUse("Bash", { command: "ls" }),
    );
    expect(seen.map(({ tool, command }) => ({ tool, command }))).toEqual([
      { tool: "Bash", command: "make" },
      { tool: "Write", command: undefined },
    ]);
    expect(seen[0]!.reason).toBe(delegateDenialReason("Bash", true, "en"));

    const output = await run(
      {
        glance: false,
        locale: "en",
        onDeny: () => {
          throw new Error("observer bug");
        },
      },
      preToolUse("Write", { file_path: "/a" }),
    );
    expect(denialReason(output)).not.toBeNull();
  });

  it("fails closed: an internal error on the main thread still denies", async () => {
    const hostile = {
      get command(): string {
        throw new Error("boom");
      },
    };
    expect(
      denialReason(await run({ glance: true, locale: "en" }, preToolUse("Bash", hostile))),
    ).not.toBeNull();
    expect(await run({ glance: true, locale: "en" }, preToolUse("Bash", hostile, "agent-1"))).toEqual({});
  });

  it("validates its options", () => {
    expect(() => delegateGuard({ glance: "yes" as unknown as boolean, locale: "en" })).toThrow(
      ConfigurationError,
    );
    expect(() => delegateGuard({ glance: true, locale: "fr" as "en" })).toThrow(/locale/);
    expect(() => delegateGuard({ glance: true, locale: "en", onDeny: 1 as unknown as () => void })).toThrow(
      /onDeny/,
    );
    expect(() =>
      delegateGuard({ glance: true, locale: "en", mainThreadTools: "Grep" as unknown as string[] }),
    ).toThrow(/mainThreadTools.*"Grep"/);
    expect(() => delegateGuard({ glance: true, locale: "en", mainThreadTools: ["Grep", ""] })).toThrow(
      /mainThreadTools entry/,
    );
    expect(() => delegateGuard({ glance: true, locale: "en", mainThreadTools: [" Grep"] })).toThrow(
      /" Grep"/,
    );
  });
});
