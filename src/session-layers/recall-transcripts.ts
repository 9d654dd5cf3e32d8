/**
 * The earlier generations' transcripts, read for recall (recall-search.ts): each session's main
 * transcript and its subagents' (the subagent subpaths), under every project key the session was stored
 * with. Read from the store's rows as they were written (the backend below the rewrite passes, which are
 * for a resume: an expired glance result is still the output it was), through the redacting layer's
 * store, so nothing here opens a database.
 */
import type { SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import type { FlowerSessionStore } from "./flower-store.js";
import type { RecallTranscript } from "./recall-search.js";

/** One earlier generation and its sessions (records/earlier-generations.ts reads them off the step record). */
export interface GenerationSessions {
  generation: number;
  sessionIds: readonly string[];
}

/** What recall reads a store with. */
export type RecallStore = Pick<FlowerSessionStore, "load" | "listSubkeys" | "projectKeysOf">;

/** The transcripts of `generations`; a generation none of whose sessions the store has is `missing`. */
export async function loadEarlierTranscripts(
  store: RecallStore,
  generations: readonly GenerationSessions[],
): Promise<{ transcripts: RecallTranscript[]; missing: number[] }> {
  const transcripts: RecallTranscript[] = [];
  const missing: number[] = [];
  for (const { generation, sessionIds } of generations) {
    const transcript: RecallTranscript = { generation, main: [], subagents: [] };
    for (const sessionId of sessionIds) {
      for (const projectKey of await store.projectKeysOf(sessionId)) {
        const main = await store.load({ projectKey, sessionId });
        if (main !== null) transcript.main.push(main);
        for (const subpath of await store.listSubkeys({ projectKey, sessionId })) {
          const subagent: SessionStoreEntry[] | null = await store.load({ projectKey, sessionId, subpath });
          if (subagent !== null) transcript.subagents.push(subagent);
        }
      }
    }
    if (transcript.main.length === 0 && transcript.subagents.length === 0) missing.push(generation);
    else transcripts.push(transcript);
  }
  return { transcripts, missing };
}
