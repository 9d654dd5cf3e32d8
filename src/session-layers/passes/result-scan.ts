/**
 * The tool results of a transcript read in one walk, and the content replacements planned on them.
 * Expiry and trim each decide per tool result and each only replaces a result's content; in one load they
 * share this scan and apply what both decided in one more walk, instead of walking a 20k-entry transcript
 * twice or three times each (bench workload 4). Each pass keeps its own rule in its own file: it plans on
 * the scan, and run alone it scans and applies for itself.
 *
 * Planning in order is the same as passing in order: a later plan reads a result through what an earlier
 * one put there (`ResultReplacements.textOf`) and its replacement wins, so expiry then trim gives exactly
 * the transcript the two passes give one after the other.
 *
 * Only results on the resumed chain are scanned (resumed-chain.ts): a result the binary never sends is
 * neither counted among the newest nor rewritten.
 */
import { resumedChain } from "./resumed-chain.js";
import {
  contentBlocks,
  isInterruptedResult,
  isPersonsRejection,
  isToolResult,
  isToolUse,
  onChain,
  replaceResultContent,
  resultText,
  type Entry,
  type ToolResultBlock,
  type ToolUseBlock,
  type ResumedChain,
} from "./transcript-entries.js";

export interface ScannedResult {
  /** Index of the user entry holding the result. */
  index: number;
  block: ToolResultBlock;
  /**
   * A denied, refused or interrupted call: neither expiry nor trim touches it. A denial and an
   * interruption have their own passes; a person's rejection is never rewritten.
   */
  skip: boolean;
}

export interface ResultScan {
  entries: readonly Entry[];
  /** The uuids the binary sends on resume. */
  chain: ResumedChain;
  /** Every tool_result block of every user entry on the chain, in transcript order. */
  results: ScannedResult[];
  /** tool_use id → the tool_use block, over the whole transcript (a later duplicate wins). */
  uses: Map<string, ToolUseBlock>;
}

export function scanResults(
  entries: readonly Entry[],
  chain: ResumedChain = resumedChain(entries),
): ResultScan {
  const results: ScannedResult[] = [];
  const uses = new Map<string, ToolUseBlock>();
  entries.forEach((entry, index) => {
    if (entry.type !== "user" && entry.type !== "assistant") return;
    const blocks = contentBlocks(entry);
    if (blocks === undefined) return;
    // The blocks are read in place (no toolUses/toolResults arrays): this runs for every entry on every load.
    if (entry.type === "assistant") {
      for (const block of blocks) if (isToolUse(block)) uses.set(block.id, block);
      return;
    }
    if (!onChain(entry, chain)) return;
    // Any denial kind (a rule's, a person's, the auto-mode classifier's, an abort) marks a call that did
    // not run as asked: it left no state to go stale.
    const denied = entry["toolDenialKind"] !== undefined;
    for (const block of blocks) {
      if (!isToolResult(block)) continue;
      const skip = denied || isInterruptedResult(entry, block) || isPersonsRejection(entry, block);
      results.push({ index, block, skip });
    }
  });
  return { entries, chain, results, uses };
}

/** entry index → tool_use_id → the result's new content. */
export class ResultReplacements {
  readonly #byEntry = new Map<number, Map<string, string>>();

  set(index: number, toolUseId: string, content: string): void {
    let replacements = this.#byEntry.get(index);
    if (replacements === undefined) this.#byEntry.set(index, (replacements = new Map<string, string>()));
    replacements.set(toolUseId, content);
  }

  /** The result's text as the passes planned so far leave it (undefined: not only text, e.g. images). */
  textOf(result: ScannedResult): string | undefined {
    return this.#byEntry.get(result.index)?.get(result.block.tool_use_id) ?? resultText(result.block);
  }

  /** A new entry list with every planned replacement in; unchanged entries are the same objects. */
  apply(entries: readonly Entry[]): Entry[] {
    if (this.#byEntry.size === 0) return [...entries];
    return entries.map((entry, index) => {
      const replacements = this.#byEntry.get(index);
      return replacements === undefined ? entry : replaceResultContent(entry, replacements);
    });
  }
}
