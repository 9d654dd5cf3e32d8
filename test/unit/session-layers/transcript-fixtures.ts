/**
 * Builds CLI transcript entries in the shapes recorded in docs/claude-agent-sdk-facts.md §4 and read from
 * the bundled binary (CLI 2.1.332): one content block per assistant entry (sharing `message.id`), one
 * tool_result per user entry with `sourceToolAssistantUUID`, denials with `toolDenialKind:
 * "permission-rule"`, a person's rejection and an interrupted call with the binary's texts, synthetic
 * API-error assistants and `system/api_error` entries, uuid-less markers, and the shapes a transcript file
 * holds beyond the chain the binary resumes: a compaction boundary, an abandoned branch, an inline sidechain.
 */
import type { SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";

export type Entry = SessionStoreEntry;

/**
 * - `denied`: flower's guard denied it (a hook: `toolDenialKind: "permission-rule"`).
 * - `interrupted`: an interrupt stopped it while it ran (CLI 2.1.332, recorded through the SDK).
 * - `rejected`: a person said no at the CLI's permission prompt, in the shape every public transcript
 *   has (CLI 1.0.98 to 2.1.39: no `toolDenialKind`).
 * - `refused`: a person said no through the SDK's permission callback (CLI 2.1.332, recorded: the
 *   same marker as a rule's denial, with `holdsPersonsWords`).
 */
export type ResultKind = "ok" | "denied" | "interrupted" | "rejected" | "refused";

export interface CallSpec {
  name: string;
  input: Record<string, unknown>;
  result: ResultKind;
  /** Result text for `ok`. */
  output?: string;
}

/** The CLI's rejection text (its `REJECT_MESSAGE`), byte for byte from the bundled binary. */
export const REJECTED_TEXT =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

/** What CLI 2.1.332 wrote for a Bash call an interrupt stopped mid-run (recorded through the SDK). */
export const INTERRUPTED_TEXT = `${REJECTED_TEXT} Correction to the text above: this call was stopped while running, not refused before it ran. It may have run in part or in full, and its changes may have been written. No permission prompt was involved. Work it started elsewhere (a remote command, a background process) may still be running, so check before starting the same work again. The instruction to stop and wait still stands.`;

/** A person's words through the SDK's permission callback. */
export const REFUSED_TEXT = "The person said no: do not create files.";

export class TranscriptBuilder {
  readonly entries: Entry[] = [];
  #last: string | null = null;
  #count = 0;
  #messages = 0;
  readonly #prefix: string;
  readonly #sidechain: boolean;
  readonly #agentId: string | undefined;

  constructor(options: { prefix?: string; agentId?: string } = {}) {
    this.#prefix = options.prefix ?? "m";
    this.#agentId = options.agentId;
    this.#sidechain = options.agentId !== undefined;
  }

  #base(type: string): Entry {
    this.#count += 1;
    const uuid = `${this.#prefix}-${this.#count}`;
    const entry: Entry = {
      type,
      uuid,
      parentUuid: this.#last,
      isSidechain: this.#sidechain,
      sessionId: "s-1",
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, this.#count)).toISOString(),
      cwd: "/repo",
      version: "2.1.332",
      entrypoint: "sdk-ts",
      userType: "external",
    };
    if (this.#agentId !== undefined) entry["agentId"] = this.#agentId;
    this.#last = uuid;
    return entry;
  }

  prompt(text: string): this {
    const entry = this.#base("user");
    entry["message"] = { role: "user", content: [{ type: "text", text }] };
    entry["promptSource"] = "sdk";
    this.entries.push(entry);
    return this;
  }

  /** One model response: optional text, then tool calls, each with its result, in the CLI's layout. */
  response(text: string | null, calls: CallSpec[] = [], options: { multiBlock?: boolean } = {}): string[] {
    this.#messages += 1;
    const messageId = `msg_${this.#prefix}_${this.#messages}`;
    const ids = calls.map((_, index) => `toolu_${this.#prefix}_${this.#messages}_${index}`);
    const blocks: unknown[] = [];
    if (text !== null) blocks.push({ type: "text", text });
    calls.forEach((call, index) =>
      blocks.push({ type: "tool_use", id: ids[index], name: call.name, input: call.input }),
    );
    const owners: string[] = [];
    const assistant = (content: unknown[]): void => {
      const entry = this.#base("assistant");
      entry["requestId"] = `req_${messageId}`;
      entry["message"] = {
        id: messageId,
        model: "claude-opus-5-5",
        role: "assistant",
        type: "message",
        content,
        stop_reason: calls.length > 0 ? "tool_use" : "end_turn",
        usage: {
          input_tokens: 100,
          cache_creation_input_tokens: 300,
          cache_read_input_tokens: 2000,
          output_tokens: 7,
        },
      };
      this.entries.push(entry);
      owners.push(entry.uuid as string);
    };
    if (options.multiBlock) assistant(blocks);
    else for (const block of blocks) assistant([block]);
    const ownerOf = (index: number): string =>
      (options.multiBlock ? owners[0] : owners[index + (text === null ? 0 : 1)]) as string;

    if (calls.length === 0) return ids;
    if (options.multiBlock) {
      const entry = this.#base("user");
      entry["sourceToolAssistantUUID"] = ownerOf(0);
      entry["message"] = {
        role: "user",
        content: calls.map((call, index) => resultBlock(call, ids[index] as string)),
      };
      // The marker is per entry: a multi-result entry carries it when all its calls had that outcome.
      if (calls.every((call) => call.result === "denied")) entry["toolDenialKind"] = "permission-rule";
      if (calls.every((call) => call.result === "interrupted")) entry["toolDenialKind"] = "user-rejected";
      if (calls.every((call) => call.result === "refused")) {
        entry["toolDenialKind"] = "permission-rule";
        entry["holdsPersonsWords"] = true;
      }
      this.entries.push(entry);
    } else {
      calls.forEach((call, index) => this.#result(call, ids[index] as string, ownerOf(index)));
    }
    if (calls.some((call) => call.result === "interrupted")) {
      const entry = this.#base("user");
      entry["message"] = {
        role: "user",
        content: [{ type: "text", text: "[Request interrupted by user for tool use]" }],
      };
      this.entries.push(entry);
    }
    return ids;
  }

  #result(call: CallSpec, id: string, owner: string): void {
    const entry = this.#base("user");
    entry["sourceToolAssistantUUID"] = owner;
    entry["message"] = { role: "user", content: [resultBlock(call, id)] };
    if (call.result === "denied") {
      entry["toolUseResult"] = "Error: PreToolUse:Bash hook error: POLICY-DENIED-XYZ";
      entry["toolDenialKind"] = "permission-rule";
      entry["permissionDecision"] = {
        decision: "reject",
        source: "hook",
        reasonType: "hook",
        reasonCode: "hook:PreToolUse",
      };
    } else if (call.result === "interrupted") {
      entry["toolUseResult"] = "User rejected tool use";
      entry["toolDenialKind"] = "user-rejected";
    } else if (call.result === "rejected") {
      entry["toolUseResult"] = "User rejected tool use";
    } else if (call.result === "refused") {
      entry["toolUseResult"] = `Error: ${REFUSED_TEXT}`;
      entry["toolDenialKind"] = "permission-rule";
      entry["holdsPersonsWords"] = true;
      entry["permissionDecision"] = { decision: "reject", source: "user_reject", reasonCode: "unknown" };
    } else {
      entry["toolUseResult"] = {
        stdout: call.output ?? "",
        stderr: "",
        interrupted: false,
        isImage: false,
        noOutputExpected: false,
      };
      entry["permissionDecision"] = { decision: "accept", source: "config", reasonType: "mode" };
    }
    this.entries.push(entry);
  }

  /** The uuid the next entry hangs from. */
  get last(): string | null {
    return this.#last;
  }

  /**
   * Goes back to `uuid`: the next entry hangs from it, and what was written after it is an abandoned
   * branch (a rewind, an edited prompt: the CLI appends the new branch to the same file).
   */
  branchFrom(uuid: string): this {
    this.#last = uuid;
    return this;
  }

  /**
   * A compaction as CLI 2.1.332 writes it (recorded through `/compact`): a `compact_boundary` with
   * `parentUuid: null` (the old leaf only as `logicalParentUuid`), then the summary as a user entry; what
   * follows hangs from the summary. `preserve` names earlier entries kept after the summary (one chain,
   * oldest first), in the binary's `preservedSegment`/`preservedMessages` shape.
   */
  compactBoundary(preserve: string[] = []): this {
    const logicalParent = this.#last;
    this.#last = null;
    const boundary = this.#base("system");
    boundary["parentUuid"] = null;
    boundary["logicalParentUuid"] = logicalParent;
    boundary["subtype"] = "compact_boundary";
    boundary["content"] = "Conversation compacted";
    boundary["isMeta"] = false;
    boundary["level"] = "info";
    const summaryUuid = `${this.#prefix}-${this.#count + 1}`;
    boundary["compactMetadata"] = {
      trigger: "manual",
      preTokens: 10419,
      ...(preserve.length > 0 && {
        preservedSegment: {
          headUuid: preserve[0],
          anchorUuid: summaryUuid,
          tailUuid: preserve.at(-1),
        },
        preservedMessages: { anchorUuid: summaryUuid, uuids: preserve },
      }),
    };
    this.entries.push(boundary);
    const summary = this.#base("user");
    summary["isCompactSummary"] = true;
    summary["message"] = {
      role: "user",
      content:
        "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\nEarlier work was summarised.",
    };
    this.entries.push(summary);
    return this;
  }

  /**
   * A subagent's transcript written into this file between two entries, as CLIs before subagent files
   * did (`isSidechain: true`, its own chain from `parentUuid: null`). The main chain goes on from where it was.
   */
  inlineSidechain(sidechain: TranscriptBuilder): this {
    this.entries.push(...sidechain.entries);
    return this;
  }

  /**
   * The CLI's checkpoint after a turn (CLI 2.1.332): `last-prompt` naming the leaf to resume from; a
   * rewind writes one with `explicit: true` naming where it went back to.
   */
  checkpoint(leafUuid: string | null = this.#last, options: { explicit?: boolean } = {}): this {
    this.entries.push({
      type: "last-prompt",
      lastPrompt: "task",
      leafUuid,
      ...(options.explicit && { explicit: true }),
      sessionId: "s-1",
    });
    return this;
  }

  /** A retry: one `system/api_error` entry (in the chain, like the CLI writes it). */
  apiRetry(attempt: number): this {
    const entry = this.#base("system");
    entry["subtype"] = "api_error";
    entry["level"] = "error";
    entry["error"] = { status: 529, type: "overloaded_error" };
    entry["retryInMs"] = 530 * attempt;
    entry["retryAttempt"] = attempt;
    entry["maxRetries"] = 2;
    this.entries.push(entry);
    return this;
  }

  /** The synthetic assistant the CLI writes when retries ran out. */
  apiErrorMessage(): this {
    const entry = this.#base("assistant");
    entry["isApiErrorMessage"] = true;
    entry["error"] = "server_error";
    entry["apiErrorStatus"] = null;
    entry["apiError"] = "connection_failed";
    entry["message"] = {
      id: `synthetic-${this.#count}`,
      model: "<synthetic>",
      role: "assistant",
      content: [
        {
          type: "text",
          text: "API Error: Connection dropped (ECONNRESET). Check the gateway set in ANTHROPIC_BASE_URL, then try again.",
        },
      ],
      stop_reason: "stop_sequence",
    };
    this.entries.push(entry);
    return this;
  }

  /** An entry without uuid that is not part of the chain. */
  marker(type: "cost-state" | "last-prompt" | "mode", value: unknown): this {
    if (type === "cost-state") this.entries.push({ type, totalCostUSD: value, modelUsage: {} });
    else if (type === "last-prompt") this.entries.push({ type, lastPrompt: value, sessionId: "s-1" });
    else this.entries.push({ type, mode: value, sessionId: "s-1" });
    return this;
  }
}

function resultBlock(call: CallSpec, id: string): Record<string, unknown> {
  if (call.result === "denied")
    return {
      type: "tool_result",
      content: "PreToolUse:Bash hook error: POLICY-DENIED-XYZ",
      is_error: true,
      tool_use_id: id,
    };
  if (call.result === "interrupted")
    return { type: "tool_result", content: INTERRUPTED_TEXT, is_error: true, tool_use_id: id };
  if (call.result === "rejected")
    return { type: "tool_result", content: REJECTED_TEXT, is_error: true, tool_use_id: id };
  if (call.result === "refused")
    return { type: "tool_result", content: REFUSED_TEXT, is_error: true, tool_use_id: id };
  return { tool_use_id: id, type: "tool_result", content: call.output ?? "", is_error: false };
}

export const bash = (command: string, output = "ok", result: ResultKind = "ok"): CallSpec => ({
  name: "Bash",
  input: { command, description: "run" },
  result,
  output,
});

export const read = (path: string, output: string, result: ResultKind = "ok"): CallSpec => ({
  name: "Read",
  input: { file_path: path },
  result,
  output,
});

/** The test glance table: independent of the real one's details. */
export const testIsEphemeral = (command: string): boolean =>
  command.startsWith("git status") || command === "ls" || command.startsWith("cat ");

// ---------------------------------------------------------------------------------------------------
// Checks shared by the unit and property tests.

type Message = { role: "user" | "assistant"; toolUses: string[]; toolResults: string[]; entries: Entry[] };

function blocksOf(entry: Entry): unknown[] {
  const message = entry["message"] as { content?: unknown } | undefined;
  return Array.isArray(message?.content) ? message.content : [];
}

export function toolUseIds(entry: Entry): string[] {
  if (entry.type !== "assistant") return [];
  return blocksOf(entry).flatMap((block) => {
    const b = block as { type?: string; id?: string };
    return b.type === "tool_use" && typeof b.id === "string" ? [b.id] : [];
  });
}

export function toolResultIds(entry: Entry): string[] {
  if (entry.type !== "user") return [];
  return blocksOf(entry).flatMap((block) => {
    const b = block as { type?: string; tool_use_id?: string };
    return b.type === "tool_result" && typeof b.tool_use_id === "string" ? [b.tool_use_id] : [];
  });
}

export function resultBlockById(
  entries: readonly Entry[],
  id: string,
): { entry: Entry; block: Record<string, unknown> } | undefined {
  for (const entry of entries) {
    for (const block of blocksOf(entry)) {
      const b = block as Record<string, unknown>;
      if (b["type"] === "tool_result" && b["tool_use_id"] === id) return { entry, block: b };
    }
  }
  return undefined;
}

/**
 * What the CLI sends: walk `parentUuid` back from the last message entry, then merge consecutive entries
 * of the same role into one API message. Throws when the chain is broken or misses a message entry.
 */
export function apiMessages(entries: readonly Entry[]): Message[] {
  const byUuid = new Map<string, Entry>();
  for (const entry of entries) if (typeof entry.uuid === "string") byUuid.set(entry.uuid, entry);
  const chained = entries.filter((entry) => typeof entry.uuid === "string");
  const leaf = chained.at(-1);
  if (leaf === undefined) return [];
  const chain: Entry[] = [];
  const seen = new Set<string>();
  let current: Entry | undefined = leaf;
  while (current !== undefined) {
    if (seen.has(current.uuid as string)) throw new Error(`cycle at ${current.uuid}`);
    seen.add(current.uuid as string);
    chain.push(current);
    const parent: unknown = current["parentUuid"];
    if (parent === null || parent === undefined) break;
    current = byUuid.get(parent as string);
    if (current === undefined) throw new Error(`parentUuid ${JSON.stringify(parent)} points to no entry`);
  }
  chain.reverse();
  const missing = chained.filter((entry) => !seen.has(entry.uuid as string));
  if (missing.length > 0)
    throw new Error(`entries off the chain: ${missing.map((entry) => entry.uuid).join(", ")}`);

  const messages: Message[] = [];
  for (const entry of chain) {
    if (entry.type !== "user" && entry.type !== "assistant") continue;
    const role = entry.type;
    const last = messages.at(-1);
    const target: Message =
      last && last.role === role ? last : { role, toolUses: [], toolResults: [], entries: [] };
    if (target !== last) messages.push(target);
    target.toolUses.push(...toolUseIds(entry));
    target.toolResults.push(...toolResultIds(entry));
    target.entries.push(entry);
  }
  return messages;
}

/** The API's rule: every tool_use is answered exactly once in the next user message, and nothing else is. */
export function assertPaired(entries: readonly Entry[]): void {
  const messages = apiMessages(entries);
  messages.forEach((message, index) => {
    if (message.role === "assistant" && message.toolUses.length > 0) {
      const next = messages[index + 1];
      if (next === undefined) throw new Error(`tool_use ${message.toolUses.join(",")} is never answered`);
      const results = [...next.toolResults].sort();
      const uses = [...message.toolUses].sort();
      if (JSON.stringify(results) !== JSON.stringify(uses))
        throw new Error(`tool_use [${uses.join(",")}] answered by [${results.join(",")}]`);
    }
    if (message.role === "user" && message.toolResults.length > 0) {
      const previous = messages[index - 1];
      if (previous === undefined || previous.role !== "assistant")
        throw new Error("tool_result without a preceding assistant message");
    }
  });
}

/** Every link names an entry that exists; `sourceToolAssistantUUID` names the entry holding the tool_use. */
export function assertLinksResolve(entries: readonly Entry[]): void {
  const uuids = new Set(entries.flatMap((entry) => (typeof entry.uuid === "string" ? [entry.uuid] : [])));
  const owner = new Map<string, string>();
  for (const entry of entries) for (const id of toolUseIds(entry)) owner.set(id, entry.uuid as string);
  for (const entry of entries) {
    for (const field of ["parentUuid", "logicalParentUuid", "sourceToolAssistantUUID"]) {
      const target = entry[field];
      if (typeof target === "string" && !uuids.has(target))
        throw new Error(`${entry.uuid}.${field} → removed ${target}`);
    }
    const source = entry["sourceToolAssistantUUID"];
    const first = toolResultIds(entry)[0];
    if (typeof source === "string" && first !== undefined && owner.get(first) !== source)
      throw new Error(
        `${entry.uuid}.sourceToolAssistantUUID is ${source}, tool_use ${first} is in ${owner.get(first)}`,
      );
  }
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * One batch with uuid-less markers (`mode`) repeated after new conversation and twice in a row: a store's
 * idempotency must keep every one of them, and still add nothing when the batch is appended again.
 */
export function repeatedMarkers(): Entry[] {
  const mode = (value: string): Entry => ({ type: "mode", mode: value });
  const user = (uuid: string): Entry => ({ type: "user", uuid, message: { role: "user", content: "x" } });
  return [user("u1"), mode("plan"), user("u2"), mode("default"), user("u3"), mode("plan"), mode("plan")];
}

/** A short transcript a store round-trips: a non-ASCII prompt, uuid-less markers, two Bash calls, a reply. */
export function sampleTranscript(): Entry[] {
  const t = new TranscriptBuilder();
  t.prompt("hello 世界");
  t.marker("mode", "bypassPermissions");
  t.response("looking", [bash("git status -s", " M a.ts"), bash("ls", "a\nb")]);
  t.marker("cost-state", 0.0147);
  t.response("done");
  return t.entries;
}
