import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import type { SubagentSpec } from "./agent-spec.js";

export interface SubagentOptions {
  /** Built-in tools the subagent may use. @default all tools */
  tools?: string[];
  /** @default "inherit" — subagents save context, not model class */
  model?: string;
}

const KNOWN = { tools: true, model: true } as const satisfies Record<keyof SubagentOptions, true>;

/** A subagent the coordinator sends hands-on work to (the Agent tool's `subagent_type`). */
export function subagent(
  description: string,
  instructions: string,
  options: SubagentOptions = {},
): SubagentSpec {
  if (typeof description !== "string" || description.trim() === "") {
    throw new ConfigurationError(
      "subagent description",
      description,
      "a non-empty string saying when to use this subagent",
    );
  }
  if (typeof instructions !== "string")
    throw new ConfigurationError("subagent instructions", instructions, "a string");
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError("subagent options", options, "an object { tools?, model? }");
  refuseUnknownOptions(options, KNOWN, "subagent ");
  if (options.tools !== undefined && !isStringList(options.tools)) {
    throw new ConfigurationError("subagent tools", options.tools, "an array of tool names");
  }
  return { description, instructions, tools: options.tools, model: options.model ?? "inherit" };
}

export function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string" && item !== "");
}
