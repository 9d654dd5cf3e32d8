/**
 * How one session ended, decided from what its stream said and what the driver asked for. Pure, so each
 * rule is tested on its own; `step-run` decides what happens next from the outcome's kind.
 */
import type { CutCall } from "../../handoff/cut-calls.js";
import { isOverflow } from "../../handoff/overflow.js";
import { clearError } from "./clear-error.js";
import { cannotPass, type CannotPass } from "../drive/failure-class.js";
import { ERROR_LINES } from "./stderr-tail.js";
import type { SessionCounts, SessionReading } from "./session-translator.js";

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

export interface SessionOutcome extends SessionCounts {
  kind: SessionOutcomeKind;
  /** Why it failed or overflowed. */
  error: string | null;
  /**
   * A limit the user set was reached (maxTurns, maxBudgetUsd): retrying would only spend more, so the
   * step fails at once instead of using another attempt.
   */
  limitReached: boolean;
  /**
   * Only on `failed`: the failure cannot pass on another attempt (a refused key, an invalid request, a
   * binary that refused to start; see failure-class.ts), so the step ends at once. Null otherwise.
   */
  cannotPass: CannotPass | null;
  /** What the child wrote on stderr last (redacted), when it ended abnormally; empty otherwise. */
  stderr: string[];
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
  /** Only on `stopped`: the stop waited for the reply in flight as long as it waits, and then cut it. */
  replyCut?: boolean;
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
  /** The child's last stderr lines (redacted). */
  stderr?: string[];
  /**
   * The driver interrupted the binary's own retries of a request that cannot pass (session-run.ts), with
   * the API's words for it when the child's transcript had them.
   */
  cutShort?: { cannotPass: CannotPass; detail: string | null };
}

/** What the SDK throws when the child process itself ended badly (as opposed to an error result). */
const PROCESS_ENDED = /Claude Code process (exited with code|terminated by signal)/;

export function classifySession({
  reading,
  stopRequested,
  handoffRequested,
  thrown,
  finishedCalls = 0,
  stderr = [],
  cutShort,
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
    cannotPass: null,
    stderr: [],
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
  if (cutShort) {
    // The interrupt's own result ("error_during_execution") says nothing: the API's answer does.
    const status = reading.apiStatus !== null ? ` ${reading.apiStatus}` : "";
    const words = cutShort.detail ?? `${status.trim()} ${reading.apiErrorType ?? ""}`.trim();
    return {
      ...outcome,
      kind: "failed",
      error: `API Error: ${words}`,
      cannotPass: cutShort.cannotPass,
    };
  }
  const thrownText =
    thrown === undefined ? null : thrown instanceof Error ? thrown.message : JSON.stringify(thrown);
  // A child that died says why on stderr only: its last lines are part of the reason (redacted).
  const died = !reading.sawResult || (thrownText !== null && PROCESS_ENDED.test(thrownText));
  const said = died ? stderr.filter((line) => line.trim() !== "") : [];
  const saying = said.length > 0 ? ` — claude said: ${said.slice(-ERROR_LINES).join(" / ")}` : "";
  if (!reading.sawResult && thrownText === null) {
    return {
      ...outcome,
      kind: "failed",
      error: `the claude process ended without a result${saying}`,
      stderr: said,
    };
  }
  if (reading.lastResultIsError || thrownText !== null) {
    const error = clearError([reading.resultError, thrownText], " | ");
    if (isOverflow(error, reading.apiErrorText))
      return { ...outcome, kind: "overflow", error: error || "unknown error" };
    return {
      ...outcome,
      kind: "failed",
      error: `${error || "unknown error"}${saying}`,
      cannotPass: cannotPass({
        apiStatus: reading.apiStatus,
        apiErrorType: reading.apiErrorType,
        started: reading.started,
        text: error,
      }),
      stderr: said,
    };
  }
  return outcome;
}
