/**
 * What a bench reads off the offline kit's record: per-mode token economy, prompt-cache use and cache
 * breaks, all computed from the request bodies the real `claude` binary sent.
 *
 * A cache break is a request whose earlier part — system, tools or a message the previous request of
 * the same conversation already sent — differs from that previous request. `cache_control` markers are
 * ignored and string content is read as one text block, so only real content changes count.
 */
import { createHash } from "node:crypto";
import type { Exchange, WireBlock, WireRequestBody } from "flower-agent/testing";
import { CHARS_PER_TOKEN } from "flower-agent/testing";

/** The API's price ratios against uncached input: cache reads cost 0.1×, cache writes 1.25×. */
export const CACHE_READ_PRICE = 0.1;
export const CACHE_WRITE_PRICE = 1.25;

export interface CacheBreak {
  /** Index of the breaking request in the mode's exchanges. */
  index: number;
  kind: string;
  /** The first request of a resumed session (a handoff's writing turn, a retry): allowed to break. */
  atResume: boolean;
  /** The first part that differs: `system`, `tools`, `message <n>` or `fewer messages`. */
  where: string;
}

export interface TokenSplit {
  system: number;
  tools: number;
  messages: number;
}

export interface KindSummary {
  requests: number;
  inputTokens: number;
  costWeightedInput: number;
  /** Sum over the kind's requests of what each part weighed. */
  split: TokenSplit;
}

export interface MainTurn {
  /** 1-based over the whole mode, across sessions. */
  turn: number;
  /** Main-thread context after the turn: prompt + output tokens, as the CLI counts it. */
  context: number;
  session: string;
  handoffTurn: boolean;
  /** A compaction request came right before this turn. */
  afterCompaction: boolean;
}

export interface ModeSummary {
  requests: number;
  failedRequests: number;
  mainTurns: number;
  mainPeak: number;
  mainFinal: number;
  /** Least-squares growth of the main-thread context per main turn, averaged over its sessions. */
  slopePerMainTurn: number;
  totalInputTokens: number;
  cacheHitRatio: number;
  costWeightedInput: number;
  /** Breaks inside a running session: the target is zero. */
  cacheBreaks: number;
  /**
   * Cost-weighted input if the prompt cache were shared across conversations, as the API's is (a
   * prefix written by one worker is read by the next worker with the same system prompt and tools).
   * The kit caches per conversation only, so for many short workers it charges every worker's system
   * prompt and tools as a fresh cache write; this estimate is the other bound.
   */
  costWeightedSharedCache: number;
  /** Breaks on the first request of a resumed session. */
  cacheBreaksAtResume: number;
  breaks: CacheBreak[];
  byKind: Record<string, KindSummary>;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) if (key !== "cache_control") copy[key] = strip(inner);
    return copy;
  }
  return value;
}

function blocks(content: string | WireBlock[] | undefined): unknown[] {
  if (content === undefined) return [];
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

interface Parts {
  system: string;
  tools: string;
  messages: string[];
}

export function partsOf(body: WireRequestBody): Parts {
  return {
    system: JSON.stringify(strip(blocks(body.system))),
    tools: JSON.stringify(strip(body.tools ?? [])),
    messages: body.messages.map((message) =>
      JSON.stringify({ role: message.role, content: strip(blocks(message.content)) }),
    ),
  };
}

/** Main-thread requests of one session are one conversation; each subagent's brief starts another. */
export function conversationOf(exchange: Exchange): string | undefined {
  const session = exchange.request.sessionId ?? "";
  if (exchange.kind === "main") return `main|${session}`;
  if (exchange.kind === "subagent") {
    const brief = createHash("sha1").update(exchange.request.firstUserText()).digest("hex");
    return `sub|${session}|${brief}`;
  }
  return undefined;
}

function firstDifference(previous: Parts, current: Parts): string | undefined {
  if (previous.system !== current.system) return "system";
  if (previous.tools !== current.tools) return "tools";
  if (current.messages.length < previous.messages.length) return "fewer messages";
  for (let i = 0; i < previous.messages.length; i++)
    if (previous.messages[i] !== current.messages[i]) return `message ${i}`;
  return undefined;
}

/**
 * `resumes`: exchange counts at the moments a session was resumed; the next request of each
 * conversation after such a moment is the resumed session's first.
 */
export function cacheBreaks(exchanges: readonly Exchange[], resumes: readonly number[] = []): CacheBreak[] {
  const last = new Map<string, { parts: Parts; index: number }>();
  const breaks: CacheBreak[] = [];
  exchanges.forEach((exchange, index) => {
    const key = conversationOf(exchange);
    if (key === undefined || exchange.status !== 200) return;
    const parts = partsOf(exchange.request.body);
    const previous = last.get(key);
    const where = previous ? firstDifference(previous.parts, parts) : undefined;
    if (where && previous) {
      const atResume = resumes.some((mark) => mark > previous.index && mark <= index);
      breaks.push({ index, kind: exchange.kind, where, atResume });
    }
    last.set(key, { parts, index });
  });
  return breaks;
}

export function costWeighted(exchange: Exchange): number {
  const usage = exchange.usage;
  if (!usage) return 0;
  return (
    usage.input_tokens +
    CACHE_READ_PRICE * usage.cache_read_input_tokens +
    CACHE_WRITE_PRICE * usage.cache_creation_input_tokens
  );
}

function tokens(chars: number): number {
  return chars / CHARS_PER_TOKEN;
}

/**
 * Cost-weighted input under a prompt cache shared by all conversations: each request reads the longest
 * prefix (system, tools, whole messages) that any earlier request sent, and writes the rest.
 */
export function sharedCacheCostWeighted(exchanges: readonly Exchange[]): number {
  const written = new Set<string>();
  let total = 0;
  for (const exchange of exchanges) {
    if (exchange.status !== 200 || !exchange.usage) continue;
    const parts = partsOf(exchange.request.body);
    const segments = [parts.system, parts.tools, ...parts.messages];
    let chain = "";
    let readChars = 0;
    let allChars = 0;
    let reading = true;
    for (const segment of segments) {
      chain = createHash("sha1").update(chain).update(segment).digest("hex");
      allChars += segment.length;
      if (reading && written.has(chain)) readChars += segment.length;
      else reading = false;
      written.add(chain);
    }
    const read = tokens(readChars);
    const write = tokens(allChars - readChars);
    total += CACHE_READ_PRICE * read + CACHE_WRITE_PRICE * write;
  }
  return Math.round(total);
}

/** Least-squares slope of y over x. */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (const [x, y] of points) {
    numerator += (x - meanX) * (y - meanY);
    denominator += (x - meanX) ** 2;
  }
  return denominator === 0 ? 0 : numerator / denominator;
}

