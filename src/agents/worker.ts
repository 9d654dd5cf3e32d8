import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import type { WorkerSpec } from "./agent-spec.js";

export interface WorkerOptions {
  /** Built-in tools the worker may use. @default all tools */
  tools?: string[];
  /** @default "inherit" — workers save context, not model class */
  model?: string;
}

const KNOWN = { tools: true, model: true } as const satisfies Record<keyof WorkerOptions, true>;

/** A worker the coordinator sends hands-on work to. */
export function worker(description: string, instructions: string, options: WorkerOptions = {}): WorkerSpec {
  if (typeof description !== "string" || description.trim() === "") {
    throw new ConfigurationError(
      "worker description",
      description,
      "a non-empty string saying when to use this worker",
    );
  }
  if (typeof instructions !== "string")
    throw new ConfigurationError("worker instructions", instructions, "a string");
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError("worker options", options, "an object { tools?, model? }");
  refuseUnknownOptions(options, KNOWN, "worker ");
  if (options.tools !== undefined && !isStringList(options.tools)) {
    throw new ConfigurationError("worker tools", options.tools, "an array of tool names");
  }
  return { description, instructions, tools: options.tools, model: options.model ?? "inherit" };
}

export function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string" && item !== "");
}
