/**
 * The one rule for taking things out of a CLI transcript, shared by every pass that removes:
 * a tool_use and its tool_result leave together, other calls of the same assistant message stay, and the
 * `parentUuid` chain (and `sourceToolAssistantUUID`) is re-linked around whatever was removed. Break it
 * and the resumed request fails with "tool_use ids were found without tool_result blocks", or the CLI
 * walks a chain that ends early and silently drops history.
 *
 * A removal must also leave roles alternating. The CLI sends the entries of one response (one
 * `message.id`) as one assistant message and separate responses as separate messages; consecutive user
 * entries it merges itself. A model that wrote a sentence and then a call that was denied leaves, once
 * the call and its result are gone, its sentence directly before its next response: two assistant
 * messages in a row, which the Anthropic API merges but Amazon Bedrock (and some gateways) reject. See
 * merge-split-responses.ts for how that is repaired without losing the sentence.
 *
 * Copy-on-write: an entry that is not changed is returned as the same object, a changed one is a fresh
 * object, and the input array and its entries are never mutated (the rows they came from must stay).
 */
import { mergeSplitResponses } from "./merge-split-responses.js";
import {
  blockChars,
  contentBlocks,
  entryChars,
  isToolResult,
  isToolUse,
  toolResults,
  type Entry,
} from "./transcript-entries.js";

/** The fields that point at another entry's uuid and must follow it when it is removed. */
const LINK_FIELDS = ["parentUuid", "logicalParentUuid"] as const;

export interface RemovalResult {
  entries: Entry[];
  /** Tool call ids whose tool_use and tool_result are both gone. */
  removedToolIds: Set<string>;
  /** Entries dropped as a whole. */
  removedEntries: number;
  /** Characters of message content no longer fed back. */
  charsRemoved: number;
}

/**
 * Removes tool calls (by id) and whole entries (by index), keeping the red line: every tool_use and
 * tool_result block carrying a removed id goes, wherever it sits; a dropped entry takes the calls it
 * holds with it; an entry left with no content goes too; sibling blocks stay; the chain is re-linked.
 */
export function removeToolCalls(
  entries: readonly Entry[],
  toolIds: Iterable<string>,
  dropIndexes: ReadonlySet<number> = new Set(),
): RemovalResult {
  const ids = new Set(toolIds);
  for (const index of dropIndexes) {
    const entry = entries[index];
    if (entry === undefined) continue;
    for (const block of contentBlocks(entry) ?? []) {
      if (isToolUse(block)) ids.add(block.id);
      else if (isToolResult(block)) ids.add(block.tool_use_id);
    }
  }

  const kept: Entry[] = [];
  /** uuid of a removed entry → the uuid it pointed at, to re-link its children. */
  const removedParent = new Map<string, string | null>();
  let removedEntries = 0;
  let charsRemoved = 0;
  const drop = (entry: Entry, chars: number): void => {
    removedEntries += 1;
    charsRemoved += chars;
    if (typeof entry.uuid === "string") {
      const parent = entry["parentUuid"];
      removedParent.set(entry.uuid, typeof parent === "string" ? parent : null);
    }
  };

  // Whether an entry was removed or rewritten: without a change there is nothing to re-link or merge.
  let changed = false;
  const hit = (block: unknown): boolean =>
    (isToolUse(block) && ids.has(block.id)) || (isToolResult(block) && ids.has(block.tool_use_id));
  entries.forEach((entry, index) => {
    if (dropIndexes.has(index)) {
      changed = true;
      drop(entry, entryChars(entry));
      return;
    }
    const blocks = contentBlocks(entry);
    if (
      blocks === undefined ||
      ids.size === 0 ||
      (entry.type !== "user" && entry.type !== "assistant") ||
      !blocks.some(hit)
    ) {
      kept.push(entry);
      return;
    }
    changed = true;
    const remaining: unknown[] = [];
    let chars = 0;
    for (const block of blocks) {
      if (hit(block)) chars += blockChars(block);
      else remaining.push(block);
    }
    if (remaining.length === 0) {
      drop(entry, chars);
      return;
    }
    charsRemoved += chars;
    kept.push({
      ...entry,
      message: { ...(entry["message"] as Record<string, unknown>), content: remaining },
    });
  });
  // forEach skips the holes of a sparse array: the list is then shorter, which is a change too.
  changed ||= kept.length !== entries.length;

  const linked = removedParent.size === 0 ? kept : relink(kept, removedParent);
  return {
    entries: changed ? mergeSplitResponses(linked) : linked,
    removedToolIds: ids,
    removedEntries,
    charsRemoved,
  };
}

/**
 * Points every link that named a removed entry at that entry's nearest surviving ancestor, and every
 * `sourceToolAssistantUUID` at the entry that now holds the tool_use it answers.
 */
function relink(entries: Entry[], removedParent: ReadonlyMap<string, string | null>): Entry[] {
  const resolved = new Map<string, string | null>();
  const resolve = (uuid: string): string | null => {
    const cached = resolved.get(uuid);
    if (cached !== undefined) return cached;
    const seen: string[] = [];
    let current: string | null = uuid;
    // A cycle in a corrupt transcript must not hang the load: give up on it and cut the link.
    while (current !== null && removedParent.has(current) && !seen.includes(current)) {
      seen.push(current);
      current = removedParent.get(current) ?? null;
    }
    if (current !== null && removedParent.has(current)) current = null;
    for (const step of seen) resolved.set(step, current);
    return current;
  };

  let owners: Map<string, string> | undefined;
  const ownerOf = (toolUseId: string): string | undefined => {
    if (owners === undefined) {
      owners = new Map();
      for (const entry of entries) {
        if (typeof entry.uuid !== "string" || entry.type !== "assistant") continue;
        // The blocks in place (toolUses would copy them): this walks every entry of the transcript.
        for (const block of contentBlocks(entry) ?? [])
          if (isToolUse(block)) owners.set(block.id, entry.uuid);
      }
    }
    return owners.get(toolUseId);
  };

  return entries.map((entry) => {
    let next: Entry | undefined;
    for (const field of LINK_FIELDS) {
      const target = entry[field];
      if (typeof target === "string" && removedParent.has(target)) {
        next ??= { ...entry };
        next[field] = resolve(target);
      }
    }
    const source = entry["sourceToolAssistantUUID"];
    if (typeof source === "string" && removedParent.has(source)) {
      next ??= { ...entry };
      const first = toolResults(entry)[0];
      next["sourceToolAssistantUUID"] = (first && ownerOf(first.tool_use_id)) ?? resolve(source);
    }
    return next ?? entry;
  });
}
