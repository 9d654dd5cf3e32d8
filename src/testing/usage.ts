/**
 * Usage the fake model reports, computed from what the CLI really sent, so context levels and cache
 * hit ratios in tests are measurements, not numbers a test made up.
 *
 * - Size: every system block, tool definition and message block is serialised as JSON (with its
 *   `cache_control` marker removed) and counted at CHARS_PER_TOKEN characters per token.
 * - Cache: the leading segments identical to the previous request of the same conversation are
 *   `cache_read_input_tokens`; the rest up to the request's last `cache_control` breakpoint is
 *   `cache_creation_input_tokens`; what follows the breakpoint is `input_tokens`. The CLI marks the
 *   last block of the last message, so nearly all new content is cache creation, as with the real API.
 */
import type { WireBlock, WireRequestBody } from "./model-request.js";

/** Roughly what the real tokenizer gives for English prose and code. */
export const CHARS_PER_TOKEN = 4;

export interface Usage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
}

interface Segment {
  key: string;
  chars: number;
  breakpoint: boolean;
}

export function tokensFor(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function segment(value: unknown): Segment {
  let breakpoint = false;
  let normalised = value;
  if (value && typeof value === "object" && !Array.isArray(value) && "cache_control" in value) {
    const { cache_control: _ignored, ...rest } = value as WireBlock;
    breakpoint = true;
    normalised = rest;
  }
  const key = JSON.stringify(normalised) ?? "";
  return { key, chars: key.length, breakpoint };
}

/** The request as an ordered list of cacheable segments. */
export function segmentsOf(body: WireRequestBody): Segment[] {
  const segments: Segment[] = [];
  const system = body.system;
  if (typeof system === "string") segments.push(segment({ type: "text", text: system }));
  else for (const block of system ?? []) segments.push(segment(block));
  for (const tool of body.tools ?? []) segments.push(segment(tool));
  for (const message of body.messages) {
    const blocks =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    segments.push(segment({ role: message.role }));
    for (const block of blocks) segments.push(segment(block));
  }
  return segments;
}

export interface PromptMeasure {
  totalTokens: number;
  usage: Omit<Usage, "output_tokens">;
  segments: string[];
}

/** Measures a request against the previous request of the same conversation (if any). */
export function measurePrompt(body: WireRequestBody, previous: string[] | undefined): PromptMeasure {
  const segments = segmentsOf(body);
  let shared = 0;
  if (previous) {
    while (shared < segments.length && shared < previous.length && segments[shared]!.key === previous[shared])
      shared++;
  }
  let lastBreakpoint = -1;
  segments.forEach((s, i) => {
    if (s.breakpoint) lastBreakpoint = i;
  });
  const sum = (from: number, to: number) => segments.slice(from, to).reduce((total, s) => total + s.chars, 0);
  const totalChars = sum(0, segments.length);
  const readChars = sum(0, shared);
  const creationChars = lastBreakpoint >= shared ? sum(shared, lastBreakpoint + 1) : 0;
  const totalTokens = tokensFor(totalChars);
  const read = Math.floor(readChars / CHARS_PER_TOKEN);
  const creation = Math.min(tokensFor(creationChars), totalTokens - read);
  return {
    totalTokens,
    usage: {
      input_tokens: Math.max(0, totalTokens - read - creation),
      cache_read_input_tokens: read,
      cache_creation_input_tokens: creation,
    },
    segments: segments.map((s) => s.key),
  };
}
