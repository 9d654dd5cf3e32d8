/**
 * What the kit served, priced at the binary's own prices for its default model: the figure a test holds
 * flower's booked cost to (flower prices with src/runtime/books/model-prices.ts; this is the independent side).
 */
import type { Exchange } from "../../src/testing/index.js";

/** USD per million tokens: input, cache read, cache write, output. */
export const OPUS_PRICES = { input: 4, cacheRead: 0.2, cacheWrite: 5, output: 20 };

export function servedCost(exchanges: readonly Exchange[]): number {
  return exchanges.reduce((sum, exchange) => {
    const usage = exchange.usage!;
    return (
      sum +
      (usage.input_tokens * OPUS_PRICES.input +
        usage.cache_read_input_tokens * OPUS_PRICES.cacheRead +
        usage.cache_creation_input_tokens * OPUS_PRICES.cacheWrite +
        usage.output_tokens * OPUS_PRICES.output) /
        1_000_000
    );
  }, 0);
}
