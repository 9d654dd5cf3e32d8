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
 */
import {
  contentBlocks,
  isDenial,
  isInterruptedResult,
  isToolResult,
  isToolUse,
  replaceResultContent,
  resultText,
  type Entry,
  type ToolResultBlock,
  type ToolUseBlock,
} from "./transcript-entries.js";

export interface ScannedResult {
  /** Index of the user entry holding the result. */
  index: number;
  block: ToolResultBlock;
  /** A denial or an interruption: neither expiry nor trim touches it (each has its own pass). */
  skip: boolean;
}

export interface ResultScan {
  entries: readonly Entry[];
  /** Every tool_result block of every user entry, in transcript order. */
  results: ScannedResult[];
  /** tool_use id → the tool_use block, over the whole transcript (a later duplicate wins). */
  uses: Map<string, ToolUseBlock>;
}

export function scanResults(entries: readonly Entry[]): ResultScan {
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
    const denial = isDenial(entry);
    for (const block of blocks) {
      if (!isToolResult(block)) continue;
      results.push({ index, block, skip: denial || isInterruptedResult(entry, block) });
    }
  });
  return { entries, results, uses };
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
