/**
 * Trim (off by default). Long tool results are the bulk of a resumed main thread's history. On
 * load, each one of at least `minChars` is moved to a file under `<workspace>/.flower/spill/` and its
 * content replaced by a pointer; the newest `keepRecent` tool results (any size, any tool) are left as
 * they are, since the work in progress still leans on them. The folder is inside the workspace, not the
 * workbench root the spill guard writes to: the agent's Read must be able to reach it.
 *
 * Like every pass that replaces content, it never puts in something longer than what was there, and it
 * counts the newest results on the resumed chain (resumed-chain.ts), where it alone rewrites.
 *
 * The pass stays pure: it returns the files to write and the store writes them. File names are the
 * content's hash, so loading the same session twice writes nothing new, and a spill file that the agent
 * read back (and that is trimmed again later) maps onto itself instead of multiplying.
 */
import * as crypto from "node:crypto";
import { join } from "node:path";
import type { Locale } from "../../locale/locale.js";
import { TRIM_POINTER } from "../store-notice-text.js";
import type { PassResult, RewriteReport } from "./rewrite-report.js";
import { ResultReplacements, scanResults, type ResultScan } from "./result-scan.js";
import type { Entry, ResumedChain } from "./transcript-entries.js";

export interface TrimResultsOptions {
  /** Newest tool results never trimmed. */
  keepRecent: number;
  /** Results with at least this many characters are trimmed. */
  minChars: number;
  /** Absolute folder the spill files go to (`<workspace>/.flower/spill`). */
  spillDir: string;
  locale: Locale;
}

export interface SpillFile {
  path: string;
  content: string;
}

export interface TrimResult extends PassResult {
  /** Files the caller must write before the trimmed entries are handed out. */
  spills: SpillFile[];
}

/**
 * sha256 of the text's UTF-8 bytes, in hex. Every load hashes each result it trims (about a thousand in a
 * 20k-entry session); the one-shot `crypto.hash` (Node 20.12+) does that about three times faster than a
 * `createHash` object per text, which stays as the fallback for older Node 20 releases. Same digest either way.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === "function"
    ? (text) => crypto.hash("sha256", text, "hex")
    : (text) => crypto.createHash("sha256").update(text).digest("hex");

export function spillPath(spillDir: string, text: string): string {
  return join(spillDir, `trim-${sha256Hex(text).slice(0, 20)}.txt`);
}

export function trimResults(
  entries: readonly Entry[],
  options: TrimResultsOptions,
  chain?: ResumedChain,
): TrimResult {
  const replacements = new ResultReplacements();
  const { report, spills } = planTrim(scanResults(entries, chain), options, replacements);
  return { entries: replacements.apply(entries), report, spills };
}

/**
 * The trim's decisions on a scanned transcript, added to `replacements`. A result an earlier plan replaced
 * (an expiry hint) is judged by its new text, as if that pass had run first.
 */
export function planTrim(
  scan: ResultScan,
  options: TrimResultsOptions,
  replacements: ResultReplacements,
): { report: Partial<RewriteReport>; spills: SpillFile[] } {
  const { results } = scan;
  const older = Math.max(0, results.length - options.keepRecent);
  const spills = new Map<string, SpillFile>();
  let trimmed = 0;
  let charsSaved = 0;
  for (let position = 0; position < older; position += 1) {
    const result = results[position]!;
    // Denials and interruption notes are short, and belong to their own passes.
    if (result.skip) continue;
    // A result holding images is never trimmed (undefined text): its blocks cannot become a text file.
    const text = replacements.textOf(result);
    if (text === undefined || text.length < options.minChars) continue;
    const path = spillPath(options.spillDir, text);
    const pointer = TRIM_POINTER[options.locale](path, text.length);
    // A small `minChars` must not turn a result into a longer pointer.
    if (pointer.length >= text.length) continue;
    spills.set(path, { path, content: text });
    replacements.set(result.index, result.block.tool_use_id, pointer);
    trimmed += 1;
    charsSaved += text.length - pointer.length;
  }
  if (trimmed === 0) return { report: {}, spills: [] };
  return { report: { trimmed, charsSaved }, spills: [...spills.values()] };
}
