/**
 * Agent calls run in the background by default: the main turn then ends with a first `result`, and the
 * CLI starts another turn on its own when the subagent finishes. A coordinator that waits for its
 * subagents' reports is simpler to reason about (and to hand off at a message boundary), so every Agent
 * call is made synchronous by rewriting its input.
 */
import type { HookCallbackMatcher } from "@anthropic-ai/claude-agent-sdk";

export function foregroundAgents(): HookCallbackMatcher {
  return {
    matcher: "Agent|Task",
    hooks: [
      (input) => {
        if (input.hook_event_name !== "PreToolUse") return Promise.resolve({});
        const toolInput = input.tool_input as Record<string, unknown> | undefined;
        if (!toolInput || toolInput.run_in_background === false) return Promise.resolve({});
        return Promise.resolve({
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "allow",
            updatedInput: { ...toolInput, run_in_background: false },
          },
        });
      },
    ],
  };
}
