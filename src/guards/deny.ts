/**
 * A PreToolUse denial, and the fail-closed wrapper every guard needs: a hook callback that throws
 * counts as a hook failure, and on failure the SDK lets the tool call go ahead — so a guard's bug (or an
 * observer's) must turn into a denial, never into an allowed call.
 */
import type { HookCallback, HookInput, HookJSONOutput } from "@anthropic-ai/claude-agent-sdk";

/** The hook output that turns a tool call back with `reason` (the model reads it as the tool's result). */
export function deny(reason: string): HookJSONOutput {
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason,
    },
  };
}

/** A callback that runs `decide`, and answers with `onError(input)` instead when it throws. */
export function failClosed(
  decide: (input: HookInput) => HookJSONOutput,
  onError: (input: HookInput) => HookJSONOutput,
): HookCallback {
  return (input) => {
    try {
      return Promise.resolve(decide(input));
    } catch {
      return Promise.resolve(onError(input));
    }
  };
}
