/**
 * Expiry of glance results (SPEC C7). The result of `git status`, `ls`, `cat` describes the state at the
 * moment it ran; a few turns later it is not just dead weight but misleading, because it reads like the
 * current state. Older results of ephemeral Bash commands are replaced by a hint naming the command and
 * how many turns ago it ran; the newest `keepEphemeral` stay. Nothing is spilled: archiving an old
 * `git status` is pointless, running it again gives the fresh one.
 *
 * "Turns ago" counts model responses in this transcript after the result (see `turnsAfter`). Whether a
 * command is ephemeral is decided by the same `isEphemeral` table the glance guard uses to allow it.
 */
import type { Locale } from "../../locale/locale.js";
import type { PassResult } from "./report.js";
import {
  blockChars,
  indexToolUses,
  isDenial,
  isInterruptedResult,
  replaceResultContent,
  toolResults,
  turnsAfter,
  type Entry,
} from "./transcript-entries.js";

export interface ExpireEphemeralOptions {
  /** Newest ephemeral results kept verbatim. */
  keepEphemeral: number;
  /** The glance table: true when the command's result goes stale. */
  isEphemeral: (command: string) => boolean;
  locale: Locale;
}

/** The hint comes from the glance table's module: what may run and how its expiry reads live together. */
import { ephemeralExpiredHint as expiredHint } from "../text.js";

interface Candidate {
  index: number;
  toolUseId: string;
  command: string;
  chars: number;
}

export function expireEphemeral(entries: readonly Entry[], options: ExpireEphemeralOptions): PassResult {
  const uses = indexToolUses(entries);
  // A long session repeats the same few glances hundreds of times; the table parses shell, so ask once per command.
  const verdicts = new Map<string, boolean>();
  const ephemeral = (command: string): boolean => {
    let verdict = verdicts.get(command);
    if (verdict === undefined) verdicts.set(command, (verdict = options.isEphemeral(command)));
    return verdict;
  };
  const candidates: Candidate[] = [];
  entries.forEach((entry, index) => {
    if (entry.type !== "user" || isDenial(entry)) return;
    for (const block of toolResults(entry)) {
      const use = uses.get(block.tool_use_id);
      if (use === undefined || use.name !== "Bash") continue;
      const input = use.input as { command?: unknown } | undefined;
      const command = input?.command;
      if (typeof command !== "string" || !ephemeral(command)) continue;
      // An interrupted call produced no state to go stale; its note belongs to the disconnect pass.
      if (isInterruptedResult(entry, block)) continue;
      candidates.push({ index, toolUseId: block.tool_use_id, command, chars: blockChars(block) });
    }
  });

  const expire = candidates.slice(0, Math.max(0, candidates.length - options.keepEphemeral));
  if (expire.length === 0) return { entries: [...entries], report: {} };

  const turns = turnsAfter(entries);
  const byEntry = new Map<number, Map<string, string>>();
  let charsSaved = 0;
  for (const candidate of expire) {
    const hint = expiredHint(candidate.command, turns[candidate.index] ?? 0, options.locale);
    let replacements = byEntry.get(candidate.index);
    if (replacements === undefined) byEntry.set(candidate.index, (replacements = new Map<string, string>()));
    replacements.set(candidate.toolUseId, hint);
    charsSaved += candidate.chars - hint.length;
  }
  const rewritten = entries.map((entry, index) => {
    const replacements = byEntry.get(index);
    return replacements === undefined ? entry : replaceResultContent(entry, replacements);
  });
  return { entries: rewritten, report: { expired: expire.length, charsSaved } };
}
