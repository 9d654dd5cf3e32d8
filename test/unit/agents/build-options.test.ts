import type { HookCallbackMatcher, HookInput } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { buildOptions } from "../../../src/agents/build-options.js";
import { coordinator, sessionTools } from "../../../src/agents/coordinator.js";
import { COORDINATOR_RULES, SUBAGENT_RULES } from "../../../src/agents/rules.js";
import { subagent } from "../../../src/agents/subagent.js";
import { CompactPolicy } from "../../../src/handoff/compact.js";

const analyst = subagent("Analyses.", "Count things.", { tools: ["Read", "Bash", "Grep"] });
const context = { workspace: "/tmp/ws", locale: "en" as const, handoffEnabled: true };

describe("buildOptions", () => {
  it("appends rules, goal and extra blocks to the claude_code preset, in that order", () => {
    const options = buildOptions(coordinator("lead", "GOAL-TEXT", { analyst }), {
      ...context,
      systemAppend: ["INDEX-BLOCK"],
    });
    expect(options.systemPrompt).toEqual({
      type: "preset",
      preset: "claude_code",
      append: `${COORDINATOR_RULES.en}\n\nGOAL-TEXT\n\nINDEX-BLOCK`,
    });
    expect(options.cwd).toBe("/tmp/ws");
    expect(options.permissionMode).toBe("bypassPermissions");
  });

  it("defines subagents with their rules, inherited model, foreground, and their tools", () => {
    const options = buildOptions(coordinator("lead", "g", { analyst }), context);
    expect(options.agents?.analyst).toEqual({
      description: "Analyses.",
      prompt: `${SUBAGENT_RULES.en}\n\nCount things.`,
      tools: ["Read", "Bash", "Grep"],
      model: "inherit",
      background: false,
    });
    // The session's tool list holds the subagents' tools: the CLI's list is session-wide.
    expect(options.tools).toEqual(["Agent", "TodoWrite", "Read", "Bash", "Grep"]);
  });

  it("turns auto-compact off with handoff on, unless the spec sets compact itself", () => {
    const plain = { name: "p", instructions: "" };
    expect(buildOptions(plain, context).env?.DISABLE_AUTO_COMPACT).toBe("1");
    expect(buildOptions(plain, { ...context, handoffEnabled: false }).env?.DISABLE_AUTO_COMPACT).toBe(
      process.env.DISABLE_AUTO_COMPACT,
    );
    expect(
      buildOptions({ ...plain, compact: new CompactPolicy({ mode: "auto" }) }, context).env
        ?.DISABLE_AUTO_COMPACT,
    ).toBe(process.env.DISABLE_AUTO_COMPACT);
    // The runtime owns retries: the CLI gets only a couple of its own.
    expect(buildOptions(plain, context).env?.CLAUDE_CODE_MAX_RETRIES).toBe("2");
  });

  it("hides the CLI's built-in agent types from a coordinator only, unless the environment says otherwise", () => {
    const lead = coordinator("lead", "g", { analyst });
    expect(buildOptions(lead, context).env?.CLAUDE_AGENT_SDK_DISABLE_BUILTIN_AGENTS).toBe("1");
    const plain = { name: "p", instructions: "" };
    expect(buildOptions(plain, context).env?.CLAUDE_AGENT_SDK_DISABLE_BUILTIN_AGENTS).toBe(
      process.env.CLAUDE_AGENT_SDK_DISABLE_BUILTIN_AGENTS,
    );
    const keep = { ...context, env: { CLAUDE_AGENT_SDK_DISABLE_BUILTIN_AGENTS: "" } };
    expect(buildOptions(lead, keep).env?.CLAUDE_AGENT_SDK_DISABLE_BUILTIN_AGENTS).toBe("");
  });

  it("runs the delegate guard first, then the runtime's hooks, then the spec's own", () => {
    const mine: HookCallbackMatcher = { matcher: "Bash", hooks: [async () => ({})] };
    const runtimes: HookCallbackMatcher = { matcher: "Write", hooks: [async () => ({})] };
    const options = buildOptions(
      { ...coordinator("lead", "g", { analyst }), hooks: { PreToolUse: [mine] } },
      {
        ...context,
        hooks: { PreToolUse: [runtimes] },
      },
    );
    const pre = options.hooks?.PreToolUse ?? [];
    // The delegate guard is an allowlist: it matches every tool and decides by name.
    expect(pre[0]?.matcher).toBeUndefined();
    expect(pre.slice(-2)).toEqual([runtimes, mine]);
  });

  it("hands the spec's mainThreadTools to the delegate guard", async () => {
    const guardOf = (spec: ReturnType<typeof coordinator>) =>
      buildOptions(spec, context).hooks!.PreToolUse![0]!.hooks[0]!;
    const call = (tool: string): HookInput => ({
      session_id: "s",
      transcript_path: "/tmp/s.jsonl",
      cwd: "/tmp/ws",
      hook_event_name: "PreToolUse",
      tool_name: tool,
      tool_input: {},
      tool_use_id: "toolu_1",
    });
    const signal = { signal: new AbortController().signal };
    const plain = guardOf(coordinator("lead", "g", { analyst }));
    const extended = guardOf(coordinator("lead", "g", { analyst }, { allowTools: ["mcp__tracker__get"] }));
    expect(await plain(call("mcp__tracker__get"), "toolu_1", signal)).toHaveProperty("hookSpecificOutput");
    expect(await extended(call("mcp__tracker__get"), "toolu_1", signal)).toEqual({});
    expect(await extended(call("Grep"), "toolu_1", signal)).toHaveProperty("hookSpecificOutput");
  });
});

