import type { HookCallbackMatcher } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { buildOptions } from "../../../src/agents/build-options.js";
import { coordinator, sessionTools } from "../../../src/agents/coordinator.js";
import { COORDINATOR_RULES, WORKER_RULES } from "../../../src/agents/rules.js";
import { worker } from "../../../src/agents/worker.js";
import { CompactPolicy } from "../../../src/handoff/compact.js";

const analyst = worker("Analyses.", "Count things.", { tools: ["Read", "Bash", "Grep"] });
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

  it("defines workers with their rules, inherited model, foreground, and their tools", () => {
    const options = buildOptions(coordinator("lead", "g", { analyst }), context);
    expect(options.agents?.analyst).toEqual({
      description: "Analyses.",
      prompt: `${WORKER_RULES.en}\n\nCount things.`,
      tools: ["Read", "Bash", "Grep"],
      model: "inherit",
      background: false,
    });
    // The session's tool list holds the workers' tools: the CLI's list is session-wide.
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
    expect(pre[0]?.matcher).toBe("Bash|Write|Edit|NotebookEdit");
    expect(pre.slice(-2)).toEqual([runtimes, mine]);
  });
});

describe("sessionTools", () => {
  it("passes no list when a worker uses the default set", () => {
    expect(sessionTools({ any: worker("Any.", "Anything.") }, true)).toBeUndefined();
  });

  it("adds the glance Bash only when glance is on", () => {
    const reader = worker("Reads.", "Read.", { tools: ["Read"] });
    expect(sessionTools({ reader }, false)).toEqual(["Agent", "TodoWrite", "Read"]);
    expect(sessionTools({ reader }, true)).toEqual(["Agent", "TodoWrite", "Read", "Bash"]);
  });
});
