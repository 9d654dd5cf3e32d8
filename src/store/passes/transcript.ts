/**
 * Reading and rewriting CLI transcript entries, shared by every pass. The one rule that lives here is the
 * red line (SPEC C6): a tool_use and its tool_result leave together, other calls of the same assistant
 * message stay, and the `parentUuid` chain (and `sourceToolAssistantUUID`) is re-linked around whatever
 * was removed. Break it and the resumed request fails with "tool_use ids were found without tool_result
 * blocks" or the CLI walks a chain that ends early and silently drops history.
 *
 * Everything is copy-on-write: an entry that a pass does not change is returned as the same object, a
 * changed one is a fresh object, and the input array and its entries are never mutated (the rows they
 * came from must stay as they were).
 */
import type { SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { INTERRUPTED_NOTE } from "../text.js";

export type Entry = SessionStoreEntry;

export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input?: unknown;
}

export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content?: unknown;
  is_error?: boolean;
}

/** The fields that point at another entry's uuid and must follow it when it is removed. */
const LINK_FIELDS = ["parentUuid", "logicalParentUuid"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `message.content` when it is a block list; a plain-string content holds no tool blocks. */
export function contentBlocks(entry: Entry): readonly unknown[] | undefined {
  const message = entry["message"];
  if (!isRecord(message)) return undefined;
  const content = message["content"];
  return Array.isArray(content) ? content : undefined;
}

export function isToolUse(block: unknown): block is ToolUseBlock {
  return isRecord(block) && block["type"] === "tool_use" && typeof block["id"] === "string";
}

export function isToolResult(block: unknown): block is ToolResultBlock {
  return isRecord(block) && block["type"] === "tool_result" && typeof block["tool_use_id"] === "string";
}

export function toolUses(entry: Entry): ToolUseBlock[] {
  if (entry.type !== "assistant") return [];
  return (contentBlocks(entry) ?? []).filter(isToolUse);
}

export function toolResults(entry: Entry): ToolResultBlock[] {
  if (entry.type !== "user") return [];
  return (contentBlocks(entry) ?? []).filter(isToolResult);
}

/** The text of a tool result when it is only text (a string or text blocks); undefined when it holds images or other blocks. */
export function resultText(block: ToolResultBlock): string | undefined {
  const { content } = block;
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  let text = "";
  for (const part of content) {
    if (!isRecord(part) || part["type"] !== "text" || typeof part["text"] !== "string") return undefined;
    text += part["text"];
  }
  return text;
}

/** Characters a block puts into the model's context (text, tool result text, tool input JSON); images count 0. */
export function blockChars(block: unknown): number {
  if (typeof block === "string") return block.length;
  if (!isRecord(block)) return 0;
  switch (block["type"]) {
    case "text":
      return typeof block["text"] === "string" ? block["text"].length : 0;
    case "thinking":
      return typeof block["thinking"] === "string" ? block["thinking"].length : 0;
    case "tool_use":
      return JSON.stringify(block["input"] ?? {}).length;
    case "tool_result": {
      const content = block["content"];
      if (typeof content === "string") return content.length;
      if (Array.isArray(content)) return content.reduce((sum: number, part) => sum + blockChars(part), 0);
      return 0;
    }
    default:
      return 0;
  }
}

export function entryChars(entry: Entry): number {
  const message = entry["message"];
  if (!isRecord(message)) return 0;
  const content = message["content"];
  if (typeof content === "string") return content.length;
  return Array.isArray(content) ? content.reduce((sum: number, block) => sum + blockChars(block), 0) : 0;
}

/** Denied by a permission rule or hook. Recognised only by the harness's structural marker: texts change, markers do not. */
export function isDenial(entry: Entry): boolean {
  return entry.type === "user" && entry["toolDenialKind"] === "permission-rule";
}

/**
 * The CLI's text for a tool call stopped while running ("The user doesn't want to proceed with this tool
 * use. … this call was stopped while running"). There is no structural marker for it in the transcript
 * (facts §6), so the CLI's fixed prefix is used, together with `toolUseResult.interrupted` when present.
 */
const INTERRUPTED_PREFIX = "The user doesn't want to proceed with this tool use";

/** A tool result left behind by an interruption (or already replaced by the neutral note). Denials are never interruptions. */
export function isInterruptedResult(entry: Entry, block: ToolResultBlock): boolean {
  if (entry.type !== "user" || isDenial(entry)) return false;
  const text = resultText(block);
  if (text !== undefined && (text === INTERRUPTED_NOTE.zh || text === INTERRUPTED_NOTE.en)) return true;
  if (block.is_error !== true) return false;
  const toolUseResult = entry["toolUseResult"];
  if (isRecord(toolUseResult) && toolUseResult["interrupted"] === true) return true;
  return text !== undefined && text.startsWith(INTERRUPTED_PREFIX);
}

/** Synthetic entries the CLI writes while retrying a failed or dropped API request. */
export function isApiErrorRemnant(entry: Entry): boolean {
  if (entry.type === "assistant") return entry["isApiErrorMessage"] === true;
  return entry.type === "system" && entry["subtype"] === "api_error";
}

/** A copy of `entry` whose tool_result blocks named in `replacements` get new content; `entry` itself when none match. */
export function replaceResultContent(entry: Entry, replacements: ReadonlyMap<string, string>): Entry {
  const blocks = contentBlocks(entry);
  if (blocks === undefined || entry.type !== "user") return entry;
  let changed = false;
  const next = blocks.map((block) => {
    if (!isToolResult(block)) return block;
    const content = replacements.get(block.tool_use_id);
    if (content === undefined) return block;
    changed = true;
    return { ...block, content };
  });
  if (!changed) return entry;
  return { ...entry, message: { ...(entry["message"] as Record<string, unknown>), content: next } };
}

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

  entries.forEach((entry, index) => {
    if (dropIndexes.has(index)) {
      drop(entry, entryChars(entry));
      return;
    }
    const blocks = contentBlocks(entry);
    if (blocks === undefined || ids.size === 0 || (entry.type !== "user" && entry.type !== "assistant")) {
      kept.push(entry);
      return;
    }
    const hit = (block: unknown): boolean =>
      (isToolUse(block) && ids.has(block.id)) || (isToolResult(block) && ids.has(block.tool_use_id));
    if (!blocks.some(hit)) {
      kept.push(entry);
      return;
    }
    const remaining = blocks.filter((block) => !hit(block));
    const chars = blocks.filter(hit).reduce((sum: number, block) => sum + blockChars(block), 0);
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

  return {
    entries: removedParent.size === 0 ? kept : relink(kept, removedParent),
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
        if (typeof entry.uuid !== "string") continue;
        for (const use of toolUses(entry)) owners.set(use.id, entry.uuid);
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

/**
 * For each entry index, how many model turns follow it in this transcript. A turn is one model response:
 * the assistant entries that share a `message.id` (the CLI writes one entry per content block), synthetic
 * API-error entries excluded. Counted per transcript, so a subagent's turns never age the main thread.
 */
export function turnsAfter(entries: readonly Entry[]): number[] {
  const counts = new Array<number>(entries.length).fill(0);
  const seen = new Set<string>();
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    counts[index] = seen.size;
    const entry = entries[index];
    if (entry === undefined || entry.type !== "assistant" || isApiErrorRemnant(entry)) continue;
    const message = entry["message"];
    const id =
      isRecord(message) && typeof message["id"] === "string" ? message["id"] : `entry:${entry.uuid ?? index}`;
    seen.add(id);
  }
  return counts;
}

/** tool_use id → the tool_use block, over the whole transcript. */
export function indexToolUses(entries: readonly Entry[]): Map<string, ToolUseBlock> {
  const uses = new Map<string, ToolUseBlock>();
  for (const entry of entries) for (const use of toolUses(entry)) uses.set(use.id, use);
  return uses;
}
