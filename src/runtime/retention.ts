/**
 * Retention: a step's sessions can be removed from the session store once they are no longer needed.
 * The manifest record stays, so costs, generations and handoff files remain readable; a later
 * `continue` of the step then starts without the deleted history.
 */
import { ConfigurationError } from "../errors.js";
import type { FlowerSessionStore } from "../store/flower-store.js";
import type { Manifest } from "./manifest.js";

/** Deletes the step's burned generations and its current session (with their subagent transcripts). */
export async function deleteStepSessions(
  manifest: Manifest,
  store: Pick<FlowerSessionStore, "projectKeysOf" | "delete">,
  step: string,
): Promise<number> {
  const record = manifest.get(step);
  if (!record) {
    const known =
      manifest
        .steps()
        .map((s) => s.step)
        .join(", ") || "none";
    throw new ConfigurationError("step", step, `a step recorded in ${manifest.path} (known: ${known})`);
  }
  let deleted = 0;
  for (const sessionId of new Set([...record.retired, ...(record.sessionId ? [record.sessionId] : [])])) {
    for (const projectKey of await store.projectKeysOf(sessionId)) {
      await store.delete({ projectKey, sessionId });
      deleted += 1;
    }
  }
  return deleted;
}
