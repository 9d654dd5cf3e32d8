/**
 * The checks the real Messages API makes on a conversation, with its error wording, so a transcript
 * our store rewrote is accepted here only if it would be accepted there.
 */
import { blocksOf, type WireRequestBody } from "./model-request.js";

export interface ValidationOptions {
  /** Reject two user (or assistant) messages in a row. @default true */
  alternation?: boolean;
  /** Reject a message with no content and a text block with no visible text. @default false */
  nonEmpty?: boolean;
}

/**
 * How strictly the kit checks a conversation:
 *
 * - `"anthropic"`: what the Anthropic Messages API rejects. It merges consecutive same-role turns, so
 *   two assistant messages in a row pass.
 * - `"strict"`: the strictest provider flower may be used through. Also rejects consecutive same-role
 *   messages (Amazon Bedrock's Converse API requires alternating roles) and empty messages or
 *   whitespace-only text blocks, with the same API-shaped 400.
 * - an options object: each check chosen; `{}` is the kit's default (alternation checked, as before).
 */
export type ValidationMode = "anthropic" | "strict" | ValidationOptions;

export function isValidationMode(value: unknown): value is ValidationMode {
  return (
    value === "anthropic" ||
    value === "strict" ||
    (typeof value === "object" && value !== null && !Array.isArray(value))
  );
}

function resolveMode(mode: ValidationMode): Required<ValidationOptions> {
  if (mode === "anthropic") return { alternation: false, nonEmpty: false };
  if (mode === "strict") return { alternation: true, nonEmpty: true };
  if (!isValidationMode(mode))
    throw new TypeError(
      `validation must be "anthropic", "strict", an options object or false, got ${JSON.stringify(mode)}`,
    );
  return { alternation: mode.alternation ?? true, nonEmpty: mode.nonEmpty ?? false };
}

/** Returns the API's error message for the first violation, or null when the request is valid. */
export function validateConversation(body: WireRequestBody, mode: ValidationMode = {}): string | null {
  const options = resolveMode(mode);
  if (!body || typeof body !== "object") return "body: expected a JSON object";
  if (typeof body.model !== "string" || body.model === "") return "model: Field required";
  if (!Array.isArray(body.messages)) return "messages: Field required";
  // Role "system" entries come from the CLI's per-turn-control beta and sit outside the turn order.
  const turns = body.messages
    .map((message, index) => ({ message, index }))
    .filter((t) => t.message.role !== "system");
  if (turns.length === 0) return "messages: at least one message is required";
  if (turns[0]!.message.role !== "user") return 'messages: first message must use the "user" role';
  for (const { message, index } of turns) {
    if (message.role !== "user" && message.role !== "assistant") {
      return `messages.${index}.role: Input should be 'user', 'assistant' or 'system'`;
    }
  }
  if (options.nonEmpty) {
    for (const { message, index } of turns) {
      const blocks = blocksOf(message);
      if (blocks.length === 0)
        return `messages.${index}: all messages must have non-empty content except for the optional final assistant message`;
      for (const [j, block] of blocks.entries()) {
        if (block.type === "text" && (block.text ?? "").trim() === "")
          return `messages.${index}.content.${j}.text: text content blocks must contain non-whitespace text`;
      }
    }
  }
  if (options.alternation) {
    for (let t = 1; t < turns.length; t++) {
      if (turns[t]!.message.role === turns[t - 1]!.message.role) {
        const role = turns[t]!.message.role;
        return `messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`;
      }
    }
  }
  const seen = new Set<string>();
  for (let t = 0; t < turns.length; t++) {
    const { message, index } = turns[t]!;
    const blocks = blocksOf(message);
    if (message.role === "assistant") {
      const ids: string[] = [];
      for (const [j, block] of blocks.entries()) {
        if (block.type !== "tool_use") continue;
        if (seen.has(block.id ?? ""))
          return `messages.${index}.content.${j}: \`tool_use\` ids must be unique`;
        seen.add(block.id ?? "");
        ids.push(block.id ?? "");
      }
      if (ids.length === 0) continue;
      const next = turns[t + 1];
      const answered = new Set(
        next && next.message.role === "user"
          ? blocksOf(next.message)
              .filter((b) => b.type === "tool_result")
              .map((b) => b.tool_use_id)
          : [],
      );
      const missing = ids.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return (
          `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ` +
          `${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`
        );
      }
    } else {
      const previous = turns[t - 1];
      const offered = new Set(
        previous && previous.message.role === "assistant"
          ? blocksOf(previous.message)
              .filter((b) => b.type === "tool_use")
              .map((b) => b.id)
          : [],
      );
      const answered = new Set<string>();
      for (const [j, block] of blocks.entries()) {
        if (block.type !== "tool_result") continue;
        const id = block.tool_use_id ?? "";
        if (!offered.has(id) || answered.has(id)) {
          return (
            `messages.${index}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. ` +
            "Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
          );
        }
        answered.add(id);
      }
    }
  }
  return null;
}
