import type { HookInput } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { claimFlagLine } from "../../../src/goal/claims.js";
import { claimGuard, reportText, type FlaggedClaim } from "../../../src/guards/claim-guard.js";

const agentResult = (text: string, extra: Record<string, unknown> = {}) =>
  ({
    hook_event_name: "PostToolUse",
    session_id: "s",
    transcript_path: "/t",
    cwd: "/w",
    tool_name: "Agent",
    tool_input: { subagent_type: "fixer", prompt: "fix it", description: "fix" },
    tool_response: { status: "completed", content: [{ type: "text", text }] },
    tool_use_id: "toolu_1",
    ...extra,
  }) as unknown as HookInput;

async function call(input: HookInput, flags: FlaggedClaim[] = [], locale: "en" | "zh" = "en") {
  const matcher = claimGuard({ locale, onFlag: (claim) => flags.push(claim) });
  return matcher.hooks[0]!(input, "toolu_1", { signal: new AbortController().signal });
}

describe("claimGuard", () => {
  it("adds one line for a claim without evidence and reports it", async () => {
    const flags: FlaggedClaim[] = [];
    const output = await call(agentResult("All done, everything works now."), flags);
    expect(output).toEqual({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: claimFlagLine("en") },
    });
    expect(flags).toEqual([
      { agent: "fixer", matched: ["All done", "works now"], excerpt: "All done, everything works now." },
    ]);
  });

  it("says it in the runtime's language", async () => {
    const output = await call(agentResult("已完成,测试都通过了。"), [], "zh");
    expect(JSON.stringify(output)).toContain(claimFlagLine("zh"));
  });

  it("leaves alone a report with evidence, a report of failure, a subagent's own Agent call, other tools", async () => {
    const flags: FlaggedClaim[] = [];
    expect(await call(agentResult("Fixed. Ran `npm test`: 12 passed, 0 failed."), flags)).toEqual({});
    expect(await call(agentResult("Could not fix it: the build still fails."), flags)).toEqual({});
    expect(await call(agentResult("All done.", { agent_id: "a1" }), flags)).toEqual({});
    expect(await call(agentResult("All done.", { tool_name: "Bash" }), flags)).toEqual({});
    expect(flags).toEqual([]);
  });

  it("an observer that throws does not cost the coordinator its line", async () => {
    const matcher = claimGuard({
      locale: "en",
      onFlag: () => {
        throw new Error("observer bug");
      },
    });
    const output = await matcher.hooks[0]!(agentResult("Done!"), "t", {
      signal: new AbortController().signal,
    });
    expect(JSON.stringify(output)).toContain("claims success");
  });

  it("reads the report from the foreground result's text blocks; a background launch has none", () => {
    expect(
      reportText({ content: [{ type: "text", text: "a" }, { type: "image" }, { type: "text", text: "b" }] }),
    ).toBe("a\nb");
    expect(reportText({ isAsync: true, status: "async_launched" })).toBeNull();
    expect(reportText("plain")).toBe("plain");
    expect(() => claimGuard({ locale: "fr" as never })).toThrow(/locale/);
  });
});
