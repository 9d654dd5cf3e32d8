/**
 * Which sessions hold a step's earlier generations, from its record: what recall searches
 * (session-layers/recall-search.ts). A generation's session is in `history`; a retry that started afresh replaced it
 * there, and the session it replaced is named only by its failure. Both belong to the generation: the detail
 * a successor misses may have come up before the attempt failed. Generations a rewind took back (`rewound`)
 * are not the step's any more and are left out.
 */
import type { StepRecord } from "./step-record.js";

/** One earlier generation and the sessions that ran in it, oldest first. */
export interface GenerationSessions {
  generation: number;
  sessionIds: string[];
}

/** The generations before `current`, oldest first; empty for a step's first generation. */
export function earlierGenerations(
  record: Pick<StepRecord, "history" | "failures">,
  current: number,
): GenerationSessions[] {
  const earlier: GenerationSessions[] = [];
  for (const entry of record.history) {
    if (entry.generation >= current) continue;
    const sessionIds = record.failures
      .filter((failure) => failure.generation === entry.generation && failure.sessionId !== null)
      .map((failure) => failure.sessionId!);
    if (entry.sessionId !== null) sessionIds.push(entry.sessionId);
    earlier.push({ generation: entry.generation, sessionIds: [...new Set(sessionIds)] });
  }
  return earlier.sort((a, b) => a.generation - b.generation);
}
