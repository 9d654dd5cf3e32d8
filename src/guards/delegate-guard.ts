/**
 * Layer one of the context economy: the main thread does no hands-on work. Every Bash / Write / Edit /
 * NotebookEdit call from the main thread is denied at once with a message that shows the way (send a
 * subagent); a subagent's calls always pass. With glance on, a Bash command whose result goes stale
 * (the same `isEphemeral` table the store expires with) passes too.
 *
 * Main thread vs subagent is decided by `agent_id` in the hook input: the SDK sets it only for calls
 * made inside a subagent.
 */
import type {
  HookCallback,
  HookCallbackMatcher,
  HookInput,
  HookJSONOutput,
} from "@anthropic-ai/claude-agent-sdk";
import { DEFAULTS } from "../defaults.js";
import { ConfigurationError } from "../errors.js";
import { isLocale, type Locale } from "../locale/locale.js";
import { isEphemeral } from "../glance/is-ephemeral.js";
import { DELEGATE_DENIAL, GLANCE_DENIAL_PREFIX } from "./text.js";

/** The tools the main thread may not use itself. */
export const DELEGATED_TOOLS = ["Bash", "Write", "Edit", "NotebookEdit"] as const;

export const DELEGATE_GUARD_MATCHER = DELEGATED_TOOLS.join("|");

export interface DelegateDenial {
  tool: string;
  /** The Bash command, when the denied tool was Bash. */
  command?: string;
  reason: string;
}

export interface DelegateGuardOptions {
  /** Let the main thread run Bash commands whose result goes stale (`git status`, `ls`, `cat`, ...). */
  glance: boolean;
  /** Language of the denial message. */
  locale: Locale;
  /** Called once per denial, e.g. to emit a `tool-denied` event. Errors it throws are swallowed. */
  onDeny?: (denial: DelegateDenial) => void;
}

const DELEGATED: ReadonlySet<string> = new Set(DELEGATED_TOOLS);

function artifactsHint(): string {
  return `${DEFAULTS.workbenchDir}/artifacts/`;
}

function commandOf(toolInput: unknown): string | undefined {
  if (typeof toolInput !== "object" || toolInput === null) return undefined;
  const command = (toolInput as { command?: unknown }).command;
  return typeof command === "string" ? command : undefined;
}

/** The denial text for a main-thread call of `tool`; exported for tests and for the CLI's display. */
export function delegateDenialReason(tool: string, glance: boolean, locale: Locale): string {
  const way = DELEGATE_DENIAL[locale](artifactsHint());
  return tool === "Bash" && glance ? `${GLANCE_DENIAL_PREFIX[locale]}${way}` : way;
}

function isSubagent(input: HookInput): boolean {
  return typeof input.agent_id === "string" && input.agent_id !== "";
}

function deny(reason: string): HookJSONOutput {
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason,
    },
  };
}

/** The PreToolUse matcher for `options.hooks.PreToolUse`. */
export function delegateGuard(options: DelegateGuardOptions): HookCallbackMatcher {
  if (typeof options !== "object" || options === null) {
    throw new ConfigurationError("delegateGuard options", options, "an object { glance, locale }");
  }
  const { glance, locale, onDeny } = options;
  if (typeof glance !== "boolean") throw new ConfigurationError("glance", glance, "a boolean");
  if (!isLocale(locale)) throw new ConfigurationError("locale", locale, '"zh" or "en"');
  if (onDeny !== undefined && typeof onDeny !== "function") {
    throw new ConfigurationError("onDeny", onDeny, "a function");
  }

  function decide(input: HookInput): HookJSONOutput {
    if (input.hook_event_name !== "PreToolUse") return {};
    if (isSubagent(input)) return {};
    // The matcher is a regex over tool names (`Bash|Write` also matches `mcp__x__BashLike`); the exact
    // name decides.
    const tool = input.tool_name;
    if (!DELEGATED.has(tool)) return {};
    const command = tool === "Bash" ? commandOf(input.tool_input) : undefined;
    if (glance && command !== undefined && isEphemeral(command)) return {};
    const reason = delegateDenialReason(tool, glance, locale);
    try {
      onDeny?.(command === undefined ? { tool, reason } : { tool, command, reason });
    } catch {
      // Swallowed, see below.
    }
    return deny(reason);
  }

  // A hook that throws counts as a hook failure, and on failure the SDK lets the tool call go ahead: an
  // observer's bug (or ours) must not turn a denial into an allowed hands-on call on the main thread.
  const callback: HookCallback = (input) => {
    try {
      return Promise.resolve(decide(input));
    } catch {
      const mainThreadCall =
        input.hook_event_name === "PreToolUse" && !isSubagent(input) && DELEGATED.has(input.tool_name);
      return Promise.resolve(
        mainThreadCall ? deny(delegateDenialReason(input.tool_name, glance, locale)) : {},
      );
    }
  };

  return { matcher: DELEGATE_GUARD_MATCHER, hooks: [callback] };
}
