/**
 * What a notifier is told (`--notify`, `Worker({ notify })`, `submit(…, { notify })`): one JSON object
 * when a run needs a person, or has ended. The same object reaches a command (on stdin, and field by
 * field in FLOWER_NOTIFY_* variables) and a webhook (the body of a POST).
 */

/**
 * Why a person is told:
 * - `paused`: a workflow run paused after its requirements (`flower continue <run>` goes on);
 * - `approval`: a fleet run paused and waits for `flower approve <run>`;
 * - `budget-reached`: the run stopped at its budget (`--budget`, a worker's `--budget-per-run|day`);
 * - `drift`: the run paused because its work drifted from its goal (reserved: sent once that pause exists);
 * - `done`, `goal-not-met`, `failed`: the run ended so.
 */
export type NotifyEvent =
  "paused" | "approval" | "budget-reached" | "drift" | "done" | "goal-not-met" | "failed";

export const NOTIFY_EVENTS: readonly NotifyEvent[] = [
  "paused",
  "approval",
  "budget-reached",
  "drift",
  "done",
  "goal-not-met",
  "failed",
];

export interface Notification {
  event: NotifyEvent;
  /** The run's name (a step run on its own: the step's name). */
  run: string;
  /** The workflow step the run stands at (`requirements`, `goal`, `work`); a step run on its own: `work`. */
  step: string;
  /** The run's status: `paused`, `done`, `goal-not-met`, `failed` (the fleet's word for a fleet run). */
  status: string;
  /** Why, in one line, in the run's language. */
  why: string;
  /** The command a person types to go on (continue, approve, try again); null when nothing goes on. */
  continue: string | null;
  /** When flower sent it (ISO 8601). */
  at: string;
}

/**
 * The payload as a command's environment: FLOWER_NOTIFY_EVENT, _RUN, _STEP, _STATUS, _WHY, _CONTINUE
 * (empty when nothing goes on) and _AT, for a one-line command that reads no JSON.
 */
export function notificationEnv(notification: Notification): Record<string, string> {
  return {
    FLOWER_NOTIFY_EVENT: notification.event,
    FLOWER_NOTIFY_RUN: notification.run,
    FLOWER_NOTIFY_STEP: notification.step,
    FLOWER_NOTIFY_STATUS: notification.status,
    FLOWER_NOTIFY_WHY: notification.why,
    FLOWER_NOTIFY_CONTINUE: notification.continue ?? "",
    FLOWER_NOTIFY_AT: notification.at,
  };
}
