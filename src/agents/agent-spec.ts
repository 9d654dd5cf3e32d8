/**
 * What an agent is, independent of the SDK: `buildOptions` compiles it to SDK options.
 */
import type { HookCallbackMatcher, HookEvent } from "@anthropic-ai/claude-agent-sdk";
import type { CompactPolicy } from "../handoff/compact.js";

/** A subagent the main thread can start with the Agent tool. */
export interface SubagentSpec {
  /** When to use this subagent: the coordinator picks subagents by this text. */
  description: string;
  /** The subagent's own instructions (SUBAGENT_RULES are prepended). */
  instructions: string;
  /** Built-in tools the subagent may use. @default all tools */
  tools?: string[] | undefined;
  /** Model alias or id. Subagents are not downgraded: they inherit the main model. @default "inherit" */
  model?: string | undefined;
}

export interface AgentSpec {
  /** A name for displays and the manifest. */
  name: string;
  /** Appended to the Claude Code preset system prompt, never replacing it. */
  instructions: string;
  /** Built-in tools of the main thread (`tools` option of the SDK). @default the CLI's default set */
  tools?: string[] | undefined;
  /** Auto-approved tools; also how Grep and Glob are added (they are not in the default set). */
  allowedTools?: string[] | undefined;
  disallowedTools?: string[] | undefined;
  /** Model alias or id for the main thread. @default the runtime's model, else the CLI's default */
  model?: string | undefined;
  /** Subagents, by name (the Agent tool's `subagent_type`). */
  subagents?: Record<string, SubagentSpec> | undefined;
  /** Auto-compact policy. @default unset: with handoff on, auto-compact is turned off */
  compact?: CompactPolicy | undefined;
  /**
   * The delegate guard: the main thread may only call Agent, TodoWrite and Read (plus glance Bash and
   * `mainThreadTools`); every other tool call on the main thread is denied with a message that says to
   * send a subagent. Subagents are not affected. @default false
   */
  delegateOnly?: boolean | undefined;
  /** With delegateOnly: let cheap read-only glance commands through. @default false */
  glance?: boolean | undefined;
  /**
   * With delegateOnly: more tools the main thread may call itself, by exact name, e.g.
   * `["mcp__tracker__get"]` to let the coordinator look up a ticket without sending a subagent.
   * @default none
   */
  mainThreadTools?: string[] | undefined;
  /** Whether this is a coordinator (its handoff start-up floor is known: ~34k). */
  role?: "coordinator" | "agent" | undefined;
  /** The SDK's maxTurns for one session. */
  maxTurns?: number | undefined;
  /** Your own SDK hooks; they run after flower's own (the delegate guard decides first). */
  hooks?: Partial<Record<HookEvent, HookCallbackMatcher[]>> | undefined;
}
