/**
 * A one-word task that is really a mistyped or guessed command (`flower stauts`, `flower version`,
 * `flower list`) must not start a paid run: it is a usage error naming the command meant, before
 * anything is written or asked of the model. `flower -- <word>` still runs the word as a task.
 */
import { COMMANDS } from "./command-options.js";

/** Words people try for a command flower names differently, and the command line they mean. */
const KNOWN_WORDS: Readonly<Record<string, string>> = {
  version: "flower --version",
  help: "flower --help",
  usage: "flower --help",
  list: "flower runs",
  ls: "flower runs",
  ps: "flower runs",
  status: "flower runs",
  history: "flower runs",
  log: "flower show",
  logs: "flower show",
  info: "flower show",
  resume: "flower continue",
  rm: "flower forget",
  delete: "flower forget",
  undo: "flower rewind",
  revert: "flower rewind",
  rollback: "flower rewind",
  merge: "flower apply",
};

/** Within this many edits of a command name (or of a known word of 5 letters or more), a word is a typo of it. */
const MAX_EDITS = 2;

/**
 * The names a word is compared with: every command, and the known words long enough that two edits do
 * not reach ordinary short words (`ls` is two edits from any two-letter word).
 */
const TYPO_TARGETS: readonly { word: string; meant: string }[] = [
  ...COMMANDS.map((name) => ({ word: name, meant: name === "run" ? 'flower "<task>"' : `flower ${name}` })),
  ...Object.entries(KNOWN_WORDS)
    .filter(([word]) => word.length >= 5)
    .map(([word, meant]) => ({ word, meant })),
];

/**
 * The command line a one-word task most likely meant, or undefined when it reads as a task (more than
 * one word, or not close to any command). `run` itself means the task is still to come: `flower "<task>"`.
 */
export function commandLike(task: string): string | undefined {
  const word = task.trim().toLowerCase();
  if (word === "" || /\s/u.test(word)) return undefined;
  const known = KNOWN_WORDS[word.replace(/^-+/u, "")];
  if (known) return known;
  // Fewest edits wins; on a tie the name of the word's own length (`runz` is `runs`, not `run`).
  let best: { meant: string; edits: number; skew: number } | undefined;
  for (const target of TYPO_TARGETS) {
    const edits = editDistance(word, target.word);
    const skew = Math.abs(target.word.length - word.length);
    if (edits <= MAX_EDITS && (!best || edits < best.edits || (edits === best.edits && skew < best.skew)))
      best = { meant: target.meant, edits, skew };
  }
  return best?.meant;
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
