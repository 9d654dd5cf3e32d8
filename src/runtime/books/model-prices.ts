/**
 * What the `claude` binary charges per million tokens, per model: the prices its own `total_cost_usd`
 * is computed with. flower prices each response as it arrives with them, so a driver killed before the
 * binary reported its total has its spend in the record already (accounting.ts), and when the total does
 * come, it replaces flower's figure.
 *
 * Read off binary 2.1.332 (the SDK 0.3.332 the package pins) by serving it responses of one million
 * tokens of one kind each and reading its `total_cost_usd`: the probe is in docs/development.md. A model
 * it does not know it prices as its default (Opus 5.5), and so does this table; an id that is a newer
 * model's is flagged `estimated` in the record (the price is the default's, not the model's).
 */

export interface ModelPrice {
  /** USD per million uncached input tokens. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

/** Prices by model id prefix (the binary names dated snapshots like `claude-sonnet-4-5-20250929`). */
const PRICES: ReadonlyArray<readonly [prefix: string, price: ModelPrice]> = [
  ["claude-opus-5-5", { input: 4, cacheRead: 0.2, cacheWrite: 5, output: 20 }],
  ["claude-opus-4", { input: 4, cacheRead: 0.2, cacheWrite: 5, output: 20 }],
  ["claude-sonnet-5-5", { input: 2, cacheRead: 0.1, cacheWrite: 2.5, output: 10 }],
  ["claude-sonnet-4", { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 }],
  ["claude-haiku-5-5", { input: 0.5, cacheRead: 0.05, cacheWrite: 0.625, output: 0.5 }],
  ["claude-haiku-4-5", { input: 1, cacheRead: 0.1, cacheWrite: 1.25, output: 5 }],
];

/** What the binary charges for a model it does not know: its default's price. */
const DEFAULT_PRICE: ModelPrice = { input: 4, cacheRead: 0.2, cacheWrite: 5, output: 20 };

export interface PricedUsage {
  usd: number;
  /** The model is not in the table: priced as the binary's default. */
  estimated: boolean;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** One response's cost at the binary's prices for `model`. */
export function priceOf(model: string | undefined, usage: TokenUsage): PricedUsage {
  const known = model === undefined ? undefined : PRICES.find(([prefix]) => model.startsWith(prefix))?.[1];
  const price = known ?? DEFAULT_PRICE;
  const usd =
    (usage.inputTokens * price.input +
      usage.cacheReadTokens * price.cacheRead +
      usage.cacheWriteTokens * price.cacheWrite +
      usage.outputTokens * price.output) /
    1_000_000;
  return { usd, estimated: known === undefined };
}
