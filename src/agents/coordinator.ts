import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import { validateMainThreadTools } from "../guards/delegate-guard.js";
import type { AgentSpec, SubagentSpec } from "./agent-spec.js";

export interface CoordinatorOptions {
  /** Let the coordinator run cheap read-only glance commands (git status, ls, cat ...). @default true */
  glance?: boolean;
  /** Main-thread model. @default the runtime's model */
  model?: string;
  /**
   * Tools the coordinator may call itself besides Agent, TodoWrite, Read and glance Bash, by exact
   * name: `coordinator(name, goal, subagents, { allowTools: ["mcp__tracker__get"] })`. Built-in tools
   * named here are also added to the session's tool list; MCP tools come from their server.
   * @default none
   */
  allowTools?: string[];
}

const KNOWN = { glance: true, model: true, allowTools: true } as const satisfies Record<
  keyof CoordinatorOptions,
  true
>;

/** The tools a coordinator uses itself: it delegates, tracks tasks and reads reports, nothing hands-on. */
export const COORDINATOR_TOOLS = ["Agent", "TodoWrite", "Read"] as const;

/**
 * The session's tool list. The CLI's `tools` option is session-wide: a tool left out of it is
 * "disabled for this session, in subagents as well as here", so the coordinator's list must also hold
 * every tool its subagents use. Keeping the coordinator's hands off them is the delegate guard's job.
 * A subagent without a tool list uses the default set, so then no list is passed at all.
 */
export function sessionTools(
  subagents: Record<string, SubagentSpec>,
  glance: boolean,
  allowTools: readonly string[] = [],
): string[] | undefined {
  const builtIn = allowTools.filter((tool) => !tool.startsWith("mcp__"));
  const own: string[] = [...COORDINATOR_TOOLS, ...(glance ? ["Bash"] : []), ...builtIn];
  const lists = Object.values(subagents).map((spec) => spec.tools);
  if (lists.some((list) => list === undefined)) return undefined;
  return [...new Set([...own, ...lists.flatMap((list) => list ?? [])])];
}

/**
 * A main thread that only delegates. `delegateOnly` is always on: the delegate guard lets the
 * coordinator call only Agent, TodoWrite, Read, ephemeral glance commands (when `glance` is on) and the
 * tools named in `allowTools`; Glob, Grep, WebFetch, Write, any other MCP tool ... are denied on the
 * main thread and stay available to the subagents. The rules (COORDINATOR_RULES) are added by
 * buildOptions in the runtime's locale.
 */
export function coordinator(
  name: string,
  goal: string,
  subagents: Record<string, SubagentSpec>,
  options: CoordinatorOptions = {},
): AgentSpec {
  if (typeof name !== "string" || name.trim() === "")
    throw new ConfigurationError("coordinator name", name, "a non-empty string");
  if (typeof goal !== "string") throw new ConfigurationError("coordinator goal", goal, "a string");
  if (!subagents || typeof subagents !== "object" || Object.keys(subagents).length === 0) {
    throw new ConfigurationError("coordinator subagents", subagents, "an object with at least one subagent");
  }
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError(
      "coordinator options",
      options,
      "an object { glance?, model?, allowTools? }",
    );
  refuseUnknownOptions(options, KNOWN, "coordinator ");
  const glance = options.glance ?? true;
  const allowTools = [...validateMainThreadTools("coordinator allowTools", options.allowTools ?? [])];
  return {
    name,
    instructions: goal,
    tools: sessionTools(subagents, glance, allowTools),
    subagents,
    model: options.model,
    delegateOnly: true,
    glance,
    ...(allowTools.length > 0 ? { mainThreadTools: allowTools } : {}),
    role: "coordinator",
  };
}
