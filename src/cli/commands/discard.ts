/**
 * `flower discard <run>`: the run's branch flower/<run> and its own worktree thrown away; records stay.
 * Options: command-line/command-options.ts `discard` (WORK); the run, checkout, store and runtime:
 * work-commands/work-runtime.ts; words: work-commands/work-text.ts (handed over by
 * work-commands/work-runtime.ts).
 */
import { EXIT } from "../../errors.js";
import type { ParsedCommand } from "../command-line/args.js";
import { displayPath } from "../live/live-run.js";
import { workCommand } from "../work-commands/work-runtime.js";

/**
 * `flower discard <run>`: the run's work thrown away here — its branch flower/<run> and its own worktree
 * (a `--worktree` run's). Its records and checkpoints stay (`flower forget` deletes those).
 */
export async function discardCommand(parsed: ParsedCommand): Promise<number> {
  const { rt, name, text } = await workCommand(parsed, "discard", "run");
  try {
    const discarded = await rt.discard(name);
    process.stdout.write(
      `${text.discarded(discarded.branch, discarded.worktree === null ? null : displayPath(discarded.worktree), name)}\n`,
    );
    return EXIT.ok;
  } finally {
    rt.close();
  }
}
