/**
 * When a handoff is due, as pure functions so they are tested directly.
 *
 * The writing turn's exemption is the hard-won part: the handoff is written after the line was crossed,
 * so the context is still above `at` during that turn. Without the exemption the writing turn's first
 * message is judged "handoff due" again and interrupted before it wrote a word; every generation then
 * ends in a degraded handoff and everything looks normal (the degraded path works fine). The original's
 * first live run produced exactly that — two generations, both degraded — and the offline tests missed it
 * because their fake replaced the whole attempt and never went through this criterion.
 */
import type { HandoffRule } from "./policy.js";

export interface HandoffDueInput {
  /** `HandoffPolicy.enabled`. */
  enabled: boolean;
  /** True while the same session is writing its handoff: that turn is exempt from the threshold. */
  writing: boolean;
  /**
   * The context the main thread saw in its last turn; null before the first turn. Only the main thread
   * counts — a subagent's context belongs to its own transcript and dissolves when it finishes.
   */
  context: number | null | undefined;
  /** `HandoffPolicy.at`. */
  at: number;
  /** The step's session id so far; there is nothing to hand off from before the session exists. */
  sessionId: string | null | undefined;
}

/** True iff enabled AND not in the writing turn AND context >= at AND the step has a session id. */
export function handoffDue({ enabled, writing, context, at, sessionId }: HandoffDueInput): boolean {
  return enabled && !writing && typeof context === "number" && context >= at && !!sessionId;
}

export interface LetCallsFinishInput {
  /** Calls of the crossing response that have not come back yet. */
  openCalls: number;
  /** The context after the crossing response. */
  context: number;
  /** `HandoffPolicy.window`. */
  window: number;
  /** `DEFAULTS.inflightMargin`: what the calls' results, one more response and the writing turn need. */
  margin: number;
}

/**
 * Whether the switch waits one more boundary for the calls the crossing response issued. Cutting them
 * loses the work they were about to do (typically an `Agent` call: the subagent the coordinator just
 * sent), and the successor redoes it from a line in `next`; the headroom exists to let them finish. So
 * they run while there is room (context below window − margin); closer to the window they are cut and
 * named (cut-calls.ts), since their results could overflow the session before the handoff is written.
 */
export function letCallsFinish({ openCalls, context, window, margin }: LetCallsFinishInput): boolean {
  return openCalls > 0 && context < window - margin;
}

export interface NearDueInput {
  enabled: boolean;
  writing: boolean;
  context: number | null | undefined;
  /** `HandoffPolicy.warnAt`. */
  warnAt: number;
  /** `HandoffPolicy.at`: at or past it the handoff itself is due and a warning says nothing new. */
  at: number;
  /** Whether this generation already warned: one warning per generation, no spam. */
  warned: boolean;
}

/** True when the once-per-generation `near` warning should be emitted now. */
export function nearDue({ enabled, writing, context, warnAt, at, warned }: NearDueInput): boolean {
  return enabled && !writing && !warned && typeof context === "number" && context >= warnAt && context < at;
}

/**
 * Prices relative to uncached input, the same ratios for every current Claude model on the API's price
 * page (https://platform.claude.com/docs/en/about-claude/pricing): a cache read costs 0.1×, a 5-minute
 * cache write 1.25×, an output token 5×.
 */
export const PRICE_RATIOS = { cacheRead: 0.1, cacheWrite: 1.25, output: 5 } as const;

export interface CostDueInput {
  /**
   * The main thread's context after each turn of this session, oldest first; the first is the session's
   * start-up floor (what a fresh session would carry too).
   */
  contexts: readonly number[];
  /** The expected handoff document, output tokens (`HandoffPolicy.handoffOutputTokens`). */
  handoffOutput: number;
}

/**
 * The priced cost of handing off now, in uncached-input tokens: the writing turn re-reads the context
 * from the cache and writes the document; the successor writes its floor and the document to the cache.
 */
export function handoffPrice(context: number, floor: number, handoffOutput: number): number {
  const { cacheRead, cacheWrite, output } = PRICE_RATIOS;
  return cacheRead * context + output * handoffOutput + cacheWrite * (floor + handoffOutput);
}

/**
 * The cost rule (`HandoffPolicy({ rule: "cost" })`): hand off once the extra input this session has paid
 * for staying — every turn re-reads, at the cache-read price, what the context grew above its start-up
 * floor — reaches the priced cost of one handoff. For a context that grows by about the same amount a
 * turn this is the switch point with the lowest price per turn over many generations (the rent-or-buy
 * balance: a generation of n turns costs handoff + 0.1·g·n²/2 above its floor, and handoff/n + 0.05·g·n
 * is smallest where the two are equal), and it needs no guess of the growth: a session that grows
 * fast reaches it sooner, one that idles never does.
 */
export function costDue({ contexts, handoffOutput }: CostDueInput): boolean {
  if (contexts.length < 2) return false;
  const floor = contexts[0]!;
  const current = contexts[contexts.length - 1]!;
  let excess = 0;
  for (const context of contexts) excess += Math.max(0, context - floor);
  return PRICE_RATIOS.cacheRead * excess >= handoffPrice(current, floor, handoffOutput);
}

export interface SwitchDueInput {
  /** `HandoffPolicy.enabled`: off, only a person's request can make a switch due. */
  enabled: boolean;
  /** `HandoffPolicy.rule`. */
  rule: HandoffRule;
  /** True while the same session is writing its handoff: nothing is due during that turn. */
  writing: boolean;
  /** The main thread's context after each turn of this session, oldest first; the last is now. */
  contexts: readonly number[];
  /** `HandoffPolicy.at`. */
  at: number;
  /** `HandoffPolicy.handoffOutputTokens`, for the cost rule. */
  handoffOutput: number;
  /** The step's session id so far; there is nothing to hand off from before the session exists. */
  sessionId: string | null | undefined;
  /**
   * Whether a person asked for a handoff (`flower handoff`): due like a crossed line, even with handoffs
   * off. Asked last, only when nothing else made the switch due: it may read the records store.
   */
  requested: () => boolean;
}

/**
 * Whether the session should switch at this boundary: the line is crossed, or the cost rule says
 * staying costs more than a handoff, or a person asked — never in the writing turn, never before the
 * session exists. A request is honoured with handoffs off: the person asked for exactly this.
 */
export function switchDue(input: SwitchDueInput): boolean {
  const { enabled, rule, writing, contexts, at, handoffOutput, sessionId, requested } = input;
  if (writing || !sessionId) return false;
  if (handoffDue({ enabled, writing, context: contexts.at(-1), at, sessionId })) return true;
  if (enabled && rule === "cost" && costDue({ contexts, handoffOutput })) return true;
  return requested();
}
