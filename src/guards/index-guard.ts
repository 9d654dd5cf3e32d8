/**
 * Keeps INDEX.md true while the run goes on: after a Write / Edit / NotebookEdit lands inside the
 * workbench, the index is regenerated, so the next step's system prompt (and any reader of INDEX.md)
 * knows the script that was just written instead of writing it again.
 */
import path from "node:path";
import type { HookCallback, HookCallbackMatcher } from "@anthropic-ai/claude-agent-sdk";
import { ConfigurationError } from "../errors.js";
import { Workbench } from "../workbench/workbench.js";

export const INDEX_GUARD_MATCHER = "Write|Edit|NotebookEdit";

export interface IndexGuardOptions {
  /** Called when a refresh fails; the tool call itself is never affected. */
  onError?: (error: unknown) => void;
}

function writtenPath(toolInput: unknown): string | null {
  if (typeof toolInput !== "object" || toolInput === null) return null;
  const { file_path: filePath, notebook_path: notebookPath } = toolInput as {
    file_path?: unknown;
    notebook_path?: unknown;
  };
  if (typeof filePath === "string" && filePath !== "") return filePath;
  if (typeof notebookPath === "string" && notebookPath !== "") return notebookPath;
  return null;
}

/** The PostToolUse matcher for `options.hooks.PostToolUse`. */
export function indexGuard(workbench: Workbench, options: IndexGuardOptions = {}): HookCallbackMatcher {
  if (!(workbench instanceof Workbench)) throw new ConfigurationError("workbench", workbench, "a Workbench");
  const callback: HookCallback = async (input) => {
    if (input.hook_event_name !== "PostToolUse") return {};
    const written = writtenPath(input.tool_input);
    if (written === null) return {};
    const target = path.resolve(input.cwd || workbench.workspace, written);
    if (!workbench.contains(target)) return {};
    try {
      await workbench.refresh();
    } catch (error) {
      // A stale index is better than a failed hook: the write already happened and must stand.
      try {
        options.onError?.(error);
      } catch {
        // Same reason: an observer's bug must not fail the hook.
      }
    }
    return {};
  };
  return { matcher: INDEX_GUARD_MATCHER, hooks: [callback] };
}