export function mainTurns(exchanges: readonly Exchange[]): MainTurn[] {
  const turns: MainTurn[] = [];
  let compacted = false;
  for (const exchange of exchanges) {
    if (exchange.kind === "compact") compacted = true;
    if (exchange.kind !== "main" || exchange.status !== 200 || !exchange.usage) continue;
    turns.push({
      turn: turns.length + 1,
      context: exchange.promptTokens + exchange.usage.output_tokens,
      session: exchange.request.sessionId ?? "",
      handoffTurn: exchange.request.isHandoffTurn,
      afterCompaction: compacted,
    });
    compacted = false;
  }
  return turns;
}

export function summarise(exchanges: readonly Exchange[], resumes: readonly number[] = []): ModeSummary {
  const ok = exchanges.filter((exchange) => exchange.status === 200 && exchange.usage);
  const turns = mainTurns(exchanges);
  const sessions = new Map<string, Array<[number, number]>>();
  for (const turn of turns) {
    // The writing turn is not work: it would tilt the last generation's line.
    if (turn.handoffTurn) continue;
    const points = sessions.get(turn.session) ?? [];
    points.push([turn.turn, turn.context]);
    sessions.set(turn.session, points);
  }
  const slopes = [...sessions.values()].filter((points) => points.length >= 2).map(slope);
  let read = 0;
  let prompt = 0;
  let weighted = 0;
  const byKind: Record<string, KindSummary> = {};
  for (const exchange of ok) {
    const usage = exchange.usage!;
    read += usage.cache_read_input_tokens;
    prompt += exchange.promptTokens;
    weighted += costWeighted(exchange);
    const parts = partsOf(exchange.request.body);
    const kind = (byKind[exchange.kind] ??= {
      requests: 0,
      inputTokens: 0,
      costWeightedInput: 0,
      split: { system: 0, tools: 0, messages: 0 },
    });
    kind.requests += 1;
    kind.inputTokens += exchange.promptTokens;
    kind.costWeightedInput += costWeighted(exchange);
    kind.split.system += tokens(parts.system.length);
    kind.split.tools += tokens(parts.tools.length);
    kind.split.messages += tokens(parts.messages.reduce((sum, message) => sum + message.length, 0));
  }
  for (const kind of Object.values(byKind)) {
    kind.costWeightedInput = Math.round(kind.costWeightedInput);
    kind.split = {
      system: Math.round(kind.split.system),
      tools: Math.round(kind.split.tools),
      messages: Math.round(kind.split.messages),
    };
  }
  const breaks = cacheBreaks(exchanges, resumes);
  return {
    requests: exchanges.length,
    failedRequests: exchanges.length - ok.length,
    mainTurns: turns.length,
    mainPeak: Math.max(0, ...turns.map((turn) => turn.context)),
    mainFinal: turns.at(-1)?.context ?? 0,
    slopePerMainTurn: Math.round(
      slopes.length === 0 ? 0 : slopes.reduce((sum, value) => sum + value, 0) / slopes.length,
    ),
    totalInputTokens: prompt,
    cacheHitRatio: prompt === 0 ? 0 : Number((read / prompt).toFixed(4)),
    costWeightedInput: Math.round(weighted),
    cacheBreaks: breaks.filter((entry) => !entry.atResume).length,
    costWeightedSharedCache: sharedCacheCostWeighted(exchanges),
    cacheBreaksAtResume: breaks.filter((entry) => entry.atResume).length,
    breaks: breaks.slice(0, 20),
    byKind,
  };
}

/** a / b rounded for a table; null when b is 0. */
export function ratio(a: number, b: number, digits = 3): number | null {
  return b === 0 ? null : Number((a / b).toFixed(digits));
}
