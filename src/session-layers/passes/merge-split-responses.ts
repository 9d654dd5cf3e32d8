/**
 * Restores alternating roles after a removal (remove-tool-calls.ts says why it is needed), by giving
 * split responses one `message.id` so the CLI sends them as one assistant message.
 *
 * How the CLI groups entries (CLI 2.1.332, probed through the kit; test/unit/session-layers/cli-messages.ts
 * models it): an assistant entry joins the latest earlier assistant message with the same id, searching
 * back past other responses and past user messages that carry a tool result, up to a prompt. So a label
 * reaches further than the run it sits in. A repair that renamed across a user entry (`a, b | c, b` →
 * `a, a | c, a`) sent the last entry looking for `a`: past a tool result it landed in the first message,
 * ahead of the result and of `c`'s words; behind a prompt it stayed a message of its own, next to `c`'s;
 * and a second repair renamed it again (to `c`). The rule here looks at one run of adjacent assistant
 * entries (no user entry between) at a time and takes the label from inside that run, so it cannot drift.
 */
import { isRecord, type Entry } from "./transcript-entries.js";

/** The response an assistant entry belongs to: its `message.id` (the CLI writes one entry per block). */
function responseId(entry: Entry): string | undefined {
  const message = entry["message"];
  return isRecord(message) && typeof message["id"] === "string" ? message["id"] : undefined;
}

/**
 * Gives every assistant entry of a run (adjacent assistant entries, no user entry between) the
 * `message.id` of the run's first entry, so the CLI sends the run as one assistant message: the sentence
 * the model wrote before its denied call, followed by what it did next. A run that already has one id is
 * left alone, and the first entry of a run is never renamed, so applying this twice changes nothing more
 * (f(f(x)) = f(x)) and no label crosses a user entry. A run whose id the CLI finds in an earlier message
 * (the response continues after a tool result, as parallel calls do) joins that message as a whole,
 * which keeps roles alternating too: the user entries on either side of it then merge.
 *
 * Why merge rather than drop the orphaned sentence: it is the model's own reasoning ("the tests need the
 * database; let me start it"), often the only trace of why it did what followed. Dropping it would be
 * simpler and lose exactly the words the handoff and the next turn lean on. Inserting a user message to
 * separate the two would put words in the user's mouth. Merging keeps every word, in order, as the
 * model's; the only cost is that two responses count as one turn for expiry, which is one turn fewer.
 *
 * Works on array order, which is the chain's order in a transcript the CLI wrote (one per file).
 * Entries that are neither user nor assistant (attachments, system entries) do not end a run: the CLI
 * sends no user turn for them.
 */
export function mergeSplitResponses(entries: Entry[]): Entry[] {
  /** The response id of the current run's first assistant entry; undefined before a run starts. */
  let run: string | undefined;
  return entries.map((entry) => {
    if (entry.type === "user" && isRecord(entry["message"])) {
      run = undefined;
      return entry;
    }
    if (entry.type !== "assistant") return entry;
    const id = responseId(entry);
    if (id === undefined) return entry;
    run ??= id;
    if (id === run) return entry;
    return { ...entry, message: { ...(entry["message"] as Record<string, unknown>), id: run } };
  });
}
