/**
 * List prices used to turn measured tokens into dollars (USD per million tokens), read on 2026-12-02.
 *
 * - Claude Sonnet 5.5: https://platform.claude.com/docs/en/models/sonnet-5-5/overview ("Pricing": input
 *   $2, output $10, 5m cache write $2.50, cache read $0.20). A third-party price list reports a cut of
 *   Sonnet 5.5's cache read to $0.10 from 2026-10-07 that the model page did not show; at $0.10 every
 *   dollar figure below falls by the cache-read share of it (most of a long main thread).
 * - Claude Haiku 4.5: https://platform.claude.com/docs/en/about-claude/pricing (model pricing table:
 *   base input $1, 5m cache writes $1.25, cache hits $0.10, output $5). Its window is 200k, the bench's
 *   larger window.
 *
 * The CLI's cache writes are 5-minute writes. Both models keep the API's ratios (cache read 0.1×, 5m
 * write 1.25×, output 5× of input), the ratios the cost-weighted figures use, so dollars are the
 * cost-weighted input times the input price plus output at the output price.
 */
export const PRICE_PAGE = "https://platform.claude.com/docs/en/about-claude/pricing";

export interface ModelPrice {
  model: string;
  source: string;
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
}

export const PRICES: readonly ModelPrice[] = [
  {
    model: "Claude Sonnet 5.5",
    source: "https://platform.claude.com/docs/en/models/sonnet-5-5/overview",
    input: 2,
    cacheWrite: 2.5,
    cacheRead: 0.2,
    output: 10,
  },
  {
    model: "Claude Haiku 4.5",
    source: PRICE_PAGE,
    input: 1,
    cacheWrite: 1.25,
    cacheRead: 0.1,
    output: 5,
  },
];

export interface PricedTokens {
  uncached: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export function dollars(tokens: PricedTokens, price: ModelPrice): number {
  return (
    (tokens.uncached * price.input +
      tokens.cacheRead * price.cacheRead +
      tokens.cacheWrite * price.cacheWrite +
      tokens.output * price.output) /
    1_000_000
  );
}
