/**
 * Turning a hard "does not fit" API error into an immediate handoff. This is what makes a 1M default
 * window safe: if the guess is too large the threshold is never reached and auto-compact is off, so the
 * run would hit the API's limit head-on. Recognised, that costs one degraded handoff instead of the step.
 *
 * Matching is on normalised text (lowercase, `_` and backticks as spaces, whitespace collapsed), so
 * `context_length_exceeded` and "input length and `max_tokens` exceed" are found too. The phrases are
 * specific on purpose: "context deadline exceeded" (Go timeouts), "rate limit exceeded" or a message that
 * merely mentions the context window must not burn a generation.
 */
const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/,
  /prompt too long/,
  /input is too long/,
  /context length exceeded/,
  /maximum context length/,
  /too many total text bytes/,
  /input length and max tokens exceed/,
  /exceeds? (?:the )?(?:model'?s? )?(?:maximum )?context (?:window|length|limit|size)/,
  /exceeds the context\b/,
  /context window (?:is |has been |was )?(?:exceeded|full|overflow)/,
  /context (?:limit|size) (?:is |has been |was )?exceeded/,
  /(?:overflows?|exceeded) (?:the )?(?:model'?s? )?context window/,
  /reduce the length of the (?:messages|prompt|input)/,
];

function normalise(text: string): string {
  return text.toLowerCase().replace(/[_`]/g, " ").replace(/\s+/g, " ");
}

/** True if any of the texts (error messages, result text, stderr...) says the prompt no longer fits. */
export function isOverflow(...texts: Array<string | null | undefined>): boolean {
  for (const text of texts) {
    if (typeof text !== "string" || text === "") continue;
    const normal = normalise(text);
    if (OVERFLOW_PATTERNS.some((pattern) => pattern.test(normal))) return true;
  }
  return false;
}
