/**
 * The agent that writes a declared document: read-only in the workspace. It may look (Read, Glob, Grep
 * and glance commands) but not change anything, and it has no tool to ask the user (AskUserQuestion is
 * not in its list): what it cannot decide goes into the document (assumptions, open questions), where a
 * person reads it before the next step.
 */
import type { AgentSpec } from "../agents/agent-spec.js";
import { documentInstructions } from "../documents/instructions.js";
import type { DocumentSpec } from "../documents/document.js";
import { READ_ONLY_TOOLS, readOnlyGuard } from "../guards/read-only-guard.js";
import type { Locale } from "../locale/locale.js";
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";

export interface DocumentAgentOptions {
  /** @default the spec's kind */
  name?: string;
  /** @default the runtime's model */
  model?: string;
  /** More instructions before the document's own (your project's conventions). */
  instructions?: string;
}

/** A read-only agent whose final answer is the document `spec` declares, in `locale`. */
export function documentAgent(
  spec: DocumentSpec,
  locale: Locale,
  options: DocumentAgentOptions = {},
): AgentSpec {
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError(
      "documentAgent options",
      options,
      "an object { name?, model?, instructions? }",
    );
  refuseUnknownOptions(
    options,
    { name: true, model: true, instructions: true } satisfies Record<keyof DocumentAgentOptions, true>,
    "documentAgent ",
  );
  const instructions = [options.instructions ?? "", documentInstructions(spec, locale)]
    .filter((part) => part.trim() !== "")
    .join("\n\n");
  return {
    name: options.name ?? spec.kind,
    instructions,
    tools: [...READ_ONLY_TOOLS],
    allowedTools: [...READ_ONLY_TOOLS],
    hooks: { PreToolUse: [readOnlyGuard(locale)] },
    role: "agent",
    ...(options.model ? { model: options.model } : {}),
  };
}
