/**
 * What a step spends, booked as it is spent. Two sources, one figure:
 * - every response, as it arrives (`usage` events, main thread and subagents): priced at the binary's prices
 *   for its model (model-prices.ts) and booked at once, so a driver SIGKILLed mid-turn has its turns in the
 *   record already, and counted: `numTurns` is the requests served;
 * - the binary's `total_cost_usd` when a session run reports one. It is cumulative per session, and a
 *   resumed session continues from its saved total (written at the end of a turn), so only its growth
 *   since the last total seen is new spend; it replaces what was priced for that session meanwhile.
 * Priced responses no total ever covered (the binary died before writing one) stay booked and are said
 * to be an estimate (`estimatedCost`), never dropped. The ledger (step-ledger.ts), the record's one
 * writer, calls these.
 */
import type { GenerationRecord, StepRecord } from "../../records/step-record.js";
import type { UsageEvent } from "../events.js";
import { priceOf } from "./model-prices.js";
import type { SessionOutcome } from "../session/session-outcome.js";

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

/** One served response: priced and booked now, counted as a request, pending until its session's total. */
export function bookResponse(
  record: StepRecord,
  generation: GenerationRecord | undefined,
  event: UsageEvent,
): void {
  const priced = priceOf(event.usage.model, event.usage);
  record.costUsd += priced.usd;
  record.numTurns += 1;
  if (generation) {
    generation.costUsd += priced.usd;
    generation.numTurns += 1;
  }
  const session = event.sessionId ?? record.sessionId;
  if (session === null) return;
  const pending = ((record.pendingCosts ??= {})[session] ??= { usd: 0, responses: 0, models: [] });
  pending.usd += priced.usd;
  pending.responses += 1;
  const model = event.usage.model ?? "unknown";
  if (!pending.models.includes(model)) pending.models.push(model);
  if (priced.estimated) (record.estimatedCost ??= { usd: 0, responses: 0, models: [] }).unknownModel = true;
}

/**
 * What one session run reported: the growth of its session's total replaces what was priced for that
 * session meanwhile (none while a new generation waits for its session); its context counts only for the
 * step's own sessions that answered (`countsForContext`).
 */
export function bookSession(
  record: StepRecord,
  generation: GenerationRecord | undefined,
  outcome: SessionOutcome,
  countsForContext: boolean,
): void {
  if (outcome.sessionId) {
    const spend = sessionSpend(record.sessionCosts[outcome.sessionId], outcome.costTotal);
    if (spend.total !== null) {
      record.sessionCosts[outcome.sessionId] = spend.total;
      const priced = record.pendingCosts?.[outcome.sessionId]?.usd ?? 0;
      delete record.pendingCosts?.[outcome.sessionId];
      record.costUsd += spend.spent - priced;
      if (generation) generation.costUsd += spend.spent - priced;
    }
  }
  if (countsForContext && outcome.mainResponses > 0) {
    record.context = outcome.context;
    if (generation) generation.context = outcome.context;
  }
}

/**
 * Before a session runs: responses priced for a session whose run ended without a total (a killed
 * driver, a session that died) stay booked as flower's estimate; the binary's next total for that session
 * starts from its last saved one, so it cannot cover them.
 */
export function settlePending(record: StepRecord): boolean {
  const pending = Object.values(record.pendingCosts ?? {});
  if (pending.length === 0) return false;
  const estimate = (record.estimatedCost ??= { usd: 0, responses: 0, models: [] });
  for (const session of pending) {
    estimate.usd += session.usd;
    estimate.responses += session.responses;
    for (const model of session.models) if (!estimate.models.includes(model)) estimate.models.push(model);
  }
  record.pendingCosts = {};
  return true;
}
