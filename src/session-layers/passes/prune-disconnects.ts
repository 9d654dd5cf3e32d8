/**
 * Disconnect remnants. While the CLI retries a failed or dropped request it writes synthetic
 * entries: an assistant entry with `isApiErrorMessage: true` ("API Error: 529 Overloaded…") and one
 * `system/api_error` per retry. Fed back, they read as the model's own words and as a history of failures
 * that no longer matter, so they are dropped (chain re-linked). A tool result left by an interruption
 * whose words tell the model the user refused the call and to stop and wait ("The user doesn't want to
 * proceed… Correction to the text above: this call was stopped while running…") becomes a neutral note
 * instead, and the entry stays so the tool_use keeps its answer. A person's rejection at the permission
 * prompt reads the same up to that correction and stays as written: it is the person's decision
 * (transcript-entries.ts says how the two are told apart).
 *
 * Only entries on the resumed chain are touched (resumed-chain.ts), and the note never replaces a shorter text.
 */
import type { Locale } from "../../locale/locale.js";
import { INTERRUPTED_NOTE } from "../store-notice-text.js";
import { removeToolCalls } from "./remove-tool-calls.js";
import { resumedChain } from "./resumed-chain.js";
import type { PassResult } from "./rewrite-report.js";
import {
  isApiErrorRemnant,
  misleadsOnResume,
  onChain,
  replaceResultContent,
  resultText,
  blockChars,
  contentBlocks,
  isToolResult,
  type Entry,
  type ResumedChain,
} from "./transcript-entries.js";

const NO_BLOCKS: readonly unknown[] = [];

export interface PruneDisconnectsOptions {
  locale: Locale;
}

export function pruneDisconnects(
  entries: readonly Entry[],
  options: PruneDisconnectsOptions,
  chain: ResumedChain = resumedChain(entries),
): PassResult {
  const note = INTERRUPTED_NOTE[options.locale];
  const drop = new Set<number>();
  entries.forEach((entry, index) => {
    if (isApiErrorRemnant(entry) && onChain(entry, chain)) drop.add(index);
  });
  const removed = removeToolCalls(entries, [], drop);

  let interrupted = 0;
  let charsSaved = removed.charsRemoved;
  const rewritten = removed.entries.map((entry) => {
    // Made only for an entry that has an interruption: this runs for every entry on every load.
    let replacements: Map<string, string> | undefined;
    const blocks = entry.type === "user" && onChain(entry, chain) ? contentBlocks(entry) : undefined;
    for (const block of blocks ?? NO_BLOCKS) {
      if (!isToolResult(block) || !misleadsOnResume(entry, block) || resultText(block) === note) continue;
      if (blockChars(block) <= note.length) continue;
      (replacements ??= new Map<string, string>()).set(block.tool_use_id, note);
      interrupted += 1;
      charsSaved += blockChars(block) - note.length;
    }
    return replacements === undefined ? entry : replaceResultContent(entry, replacements);
  });

  return { entries: rewritten, report: { prunedApiErrors: drop.size, interrupted, charsSaved } };
}
