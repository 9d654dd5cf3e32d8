/**
 * `flower apply <run> [--squash]`: the run's branch flower/<run> into your current branch, merged or staged
 * squashed. Options: command-line/command-options.ts `apply`; the run, checkout, store and runtime:
 * work-commands/work-runtime.ts; words: work-commands/work-text.ts (handed over by
 * work-commands/work-runtime.ts).
 */
import { EXIT } from "../../errors.js";
import { gitText } from "../../checkpoints/git.js";
import type { ParsedCommand } from "../command-line/args.js";
import { workCommand } from "../work-commands/work-runtime.js";

/**
 * `flower apply <run> [--squash]`: the run's branch flower/<run> into your current branch — a merge, or
 * its changes staged squashed for you to commit. Refused (exit 2, nothing changed) over uncommitted
 * changes to tracked files, on a conflict, and for a run that worked in this checkout itself.
 */
export async function applyCommand(parsed: ParsedCommand): Promise<number> {
  const { rt, name, text, workspace } = await workCommand(parsed, "apply", "run");
  try {
    const applied = await rt.apply(name, { squash: parsed.values.squash === true });
    const into = await gitText(["symbolic-ref", "--quiet", "--short", "HEAD"], {
      cwd: workspace,
      ok: [0, 1],
    });
    const line =
      applied.how === "up-to-date"
        ? text.upToDate(applied.branch)
        : applied.how === "squash"
          ? text.squashed(applied.branch, applied.files.length)
          : text.merged(applied.branch, into === "" ? "HEAD" : into, applied.files.length);
    process.stdout.write(`${line}\n`);
    return EXIT.ok;
  } finally {
    rt.close();
  }
}
