/** What the guards' tests hand a hook: a PreToolUse input as the SDK sends it, and the hook's verdict. */
import type {
  HookCallbackMatcher,
  HookJSONOutput,
  PreToolUseHookInput,
} from "@anthropic-ai/claude-agent-sdk";

/** A PreToolUse hook input for `tool`; with `agentId`, the call comes from a subagent. */
export function preToolUse(tool: string, toolInput: unknown, agentId?: string): PreToolUseHookInput {
  return {
    session_id: "s",
    transcript_path: "/tmp/s.jsonl",
    cwd: "/repo",
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: "toolu_1",
    ...(agentId === undefined ? {} : { agent_id: agentId, agent_type: "worker" }),
  };
}

/** The reason a guard's hook gives when it denies the call, or null when it lets it through. */
export async function denialOf(
  guard: HookCallbackMatcher,
  tool: string,
  input: unknown,
): Promise<string | null> {
  const output: HookJSONOutput = await guard.hooks[0]!(preToolUse(tool, input), "toolu_1", {
    signal: new AbortController().signal,
  });
  if (!("hookSpecificOutput" in output) || output.hookSpecificOutput?.hookEventName !== "PreToolUse")
    return null;
  return output.hookSpecificOutput.permissionDecision === "deny"
    ? (output.hookSpecificOutput.permissionDecisionReason ?? "")
    : null;
}
