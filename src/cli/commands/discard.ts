/**
 * `flower discard <run>`: the run's work thrown away here — its branch flower/<run> and its own worktree
 * (a `--worktree` run's). Its records and checkpoints stay (`flower forget` deletes those).
 */
import { EXIT } from "../../errors.js";
import type { ParsedCommand } from "../args.js";
import { displayPath } from "../live-run.js";
import { workCommand } from "../work-runtime.js";

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
