/**
 * How a person's message (`flower say`) looks in a session's transcript, by the id it was sent with:
 * a message that started a turn of its own is a `user` entry with that `uuid`; one folded into a running
 * turn at a boundary is an `attachment` entry of type `queued_command` whose `source_uuid` is that id
 * (CLI 2.1.332). The binary renders either into the conversation it sends on resume; the store's
 * rewrite passes leave both alone (they rewrite tool results, and drop only tool calls with their
 * results and interruption notes).
 */
import type { SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";

/** The id of the person's message an entry carries, or null for any other entry. */
export function messageIdOf(entry: SessionStoreEntry): string | null {
  if (entry.type === "attachment") {
    const attachment = (entry as { attachment?: { type?: unknown; source_uuid?: unknown } }).attachment;
    return attachment?.type === "queued_command" && typeof attachment.source_uuid === "string"
      ? attachment.source_uuid
      : null;
  }
  if (entry.type === "user") {
    const { uuid, message } = entry as { uuid?: unknown; message?: { content?: unknown } };
    // Tool results are user entries too; a message of a person's is text.
    const content = message?.content;
    const text = typeof content === "string" || (Array.isArray(content) && content.every(isText));
    return typeof uuid === "string" && text ? uuid : null;
  }
  return null;
}

function isText(block: unknown): boolean {
  return typeof block === "object" && block !== null && (block as { type?: unknown }).type === "text";
}
