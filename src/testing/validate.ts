/**
 * The checks the real Messages API makes on a conversation, with its error wording, so a transcript
 * our store rewrote is accepted here only if it would be accepted there.
 */
import { blocksOf, type WireRequestBody } from "./model-request.js";

export interface ValidationOptions {
  /** Reject two user (or assistant) messages in a row. @default true */
  alternation?: boolean;
}

/** Returns the API's error message for the first violation, or null when the request is valid. */
export function validateConversation(body: WireRequestBody, options: ValidationOptions = {}): string | null {
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
  if (options.alternation ?? true) {
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
