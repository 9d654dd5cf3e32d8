/**
 * The handoff-writing turn ends in the handoff's text. Its prompt says "call no tools", and a model
 * still sent a subagent to write the handoff to `.flower/notes/my-handoff.md` and answered "The handoff
 * is in .flower/notes/my-handoff.md": the answer had no sections, the handoff degraded, and the file
 * never reached the successor. So in a writing session every call that could put the handoff somewhere
 * else (Agent, Write, Edit, Bash, any tool nobody thought of) is turned back with one line saying to
 * answer with the text; looking (Read, Glob, Grep) and the plan tool pass, they cannot.
 *
 * Turned back rather than followed: a subagent started in the writing turn would run in a session that
 * is already over the handoff line, and the writing turn does no more work (its prompt says so). A handoff that still
 * ends up only in a file (written before the writing turn, or by a route this guard does not see) is
 * read from there when the answer names it (handoff/named-file.ts): the guard prevents the loss, the
 * reader recovers from it.
 */
import type { HookCallbackMatcher, HookInput, HookJSONOutput } from "@anthropic-ai/claude-agent-sdk";
import { ConfigurationError } from "../errors.js";
import { deny, failClosed } from "./deny.js";
import { isLocale, type Locale } from "../locale/locale.js";
import { WRITING_DENIAL } from "./guard-text.js";

/** Tools that only look, or keep the plan: they cannot carry the handoff away. */
const PASSING: ReadonlySet<string> = new Set(["Read", "Glob", "Grep", "TodoWrite"]);

/** The PreToolUse matcher for a writing session; it sees every tool, so an unknown one is turned back. */
export function writingGuard(locale: Locale): HookCallbackMatcher {
  if (!isLocale(locale)) throw new ConfigurationError("locale", locale, '"zh" or "en"');
  const decide = (input: HookInput): HookJSONOutput => {
    if (input.hook_event_name !== "PreToolUse") return {};
    return PASSING.has(input.tool_name) ? {} : deny(WRITING_DENIAL[locale]);
  };
  return { hooks: [failClosed(decide, () => deny(WRITING_DENIAL[locale]))] };
}
