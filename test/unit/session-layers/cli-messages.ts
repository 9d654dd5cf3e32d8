/**
 * The API message list the CLI builds from a stored transcript, for checking rewritten history against
 * the strictest provider. How the CLI reads a transcript (facts sheet §4, and what the kit sees on the
 * wire):
 *
 * - it walks `parentUuid` back from the last entry that has a uuid; entries off that chain are not sent;
 * - only `user` and `assistant` entries carry messages (system, attachments and markers are not turns);
 * - it writes one entry per content block, and the entries of one response share `message.id`: an
 *   assistant entry joins the latest earlier assistant message with the same id, looking back past
 *   assistant messages of other responses and past user messages that carry a tool result (a call's
 *   result can be written before the response's next block); a user message without a tool result (a
 *   prompt) ends the search. Assistant entries of different responses stay separate messages, even when
 *   adjacent. Probed on CLI 2.1.332 by resuming hand-built transcripts against the kit: `a, b, a` is
 *   sent as `A(a a) A(b)`; `a | b | a` with tool results between as `A(a a) U A(b) U`; `a | a` across a
 *   prompt as `A(a) U A(a)`; a user message mixing a tool result and text does not end the search;
 * - consecutive user entries are merged into one user message (e.g. `[Request interrupted…]` + prompt),
 *   before the search above looks at them.
 *
 * The result is checked with the kit's own validator in strict mode, the same one the e2e test uses.
 */
import { validateConversation, type WireRequestBody } from "../../../src/testing/index.js";
import type { Entry } from "./transcript-fixtures.js";

export interface CliMessage {
  role: "user" | "assistant";
  content: Array<Record<string, unknown>>;
  /** The response id of an assistant message. */
  id?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The entries the CLI sends, in order: the `parentUuid` chain ending at the last entry with a uuid. */
export function chainOf(entries: readonly Entry[]): Entry[] {
  const byUuid = new Map<string, Entry>();
  for (const entry of entries) if (typeof entry.uuid === "string") byUuid.set(entry.uuid, entry);
  const leaf = entries.filter((entry) => typeof entry.uuid === "string").at(-1);
  const chain: Entry[] = [];
  const seen = new Set<string>();
  let current = leaf;
  while (current !== undefined) {
    const uuid = current.uuid as string;
    if (seen.has(uuid)) throw new Error(`parentUuid cycle at ${uuid}`);
    seen.add(uuid);
    chain.push(current);
    const parent: unknown = current["parentUuid"];
    if (parent === null || parent === undefined) break;
    current = byUuid.get(parent as string);
    if (current === undefined) throw new Error(`parentUuid ${JSON.stringify(parent)} names no entry`);
  }
  const missing = entries.filter(
    (entry) =>
      typeof entry.uuid === "string" &&
      !seen.has(entry.uuid) &&
      (entry.type === "user" || entry.type === "assistant"),
  );
  if (missing.length > 0)
    throw new Error(`message entries off the chain: ${missing.map((entry) => entry.uuid).join(", ")}`);
  return chain.reverse();
}

function blocksOf(entry: Entry): Array<Record<string, unknown>> {
  const message = entry["message"];
  if (!isRecord(message)) return [];
  const content = message["content"];
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

function carriesToolResult(message: CliMessage): boolean {
  return message.content.some((block) => block["type"] === "tool_result");
}

/** The messages the CLI would send for this transcript (before its new prompt). */
export function cliMessages(entries: readonly Entry[]): CliMessage[] {
  const messages: CliMessage[] = [];
  for (const entry of chainOf(entries)) {
    if ((entry.type !== "user" && entry.type !== "assistant") || !isRecord(entry["message"])) continue;
    const blocks = blocksOf(entry);
    if (entry.type === "user") {
      const last = messages.at(-1);
      if (last?.role === "user") last.content.push(...blocks);
      else messages.push({ role: "user", content: [...blocks] });
      continue;
    }
    const message = entry["message"];
    const id = typeof message["id"] === "string" ? message["id"] : undefined;
    let merged = false;
    for (let index = messages.length - 1; index >= 0 && id !== undefined; index -= 1) {
      const candidate = messages[index]!;
      if (candidate.role === "assistant" && candidate.id === id) {
        candidate.content.push(...blocks);
        merged = true;
        break;
      }
      if (candidate.role === "user" && !carriesToolResult(candidate)) break;
    }
    if (!merged) messages.push({ role: "assistant", content: [...blocks], ...(id ? { id } : {}) });
  }
  return messages;
}

/**
 * Null when the transcript, as the CLI will send it, satisfies the strictest provider: starts with the
 * user, alternates roles, and pairs every tool_use with a tool_result in the next message (and nothing
 * else). Otherwise the provider's error message, with the roles for context.
 */
export function strictViolation(entries: readonly Entry[]): string | null {
  let messages: CliMessage[];
  try {
    messages = cliMessages(entries);
  } catch (error) {
    return (error as Error).message;
  }
  if (messages.length === 0) return null;
  const body: WireRequestBody = {
    model: "claude-opus-5-5",
    messages: messages.map(({ role, content }) => ({ role, content })) as WireRequestBody["messages"],
  };
  const error = validateConversation(body, "strict");
  return error === null ? null : `${error} (roles: ${messages.map((m) => m.role[0]).join("")})`;
}
