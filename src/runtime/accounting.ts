/**
 * What one session run cost. The SDK's `total_cost_usd` is cumulative per session, and a resumed session
 * continues from its saved total, so only the growth since the last total seen is new spend.
 */
export interface SessionSpend {
  /** New spend in this session run. */
  spent: number;
  /** The session's cumulative total to remember, or null when no result reported one. */
  total: number | null;
}

export function sessionSpend(previousTotal: number | undefined, costTotal: number | null): SessionSpend {
  if (costTotal === null) return { spent: 0, total: null };
  const previous = previousTotal ?? 0;
  // If the CLI restarted the session's total from zero, the whole total is new spend.
  return { spent: costTotal >= previous ? costTotal - previous : costTotal, total: costTotal };
}
