/**
 * `flower fetch <run>`: the run's work as the branch flower/<run> of this checkout's repository. Options:
 * command-line/command-options.ts `fetch` (WORK); the run, checkout, store and runtime:
 * work-commands/work-runtime.ts; words: work-commands/work-text.ts (handed over by
 * work-commands/work-runtime.ts).
 */
import { EXIT } from "../../errors.js";
import type { ParsedCommand } from "../command-line/args.js";
import { displayPath } from "../live/live-run.js";
import { workCommand } from "../work-commands/work-runtime.js";

/**
 * `flower fetch <run>`: the run's work as the branch flower/<run> of this checkout's repository, built
 * from its checkpoints — with --store, whichever machine ran it (a fleet worker, a colleague's laptop).
 */
export async function fetchCommand(parsed: ParsedCommand): Promise<number> {
  const { rt, name, text } = await workCommand(parsed, "fetch", "run");
  try {
    const fetched = await rt.fetch(name);
    process.stdout.write(
      `${fetched === null ? text.nothingToFetch(name) : text.fetched(fetched.branch, fetched.commits, displayPath(fetched.repository), name)}\n`,
    );
    return EXIT.ok;
  } finally {
    rt.close();
  }
}
