/**
 * Reading CLI transcript entries, shared by every pass: what a block or an entry is (tool call, tool
 * result, denial, interruption, API-error remnant), how many characters it feeds back, how many turns
 * follow it. Nothing here removes anything; the one rule for removing lives in remove-tool-calls.ts.
 *
 * Copy-on-write: `replaceResultContent` returns the same object when nothing changes and a fresh one
 * otherwise, and never mutates its input (the rows the entries came from must stay as they were).
 */
import type { SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { INTERRUPTED_NOTE } from "../store-notice-text.js";

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

export function isRecord(value: unknown): value is Record<string, unknown> {
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

/**
 * What `toolUses` and `toolResults` answer for an entry without such blocks. Every pass asks this of every
 * entry on every load; one shared answer keeps most of those calls from allocating. Not frozen: V8 gives a
 * frozen array its own element kind, and the loops over these answers would then see two kinds and slow
 * down (measured); the readonly type keeps callers from changing it.
 */
const NONE: readonly never[] = [];

export function toolUses(entry: Entry): readonly ToolUseBlock[] {
  if (entry.type !== "assistant") return NONE;
  const blocks = contentBlocks(entry);
  return blocks === undefined || !blocks.some(isToolUse) ? NONE : blocks.filter(isToolUse);
}

export function toolResults(entry: Entry): readonly ToolResultBlock[] {
  if (entry.type !== "user") return NONE;
  const blocks = contentBlocks(entry);
  return blocks === undefined || !blocks.some(isToolResult) ? NONE : blocks.filter(isToolResult);
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

/**
 * Denied by a permission rule or hook (flower's guards). Recognised only by the harness's structural
 * marker, never by text: texts change, markers do not. The same marker is on a person's "no" given through
 * the SDK's permission callback (`canUseTool`), which the binary tells apart by `holdsPersonsWords` and a
 * `permissionDecision` from `user_…`: that one is a person's decision (see `isPersonsRejection`), not a
 * rule's, and is never pruned.
 */
export function isDenial(entry: Entry): boolean {
  return (
    entry.type === "user" && entry["toolDenialKind"] === "permission-rule" && !holdsPersonsDecision(entry)
  );
}

/** The binary's marks of a person's decision on a denied call (CLI 2.1.332). */
function holdsPersonsDecision(entry: Entry): boolean {
  if (entry["holdsPersonsWords"] === true) return true;
  const decision = entry["permissionDecision"];
  return (
    isRecord(decision) && typeof decision["source"] === "string" && decision["source"].startsWith("user_")
  );
}

/**
 * How every "the user said no" result the CLI writes begins, a person's rejection at the permission
 * prompt and a call stopped by an interruption alike ("The user doesn't want to proceed with this tool
 * use. The tool use was rejected …"; CLI 1.0.98 to 2.1.332, and `toolUseResult: "User rejected tool use"`
 * for both). Text alone cannot tell the two apart; see `isInterruptedResult` for what can.
 */
export const INTERRUPTED_PREFIX = "The user doesn't want to proceed with this tool use";

/**
 * What CLI 2.1.332 appends to that text when the call was stopped while running rather than refused
 * before it ran (its own test for a rejection is: the prefix, without this correction).
 */
export const STOPPED_WHILE_RUNNING = "Correction to the text above: this call was stopped while running";

/** The `toolDenialKind`s the binary gives an aborted call ("those are NOT denials", in its own words). */
const ABORT_KINDS = new Set(["interrupted", "cancelled"]);

/**
 * A tool result left behind by an interruption (or already replaced by the neutral note), told apart
 * from a person's rejection by structure where the transcript has it (CLI 2.1.332, read in the binary
 * and recorded through the SDK):
 * - `toolDenialKind` `interrupted` or `cancelled` (an abort, a turn ended early);
 * - `toolDenialKind: "user-rejected"` without a person's `permissionDecision`: the binary writes that for
 *   a call an interrupt stopped (flower's stop, the handoff switch), mid-run with its "stopped while
 *   running" correction, before the call started without it; a rejection at the prompt carries the
 *   person's decision (`permissionDecision.source: "user_reject"`);
 * - the rejection text with that correction, whatever the marks;
 * - older CLIs' Bash output with `toolUseResult.interrupted: true`.
 * Unmarked, the rejection text alone ("The user doesn't want to proceed … STOP what you are doing and
 * wait for the user …", `toolUseResult: "User rejected tool use"`, the form in every public transcript) is
 * taken for what it says, a person's decision at the permission prompt: it stays as written.
 */
export function isInterruptedResult(entry: Entry, block: ToolResultBlock): boolean {
  if (entry.type !== "user" || isDenial(entry)) return false;
  const text = resultText(block);
  if (text !== undefined && (text === INTERRUPTED_NOTE.zh || text === INTERRUPTED_NOTE.en)) return true;
  if (block.is_error !== true) return false;
  const kind = entry["toolDenialKind"];
  if (typeof kind === "string" && ABORT_KINDS.has(kind)) return true;
  if (kind === "user-rejected" && !holdsPersonsDecision(entry)) return true;
  if (text !== undefined && text.startsWith(INTERRUPTED_PREFIX) && text.includes(STOPPED_WHILE_RUNNING))
    return true;
  const toolUseResult = entry["toolUseResult"];
  return kind === undefined && isRecord(toolUseResult) && toolUseResult["interrupted"] === true;
}

/**
 * An interrupted result whose words tell the model a person refused the call and to stop and wait ("The
 * user doesn't want to …"), or an older CLI's cut-off Bash output: on resume the note replaces it. The
 * binary's own notes for an aborted call ("[Tool call did not complete: … Nothing refused it; …]") are
 * neutral already and stay.
 */
export function misleadsOnResume(entry: Entry, block: ToolResultBlock): boolean {
  if (!isInterruptedResult(entry, block)) return false;
  const text = resultText(block);
  if (text !== undefined && text.startsWith("The user doesn't want to")) return true;
  // No kind: an older CLI's cut-off Bash output (the binary's own notes always carry a kind).
  return entry["toolDenialKind"] === undefined;
}

/**
 * A person's decision on a call: a rejection at the permission prompt (`toolDenialKind: "user-rejected"`
 * with the person's `permissionDecision`; unmarked, the rejection text without the stopped-while-running
 * correction), or a person's "no" through the SDK's permission callback. The model must keep seeing it:
 * no pass replaces, expires, trims or prunes it.
 */
export function isPersonsRejection(entry: Entry, block: ToolResultBlock): boolean {
  if (entry.type !== "user" || block.is_error !== true || isInterruptedResult(entry, block)) return false;
  const kind = entry["toolDenialKind"];
  if (kind === "user-rejected" || kind === "permission-rule") return holdsPersonsDecision(entry);
  if (kind !== undefined) return false;
  const text = resultText(block);
  return (
    (text !== undefined && text.startsWith(INTERRUPTED_PREFIX)) ||
    entry["toolUseResult"] === "User rejected tool use"
  );
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

/**
 * For each entry index, how many model turns follow it in this transcript. A turn is one model response:
 * the assistant entries that share a `message.id` (the CLI writes one entry per content block), synthetic
 * API-error entries excluded. Counted per transcript, so a subagent's turns never age the main thread; with
 * `chain`, only responses on it count (the ones the model will see again, see resumed-chain.ts).
 */
export function turnsAfter(entries: readonly Entry[], chain?: ResumedChain): number[] {
  const counts = new Array<number>(entries.length).fill(0);
  const seen = new Set<string>();
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    counts[index] = seen.size;
    const entry = entries[index];
    if (entry === undefined || entry.type !== "assistant" || isApiErrorRemnant(entry)) continue;
    if (chain !== undefined && !onChain(entry, chain)) continue;
    const message = entry["message"];
    const id =
      isRecord(message) && typeof message["id"] === "string" ? message["id"] : `entry:${entry.uuid ?? index}`;
    seen.add(id);
  }
  return counts;
}

/** The entries the binary sends on resume, by uuid (worked out in resumed-chain.ts). */
export interface ResumedChain {
  has(uuid: string): boolean;
}

/** Whether the binary sends `entry` on resume: its uuid is on the resumed chain. */
export function onChain(entry: Entry, chain: ResumedChain): boolean {
  return typeof entry.uuid === "string" && chain.has(entry.uuid);
}

/** tool_use id → the tool_use block, over the whole transcript. */
export function indexToolUses(entries: readonly Entry[]): Map<string, ToolUseBlock> {
  const uses = new Map<string, ToolUseBlock>();
  for (const entry of entries) for (const use of toolUses(entry)) uses.set(use.id, use);
  return uses;
}
