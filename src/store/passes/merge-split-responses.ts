/**
 * Restores alternating roles after a removal (remove-tool-calls.ts says why it is needed).
 */
import { isRecord, type Entry } from "./transcript-entries.js";

/** The response an assistant entry belongs to: its `message.id` (the CLI writes one entry per block). */
function responseId(entry: Entry): string | undefined {
  const message = entry["message"];
  return isRecord(message) && typeof message["id"] === "string" ? message["id"] : undefined;
}

/**
 * Restores alternating roles after a removal. Where an assistant entry now follows another assistant
 * entry of a different response with no user entry between them, the later response takes the earlier
 * one's `message.id`, so the CLI sends both as one assistant message: the sentence the model wrote
 * before its denied call, followed by what it did next.
 *
 * Why merge rather than drop the orphaned sentence: it is the model's own reasoning ("the tests need the
 * database; let me start it"), often the only trace of why it did what followed. Dropping it would be
 * simpler and lose exactly the words the handoff and the next turn lean on. Inserting a user message to
 * separate the two would put words in the user's mouth. Merging keeps every word, in order, as the
 * model's; the only cost is that two responses count as one turn for expiry, which is one turn fewer.
 *
 * Works on array order, which is the chain's order in a transcript the CLI wrote (one per file).
 */
export function mergeSplitResponses(entries: Entry[]): Entry[] {
  const renamed = new Map<string, string>();
  /** The response id of the last assistant entry, while no user entry has come after it. */
  let open: string | undefined;
  return entries.map((entry) => {
    if (entry.type === "user" && isRecord(entry["message"])) {
      open = undefined;
      return entry;
    }
    if (entry.type !== "assistant") return entry;
    const id = responseId(entry);
    if (id === undefined) return entry;
    let target = renamed.get(id);
    if (target === undefined && open !== undefined && open !== id) {
      target = open;
      renamed.set(id, target);
    }
    open = target ?? id;
    if (target === undefined) return entry;
    return { ...entry, message: { ...(entry["message"] as Record<string, unknown>), id: target } };
  });
}
