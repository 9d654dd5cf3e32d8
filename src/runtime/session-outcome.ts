/**
 * How one session ended, decided from what its stream said and what the driver asked for. Pure, so each
 * rule is tested on its own; `step-run` decides what happens next from the outcome's kind.
 */
import type { CutCall } from "../handoff/cut-calls.js";
import { isOverflow } from "../handoff/overflow.js";
import { clearError } from "./clear-error.js";
import type { SessionReading } from "./session-translator.js";

export type SessionOutcomeKind =
  /** The turn ended normally: the step's work is done. */
  | "completed"
  /** The main thread crossed the handoff line; the session was stopped at a message boundary. */
  | "handoff-due"
  /** The API said the prompt no longer fits: hand off, degraded. */
  | "overflow"
  /** An error result, or the process died. */
  | "failed"
  /** Stopped from outside (Ctrl-C). */
  | "stopped";

export interface SessionOutcome {
  kind: SessionOutcomeKind;
  sessionId: string | null;
  /** The final result text (the answer, or on the writing turn the handoff). */
  resultText: string | null;
  /** The last cumulative `total_cost_usd` seen for this session, if any result came. */
  costTotal: number | null;
  numTurns: number;
  /** Main-thread context after its last response. */
  context: number;
  /** Complete main-thread API responses in this session run. */
  mainResponses: number;
  /** Why it failed or overflowed. */
  error: string | null;
  /**
   * A limit the user set was reached (maxTurns, maxBudgetUsd): retrying would only spend more, so the
   * step fails at once instead of using another attempt.
   */
  limitReached: boolean;
  /**
   * Only on `handoff-due`: the calls of the response that crossed the line, which the interrupt cut
   * before they ran (handoff/cut-calls.ts). Empty otherwise.
   */
  cutCalls: CutCall[];
  /**
   * Only on `handoff-due`: how many calls of the crossing response the switch let finish (one more
   * boundary, handoff/trigger.ts `letCallsFinish`) before it handed off. 0 otherwise.
   */
  finishedCalls: number;
}

export interface SessionEnding {
  reading: SessionReading;
  /** Someone asked the run to stop (Ctrl-C, `rt.stop()`). */
  stopRequested: boolean;
  /** The driver interrupted the session because a handoff was due. */
  handoffRequested: boolean;
  /** What the message iterator threw, if it did. */
  thrown: unknown;
  /** Calls of the crossing response the driver waited for before interrupting. @default 0 */
  finishedCalls?: number;
}

export function classifySession({
  reading,
  stopRequested,
  handoffRequested,
  thrown,
  finishedCalls = 0,
}: SessionEnding): SessionOutcome {
  const outcome: SessionOutcome = {
    kind: "completed",
    sessionId: reading.sessionId,
    resultText: reading.resultText,
    costTotal: reading.costTotal,
    numTurns: reading.numTurns,
    context: reading.context,
    mainResponses: reading.mainResponses,
    error: reading.resultError,
    limitReached: reading.limitReached,
    cutCalls: [],
    finishedCalls: 0,
  };
  // The interrupt can lose the race against a turn that was finishing anyway: a clean final answer
  // means the work is done, and there is nothing to hand off or stop.
  const finished =
    reading.sawResult && !reading.lastResultIsError && reading.resultText !== null && thrown === undefined;
  if (stopRequested && !finished) return { ...outcome, kind: "stopped" };
  if (handoffRequested && !finished)
    return { ...outcome, kind: "handoff-due", cutCalls: [...reading.openCalls], finishedCalls };
  const thrownText =
    thrown === undefined ? null : thrown instanceof Error ? thrown.message : JSON.stringify(thrown);
  if (!reading.sawResult && thrownText === null) {
    return { ...outcome, kind: "failed", error: "the claude process ended without a result" };
  }
  if (reading.lastResultIsError || thrownText !== null) {
    const error = clearError([reading.resultError, thrownText], " | ");
    return {
      ...outcome,
      kind: isOverflow(error, reading.apiErrorText) ? "overflow" : "failed",
      error: error || "unknown error",
    };
  }
  return outcome;
}
