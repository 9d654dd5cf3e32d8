/**
 * Claims need evidence (the goal guard): a PostToolUse hook on the Agent tool's result. A subagent's report
 * that claims success ("done", "all tests pass", "完成", "通过") without naming a command it ran or a file it
 * wrote gets one added line for the coordinator, so the coordinator reads it as a claim, not evidence.
 *
 * The line goes in as `additionalContext`, not as a rewrite of the report: the CLI shows it to the model
 * right after the tool result (as "PostToolUse:Agent hook additional context: …", seen in a run), and the
 * subagent's words stay exactly as written. Only the main thread's Agent calls are read: a subagent's own
 * subagent reports to that subagent, not to the coordinator.
 */
import type { HookCallback, HookCallbackMatcher } from "@anthropic-ai/claude-agent-sdk";
import { ConfigurationError } from "../errors.js";
import { assessClaim, claimFlagLine } from "../goal/claims.js";
import { isLocale, type Locale } from "../locale/locale.js";

export const CLAIM_GUARD_MATCHER = "Agent|Task";

/** Characters of a flagged report kept for the record and the live view. */
const EXCERPT_CHARS = 200;

export interface FlaggedClaim {
  /** The subagent (the Agent call's subagent_type), when known. */
  agent: string | null;
  /** The success phrases found, as written. */
  matched: string[];
  /** The report's first characters, on one line. */
  excerpt: string;
}

export interface ClaimGuardOptions {
  locale: Locale;
  /** Called once per flagged report. Errors it throws are swallowed. */
  onFlag?: (claim: FlaggedClaim) => void;
}

/** The report's text: the foreground Agent result's text blocks (a plain string is taken as it is). */
export function reportText(response: unknown): string | null {
  if (typeof response === "string") return response;
  if (typeof response !== "object" || response === null) return null;
  const content = (response as { content?: unknown }).content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const texts = content
    .filter(
      (block): block is { type: "text"; text: string } =>
        typeof block === "object" &&
        block !== null &&
        (block as { type?: unknown }).type === "text" &&
        typeof (block as { text?: unknown }).text === "string",
    )
    .map((block) => block.text);
  return texts.length > 0 ? texts.join("\n") : null;
}

function subagentName(toolInput: unknown): string | null {
  if (typeof toolInput !== "object" || toolInput === null) return null;
  const type = (toolInput as { subagent_type?: unknown }).subagent_type;
  return typeof type === "string" && type !== "" ? type : null;
}

/** The PostToolUse matcher for `options.hooks.PostToolUse`. */
export function claimGuard(options: ClaimGuardOptions): HookCallbackMatcher {
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError("claimGuard options", options, "an object { locale, onFlag? }");
  if (!isLocale(options.locale)) throw new ConfigurationError("locale", options.locale, '"zh" or "en"');
  if (options.onFlag !== undefined && typeof options.onFlag !== "function")
    throw new ConfigurationError("onFlag", options.onFlag, "a function");
  const { locale, onFlag } = options;

  const callback: HookCallback = async (input) => {
    if (input.hook_event_name !== "PostToolUse") return {};
    if (input.tool_name !== "Agent" && input.tool_name !== "Task") return {};
    if (typeof input.agent_id === "string" && input.agent_id !== "") return {};
    const report = reportText(input.tool_response);
    if (report === null) return {};
    const assessment = assessClaim(report);
    if (!assessment.flagged) return {};
    try {
      onFlag?.({
        agent: subagentName(input.tool_input),
        matched: assessment.matched,
        excerpt: report.replace(/\s+/g, " ").trim().slice(0, EXCERPT_CHARS),
      });
    } catch {
      // An observer's bug must not cost the coordinator its flag line.
    }
    return {
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: claimFlagLine(locale) },
    };
  };
  return { matcher: CLAIM_GUARD_MATCHER, hooks: [callback] };
}
