/**
 * The search behind a successor's recall tool (agents/recall-subagent.ts): the step's earlier
 * generations' transcripts, read from the runtime's store (SQLite or the shared store, whichever the step
 * uses) below its rewrite passes, searched and redacted by session-layers/recall-search.ts, bounded by the
 * defaults. The transcripts are read once per session, at its first question: they belong to
 * generations that are over, so they do not change while it runs.
 */
import type { RecallSearch } from "../../agents/recall-subagent.js";
import { DEFAULTS } from "../../defaults.js";
import type { Locale } from "../../locale/locale.js";
import type { PruningSessionStore } from "../../session-layers/pruning-store.js";
import { searchTranscripts } from "../../session-layers/recall-search.js";
import { loadEarlierTranscripts, type GenerationSessions } from "../../session-layers/recall-transcripts.js";

export function recallSearch(
  store: PruningSessionStore,
  earlier: readonly GenerationSessions[],
  locale: Locale,
  redact: (text: string) => string,
): RecallSearch {
  let loading: ReturnType<typeof loadEarlierTranscripts> | null = null;
  const reader = {
    // The rows as written: a resume's rewrites (an expired glance, a trimmed result) are not the record.
    load: (key: Parameters<PruningSessionStore["load"]>[0]) => store.inner.load(key),
    listSubkeys: (key: { projectKey: string; sessionId: string }) => store.listSubkeys(key),
    projectKeysOf: (sessionId: string) => store.projectKeysOf(sessionId),
  };
  return async (query) => {
    loading ??= loadEarlierTranscripts(reader, earlier);
    let loaded: Awaited<typeof loading>;
    try {
      loaded = await loading;
    } catch (error) {
      loading = null; // The next question tries the store again.
      throw error;
    }
    return searchTranscripts(loaded.transcripts, query, {
      locale,
      maxChars: DEFAULTS.recallMaxChars,
      passageChars: DEFAULTS.recallPassageChars,
      maxPassages: DEFAULTS.recallMaxPassages,
      redact,
      missing: loaded.missing,
    }).text;
  };
}
