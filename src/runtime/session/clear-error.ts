/**
 * One clear error from the pieces a failed session reports. The SDK says the same thing up to three
 * times — the result's text, the API error message, and the iterator's throw ("Claude Code returned an
 * error result: <the same text>") — and labels an API error with the result subtype "success". A user
 * reading the record or the StepFailedError should see the cause once.
 */
const THROWN_PREFIX = "Claude Code returned an error result: ";

/** The non-empty parts, without the throw's prefix, without a part another one already says, joined. */
export function clearError(parts: ReadonlyArray<string | null | undefined>, separator: string): string {
  const kept: string[] = [];
  for (const raw of parts) {
    if (!raw) continue;
    const part = (raw.startsWith(THROWN_PREFIX) ? raw.slice(THROWN_PREFIX.length) : raw).trim();
    if (part === "" || kept.some((earlier) => earlier.includes(part))) continue;
    // A later, fuller part replaces the earlier ones it contains.
    for (let i = kept.length - 1; i >= 0; i--) if (part.includes(kept[i]!)) kept.splice(i, 1);
    kept.push(part);
  }
  return kept.join(separator);
}