describe("sessionTools", () => {
  it("passes no list when a subagent uses the default set", () => {
    expect(sessionTools({ any: subagent("Any.", "Anything.") }, true)).toBeUndefined();
  });

  it("adds the glance Bash only when glance is on", () => {
    const reader = subagent("Reads.", "Read.", { tools: ["Read"] });
    expect(sessionTools({ reader }, false)).toEqual(["Agent", "TodoWrite", "Read"]);
    expect(sessionTools({ reader }, true)).toEqual(["Agent", "TodoWrite", "Read", "Bash"]);
  });

  it("adds the built-in tools the coordinator may use itself, not MCP tools", () => {
    const reader = subagent("Reads.", "Read.", { tools: ["Read", "Grep"] });
    expect(sessionTools({ reader }, false, ["WebSearch", "mcp__tracker__get", "Grep"])).toEqual([
      "Agent",
      "TodoWrite",
      "Read",
      "WebSearch",
      "Grep",
    ]);
  });
});

describe("coordinator allowTools", () => {
  it("becomes the spec's mainThreadTools, and is absent by default", () => {
    const reader = subagent("Reads.", "Read.", { tools: ["Read"] });
    expect(coordinator("lead", "g", { reader }).mainThreadTools).toBeUndefined();
    const spec = coordinator("lead", "g", { reader }, { allowTools: ["mcp__tracker__get", "WebFetch"] });
    expect(spec.mainThreadTools).toEqual(["mcp__tracker__get", "WebFetch"]);
    expect(spec.tools).toEqual(["Agent", "TodoWrite", "Read", "Bash", "WebFetch"]);
  });

  it("names a bad entry", () => {
    const reader = subagent("Reads.", "Read.", { tools: ["Read"] });
    expect(() => coordinator("lead", "g", { reader }, { allowTools: "Grep" as unknown as string[] })).toThrow(
      /allowTools: got "Grep"/,
    );
    expect(() =>
      coordinator("lead", "g", { reader }, { allowTools: ["Grep", 7 as unknown as string] }),
    ).toThrow(/allowTools entry: got 7/);
  });
});
