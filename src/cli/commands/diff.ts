/**
 * `flower diff <run>`: what a run changed, as git prints it (the whole run, one step or one generation).
 * Options: command-line/command-options.ts `diff`, parsed by command-line/args.ts; the run, checkout, store
 * and runtime: work-commands/work-runtime.ts.
 */
import { EXIT, UsageError } from "../../errors.js";
import { parseGeneration, parseNonEmpty, type ParsedCommand } from "../command-line/args.js";
import { workCommand } from "../work-commands/work-runtime.js";

/**
 * `flower diff <run> [--generation N] [--step NAME] [--stat | --name-only]`: what a run changed, as git
 * prints it — the whole run (from the files as it found them, your uncommitted changes included, to its
 * last checkpoint), one step, or one generation. With --store, from whichever machine ran it.
 */
export async function diffCommand(parsed: ParsedCommand): Promise<number> {
  if (parsed.values.stat === true && parsed.values["name-only"] === true)
    throw new UsageError("flower diff: --stat or --name-only, not both");
  const generation = parseGeneration(parsed.values.generation);
  const { rt, name, locale, text } = await workCommand(parsed, "diff", "run");
  try {
    const step = parseNonEmpty("--step", parsed.values.step, locale);
    const patch = await rt.diff(name, {
      ...(step !== undefined ? { step } : {}),
      ...(generation !== undefined ? { generation } : {}),
      format: parsed.values.stat === true ? "stat" : parsed.values["name-only"] === true ? "names" : "patch",
      color: process.stdout.isTTY === true && process.env.NO_COLOR === undefined,
    });
    // Nothing printed would read as "did it work?": an empty diff says so, on stderr (a patch file stays empty).
    if (patch === "") process.stderr.write(`${text.noChanges(name, step ?? null, generation ?? null)}\n`);
    else process.stdout.write(patch);
    return EXIT.ok;
  } finally {
    rt.close();
  }
}
