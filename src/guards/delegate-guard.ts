/**
 * Layer one of the context economy: the main thread does no hands-on work. It is an allowlist: the main
 * thread may call the Agent tool (the SDK's init message calls it Task), TodoWrite and Read, glance
 * commands through Bash when glance is on (the same `isEphemeral` table the store expires with), and
 * the tools its spec names explicitly (`mainThreadTools`). Everything else — Bash, Write, Edit, but also
 * Glob, Grep, WebFetch, WebSearch and any MCP tool — is denied at once with a message that shows the
 * way (send a subagent). A subagent's calls always pass.
 *
 * Why an allowlist: the CLI's tool list is session-wide, so the session also carries every tool the
 * subagents use. A denylist of hands-on tools let the coordinator run Grep or WebFetch itself and pull
 * their output into its own context, which is exactly what delegation is for.
 *
 * Main thread vs subagent is decided by `agent_id` in the hook input: the SDK sets it only for calls
 * made inside a subagent.
 */
import type { HookCallbackMatcher, HookInput, HookJSONOutput } from "@anthropic-ai/claude-agent-sdk";
import { DEFAULTS } from "../defaults.js";
import { ConfigurationError } from "../errors.js";
import { deny, failClosed } from "./deny.js";
import { isLocale, type Locale } from "../locale/locale.js";
import { isEphemeral } from "../glance/is-ephemeral.js";
import { DELEGATE_DENIAL, GLANCE_DENIAL_PREFIX } from "./guard-text.js";

/**
 * The tools the main thread always may use itself: delegate, track tasks, read reports. `Task` is the
 * name the SDK's init message uses for the Agent tool; both are accepted so a renamed tool still works.
 */
export const MAIN_THREAD_TOOLS = ["Agent", "Task", "TodoWrite", "Read"] as const;

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
  /**
   * Extra tools the main thread may call itself, by exact name (`"mcp__tracker__get"`, `"WebSearch"`).
   * Naming `"Bash"` here lets every Bash command through, not only glances.
   */
  mainThreadTools?: readonly string[];
  /** Called once per denial, e.g. to emit a `tool-denied` event. Errors it throws are swallowed. */
  onDeny?: (denial: DelegateDenial) => void;
}

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

/** Checks a `mainThreadTools` list; the error names the bad entry. */
export function validateMainThreadTools(name: string, tools: unknown): readonly string[] {
  if (!Array.isArray(tools)) throw new ConfigurationError(name, tools, "an array of tool names");
  for (const tool of tools as unknown[]) {
    if (typeof tool !== "string" || tool.trim() === "" || tool !== tool.trim()) {
      throw new ConfigurationError(
        `${name} entry`,
        tool,
        "a tool name such as WebSearch or mcp__tracker__get",
      );
    }
  }
  return tools as string[];
}

/** The PreToolUse matcher for `options.hooks.PreToolUse`. It matches every tool: the allowlist decides. */
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
  const extra = validateMainThreadTools("mainThreadTools", options.mainThreadTools ?? []);
  const allowed: ReadonlySet<string> = new Set<string>([...MAIN_THREAD_TOOLS, ...extra]);

  /** Whether `input` is a main-thread tool call the allowlist does not name outright. */
  function guarded(input: HookInput): input is HookInput & { hook_event_name: "PreToolUse" } {
    return input.hook_event_name === "PreToolUse" && !isSubagent(input) && !allowed.has(input.tool_name);
  }

  function decide(input: HookInput): HookJSONOutput {
    if (!guarded(input)) return {};
    const tool = input.tool_name;
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

  // An observer's bug (or ours) must not turn a denial into an allowed hands-on call on the main thread.
  const callback = failClosed(decide, (input) =>
    guarded(input) ? deny(delegateDenialReason(input.tool_name, glance, locale)) : {},
  );

  // No matcher: the hook sees every tool, so a tool nobody thought of is denied rather than let through.
  return { hooks: [callback] };
}
