/**
 * What one session run cost, and where it is booked. The SDK's `total_cost_usd` is cumulative per
 * session, and a resumed session continues from its saved total, so only the growth since the last total
 * seen is new spend. The ledger (step-ledger.ts), the record's one writer, books it through bookSession.
 */
import type { GenerationRecord, StepRecord } from "../records/step-record.js";
import type { SessionOutcome } from "./session-outcome.js";

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

/**
 * Adds what one session run cost to the step and its generation (none while a new one waits for its
 * session); its context counts only for the step's own sessions that answered (`countsForContext`).
 */
export function bookSession(
  record: StepRecord,
  generation: GenerationRecord | undefined,
  outcome: SessionOutcome,
  countsForContext: boolean,
): void {
  if (outcome.sessionId) {
    const spend = sessionSpend(record.sessionCosts[outcome.sessionId], outcome.costTotal);
    if (spend.total !== null) record.sessionCosts[outcome.sessionId] = spend.total;
    record.costUsd += spend.spent;
    if (generation) generation.costUsd += spend.spent;
  }
  record.numTurns += outcome.numTurns;
  if (generation) generation.numTurns += outcome.numTurns;
  if (countsForContext && outcome.mainResponses > 0) {
    record.context = outcome.context;
    if (generation) generation.context = outcome.context;
  }
}
