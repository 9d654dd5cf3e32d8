/**
 * A one-word task that is really a mistyped or guessed command (`flower stauts`, `flower version`,
 * `flower list`) must not start a paid run: it is a usage error naming the command meant, before
 * anything is written or asked of the model. `flower -- <word>` still runs the word as a task. A
 * mistyped option (`--windwo`) is named with the option meant, too.
 */
import { typed } from "../../locale/invocation.js";
import { COMMAND_OPTIONS, COMMANDS, type CommandName } from "./command-options.js";

/**
 * Words people try for a command flower names differently, and the command line they mean (after
 * `flower`, which is written as the person's shell reaches it: locale/invocation.ts).
 */
const KNOWN_WORDS: Readonly<Record<string, string>> = {
  version: "--version",
  help: "--help",
  usage: "--help",
  list: "runs",
  ls: "runs",
  ps: "runs",
  status: "runs",
  history: "runs",
  log: "show",
  logs: "show",
  info: "show",
  resume: "continue",
  rm: "forget",
  delete: "forget",
  undo: "rewind",
  revert: "rewind",
  rollback: "rewind",
  merge: "apply",
};

/** Within this many edits of a command name (or of a known word of 5 letters or more), a word is a typo of it. */
const MAX_EDITS = 2;

/**
 * The names a word is compared with, each with how far a typo of it may stray. Every command, and the
 * known words long enough that two edits do not reach ordinary short words (`ls` is two edits from any
 * two-letter word), within two edits.
 *
 * A known word of 4 letters (`list`, `logs`, `info`) is matched by a slip of the fingers only: two
 * neighbours swapped (`lsit`), a letter left out (`lst`) or one too many (`liist`); one of 3 letters
 * (`log`) by a swap only (a letter more makes `blog`, `long`). One letter changed is not a slip: in a
 * short word it usually makes another word, a real one-word task (`lint`, `last`). A known word of 2
 * letters is matched as written. A refusal costs the person
 * `flower -- <word>`; a typo let through costs a paid run (`flower lsit` started one), so the matching
 * leans to refusing.
 */
const TYPO_TARGETS: readonly { word: string; meant: string; near: (word: string) => number | null }[] = [
  ...COMMANDS.map((name) => ({
    word: name,
    meant: name === "run" ? '"<task>"' : name,
    near: (word: string) => withinEdits(word, name, MAX_EDITS),
  })),
  ...Object.entries(KNOWN_WORDS)
    .filter(([word]) => word.length >= 3)
    .map(([known, meant]) => ({
      word: known,
      meant,
      near: (word: string) => (known.length >= 5 ? withinEdits(word, known, MAX_EDITS) : slipOf(word, known)),
    })),
];

/** The edits between the two words when they are at most `max`, else null. */
function withinEdits(word: string, target: string, max: number): number | null {
  const edits = editDistance(word, target);
  return edits <= max ? edits : null;
}

/**
 * 1 when `word` is `target` with two neighbours swapped, or (a target of 4 letters) one letter left out
 * or one added; else null (the word itself is answered by KNOWN_WORDS before).
 */
function slipOf(word: string, target: string): number | null {
  const edits = editDistance(word, target);
  if (edits !== 1) return null;
  if (word.length !== target.length) return target.length >= 4 ? 1 : null;
  // Same length and one edit: a swap keeps the letters, a changed letter does not.
  const sorted = (text: string) => Array.from(text).sort().join("");
  return sorted(word) === sorted(target) ? 1 : null;
}

/**
 * The command line a one-word task most likely meant, or undefined when it reads as a task (more than
 * one word, or not close to any command). `run` itself means the task is still to come: `flower "<task>"`.
 */
export function commandLike(task: string): string | undefined {
  const word = task.trim().toLowerCase();
  if (word === "" || /\s/u.test(word)) return undefined;
  const known = KNOWN_WORDS[word.replace(/^-+/u, "")];
  if (known) return typed(known);
  // Fewest edits wins; on a tie the name of the word's own length (`runz` is `runs`, not `run`).
  let best: { meant: string; edits: number; skew: number } | undefined;
  for (const target of TYPO_TARGETS) {
    const edits = target.near(word);
    const skew = Math.abs(target.word.length - word.length);
    if (edits !== null && (!best || edits < best.edits || (edits === best.edits && skew < best.skew)))
      best = { meant: target.meant, edits, skew };
  }
  return best ? typed(best.meant) : undefined;
}

/**
 * The option of `command` a mistyped long option most likely meant (`--windwo` → `--window`): within
 * two edits of a name of 5 letters or more, one of a shorter name; undefined when none is that close.
 */
export function optionLike(option: string, command: CommandName): string | undefined {
  if (!option.startsWith("--")) return undefined;
  const word = option.slice(2).split("=")[0]!.toLowerCase();
  let best: { name: string; edits: number } | undefined;
  for (const name of Object.keys(COMMAND_OPTIONS[command])) {
    const edits = withinEdits(word, name, name.length >= 5 ? MAX_EDITS : 1);
    if (edits !== null && (!best || edits < best.edits)) best = { name, edits };
  }
  return best ? `--${best.name}` : undefined;
}

/** Edits between two words: insertions, deletions, substitutions, and swaps of neighbours (`stauts`). */
export function editDistance(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[x.length]![y.length]!;
}
