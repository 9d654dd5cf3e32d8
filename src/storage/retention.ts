/**
 * Retention: a step's sessions can be removed from the session store once they are no longer needed.
 * The manifest record stays, so costs, generations and handoff files remain readable; a later
 * `continue` of the step then starts without the deleted history.
 */
import { checkpoint } from "../fs/checkpoint.js";
import { recordedStep } from "../records/recorded-step.js";
import type { RunRecords } from "../records/run-records.js";
import type { StepRecord } from "../records/step-record.js";
import type { FlowerSessionStore } from "../session-layers/flower-store.js";

/**
 * Every session a step ran: its burned generations, its current session, and the goal guard's reviewer
 * sessions (each review is a session of its own, kept in the same store).
 */
export function stepSessionIds(record: StepRecord): string[] {
  const reviewers = (record.guard?.reviews ?? []).flatMap((review) =>
    review.sessionId === null ? [] : [review.sessionId],
  );
  return [...new Set([...record.retired, ...(record.sessionId ? [record.sessionId] : []), ...reviewers])];
}

/** Deletes the step's sessions (see stepSessionIds), with their subagent transcripts. */
export async function deleteStepSessions(
  records: RunRecords,
  store: Pick<FlowerSessionStore, "projectKeysOf" | "delete">,
  step: string,
): Promise<number> {
  const record = recordedStep(records, step);
  let deleted = 0;
  for (const sessionId of stepSessionIds(record)) {
    for (const projectKey of await store.projectKeysOf(sessionId)) {
      await store.delete({ projectKey, sessionId });
      deleted += 1;
      checkpoint("forget");
    }
  }
  return deleted;
}
