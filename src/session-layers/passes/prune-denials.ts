/**
 * Denied calls. A denial is a tool_result that stays in context for good next to the command
 * that never ran (measured: 93 chars of denial + 180 chars of dead command), and worse, a few of them
 * teach the coordinator that "Bash is restricted" so it stops trying even the allowed `git status`
 * (learned helplessness, ~4.3k per needless subagent). Older denials are removed with their tool_use; the
 * newest `keepDenials` stay, because the latest one is a valid signal that stops the model retrying the
 * same call. Recognised only by the harness's marker `toolDenialKind: "permission-rule"`, never by text;
 * a person's "no" carries the same marker and is never pruned (`isDenial`). Counted on the resumed chain
 * (resumed-chain.ts): the newest denial kept is the newest the model will see again.
 */
import type { PassResult } from "./rewrite-report.js";
import { removeToolCalls } from "./remove-tool-calls.js";
import { resumedChain } from "./resumed-chain.js";
import { isDenial, onChain, toolResults, type Entry, type ResumedChain } from "./transcript-entries.js";

export interface PruneDenialsOptions {
  /** Newest denial entries kept verbatim. */
  keepDenials: number;
}

export function pruneDenials(
  entries: readonly Entry[],
  options: PruneDenialsOptions,
  chain: ResumedChain = resumedChain(entries),
): PassResult {
  const denials: number[] = [];
  entries.forEach((entry, index) => {
    if (isDenial(entry) && toolResults(entry).length > 0 && onChain(entry, chain)) denials.push(index);
  });
  const prune = denials.slice(0, Math.max(0, denials.length - options.keepDenials));
  if (prune.length === 0) return { entries: [...entries], report: {} };

  const ids = prune.flatMap((index) =>
    toolResults(entries[index] as Entry).map((block) => block.tool_use_id),
  );
  const removed = removeToolCalls(entries, ids);
  return {
    entries: removed.entries,
    report: { prunedDenials: ids.length, charsSaved: removed.charsRemoved },
  };
}
