/**
 * A read-only agent: it may look at the workspace, never change it. The agents that write the
 * requirements confirmation and the goal are such agents: their job is to understand the
 * task, and a document-writing step that starts "fixing" things has already begun the work on a
 * premise nobody confirmed. Their tool list holds only Read, Glob, Grep and Bash; this PreToolUse guard
 * lets a Bash command through only when it is a glance (`isEphemeral`: the same table the delegate
 * guard and the store's expiry use) and denies every other tool that is not a looking tool.
 */
import type { HookCallbackMatcher, HookInput, HookJSONOutput } from "@anthropic-ai/claude-agent-sdk";
import { ConfigurationError } from "../errors.js";
import { deny, failClosed } from "./deny.js";
import { isEphemeral } from "../glance/is-ephemeral.js";
import { isLocale, type Locale } from "../locale/locale.js";
import { READ_ONLY_DENIAL } from "./guard-text.js";
import { RECALL_TOOL } from "../session-layers/recall-search.js";

/** The tools a read-only agent has: looking, and Bash for glances only. */
export const READ_ONLY_TOOLS = ["Read", "Glob", "Grep", "Bash"] as const;

/** Tools that only look, allowed as they are: recall searches earlier generations' transcripts. */
const LOOKING: ReadonlySet<string> = new Set(["Read", "Glob", "Grep", "TodoWrite", RECALL_TOOL]);

function commandOf(toolInput: unknown): string | undefined {
  if (typeof toolInput !== "object" || toolInput === null) return undefined;
  const command = (toolInput as { command?: unknown }).command;
  return typeof command === "string" ? command : undefined;
}

/** The PreToolUse matcher; it sees every tool, so a tool nobody thought of is denied, not let through. */
export function readOnlyGuard(locale: Locale): HookCallbackMatcher {
  if (!isLocale(locale)) throw new ConfigurationError("locale", locale, '"zh" or "en"');
  const decide = (input: HookInput): HookJSONOutput => {
    if (input.hook_event_name !== "PreToolUse") return {};
    if (LOOKING.has(input.tool_name)) return {};
    const command = input.tool_name === "Bash" ? commandOf(input.tool_input) : undefined;
    if (command !== undefined && isEphemeral(command)) return {};
    return deny(READ_ONLY_DENIAL[locale]);
  };
  return { hooks: [failClosed(decide, () => deny(READ_ONLY_DENIAL[locale]))] };
}
