/**
 * Where turn T of a session ends in its transcript, for `flower rewind <step> --to G --turn T`: the
 * entry a resumed session goes on from (`resumeSessionAt`), and which tool calls belong to turns up to T
 * and which to the turns after it (their checkpoints are taken back with them).
 *
 * A turn is one main-thread model response, as `flower show` counts them: the binary splits a response
 * into one entry per content block, all with the same `message.id`; a subagent's entries
 * (`isSidechain`) and the binary's own messages (`<synthetic>`) are not turns.
 */
import {
  isRecord,
  toolResults,
  toolUses,
  type Entry,
} from "../../session-layers/passes/transcript-entries.js";

export interface TurnPoint {
  /** The uuid of the last entry of turn T: its last call's result, or the response itself. */
  uuid: string;
  /** Tool calls made in turns 1 to T. */
  kept: Set<string>;
  /** Tool calls made after turn T. */
  undone: Set<string>;
  /** How many turns the transcript has. */
  turns: number;
}

/** Turn `turn` of the transcript's main thread; null when it has fewer turns. */
export function turnPoint(entries: readonly Entry[], turn: number): TurnPoint | null {
  const responses: string[] = [];
  const callsOf = new Map<string, string[]>();
  const lastEntryOf = new Map<string, string>();
  const turnOfCall = new Map<string, number>();
  for (const entry of entries) {
    if (entry["isSidechain"] === true || typeof entry.uuid !== "string") continue;
    if (entry.type === "assistant") {
      const message = entry["message"];
      if (!isRecord(message) || message["model"] === "<synthetic>" || typeof message["id"] !== "string")
        continue;
      const id = message["id"];
      if (!responses.includes(id)) responses.push(id);
      lastEntryOf.set(id, entry.uuid);
      for (const call of toolUses(entry)) {
        callsOf.set(id, [...(callsOf.get(id) ?? []), call.id]);
        turnOfCall.set(call.id, responses.indexOf(id) + 1);
      }
    } else if (entry.type === "user") {
      // A call's result ends its turn (the last of them, when the response made several calls).
      for (const result of toolResults(entry)) {
        const of = turnOfCall.get(result.tool_use_id);
        if (of !== undefined) lastEntryOf.set(responses[of - 1]!, entry.uuid);
      }
    }
  }
  if (turn < 1 || turn > responses.length) return null;
  const kept = new Set<string>();
  const undone = new Set<string>();
  for (const [call, of] of turnOfCall) (of <= turn ? kept : undone).add(call);
  return { uuid: lastEntryOf.get(responses[turn - 1]!)!, kept, undone, turns: responses.length };
}
