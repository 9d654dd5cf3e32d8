/**
 * Expiry of glance results. The result of `git status`, `ls`, `cat` describes the state at the
 * moment it ran; a few turns later it is not just dead weight but misleading, because it reads like the
 * current state. Older results of ephemeral Bash commands are replaced by a hint naming the command and
 * how many turns ago it ran; the newest `keepEphemeral` stay. Nothing is spilled: archiving an old
 * `git status` is pointless, running it again gives the fresh one.
 *
 * "Turns ago" counts model responses in this transcript after the result (see `turnsAfter`). Whether a
 * command is ephemeral is decided by the same `isEphemeral` table the glance guard uses to allow it.
 *
 * Counted and rewritten on the resumed chain only (resumed-chain.ts): the newest `keepEphemeral` are the
 * newest the model will see again. A result no longer than its hint stays as it is: an empty `ls` or a
 * one-line `git status` replaced by a 120-character hint made the context bigger (28 of 89 expiries on
 * real transcripts did).
 */
import type { Locale } from "../../locale/locale.js";
import type { PassResult, RewriteReport } from "./rewrite-report.js";
import { ResultReplacements, scanResults, type ResultScan } from "./result-scan.js";
import { blockChars, turnsAfter, type Entry, type ResumedChain } from "./transcript-entries.js";

export interface ExpireEphemeralOptions {
  /** Newest ephemeral results kept verbatim. */
  keepEphemeral: number;
  /** The glance table: true when the command's result goes stale. */
  isEphemeral: (command: string) => boolean;
  locale: Locale;
}

/** The hint comes from the glance table's module: what may run and how its expiry reads live together. */
import { EPHEMERAL_EXPIRED, ephemeralLabel } from "../store-notice-text.js";

interface Candidate {
  index: number;
  toolUseId: string;
  command: string;
  chars: number;
}

export function expireEphemeral(
  entries: readonly Entry[],
  options: ExpireEphemeralOptions,
  chain?: ResumedChain,
): PassResult {
  const replacements = new ResultReplacements();
  const report = planExpiry(scanResults(entries, chain), options, replacements);
  return { entries: replacements.apply(entries), report };
}

/** The expiry's decisions on a scanned transcript, added to `replacements`; what it saves, for the report. */
export function planExpiry(
  scan: ResultScan,
  options: ExpireEphemeralOptions,
  replacements: ResultReplacements,
): Partial<RewriteReport> {
  // A long session repeats the same few glances hundreds of times; the table parses shell, so ask once per command.
  const verdicts = new Map<string, boolean>();
  const ephemeral = (command: string): boolean => {
    let verdict = verdicts.get(command);
    if (verdict === undefined) verdicts.set(command, (verdict = options.isEphemeral(command)));
    return verdict;
  };
  const candidates: Candidate[] = [];
  for (const { index, block, skip } of scan.results) {
    // A denial belongs to its own pass; an interrupted call produced no state to go stale, and its note
    // belongs to the disconnect pass.
    if (skip) continue;
    const use = scan.uses.get(block.tool_use_id);
    if (use === undefined || use.name !== "Bash") continue;
    const input = use.input as { command?: unknown } | undefined;
    const command = input?.command;
    if (typeof command !== "string" || !ephemeral(command)) continue;
    candidates.push({ index, toolUseId: block.tool_use_id, command, chars: blockChars(block) });
  }

  const expire = candidates.slice(0, Math.max(0, candidates.length - options.keepEphemeral));
  if (expire.length === 0) return {};

  const turns = turnsAfter(scan.entries, scan.chain);
  const hintOf = EPHEMERAL_EXPIRED[options.locale];
  // ephemeralExpiredHint, with each command labelled once: a long session expires the same few hundreds of times.
  const labels = new Map<string, string>();
  let expired = 0;
  let charsSaved = 0;
  for (const candidate of expire) {
    let label = labels.get(candidate.command);
    if (label === undefined) labels.set(candidate.command, (label = ephemeralLabel(candidate.command)));
    const hint = hintOf(label, turns[candidate.index] ?? 0);
    if (hint.length >= candidate.chars) continue;
    replacements.set(candidate.index, candidate.toolUseId, hint);
    expired += 1;
    charsSaved += candidate.chars - hint.length;
  }
  return expired === 0 ? {} : { expired, charsSaved };
}
