/**
 * `flower forget <step|run>`: retention. Deletes the step's sessions (a run's: every step's) from the
 * run's session store; the manifest keeps the records, so `flower show` still tells what they cost and
 * where their handoffs and documents are.
 */
import { resolve } from "node:path";
import { EXIT, UsageError } from "../../errors.js";
import { RunDirectory } from "../../runtime/run-directory.js";
import { parseNonEmpty, type ParsedCommand } from "../args.js";

export async function forgetCommand(parsed: ParsedCommand): Promise<number> {
  const [step, extra] = parsed.positionals;
  if (step === undefined)
    throw new UsageError("flower forget: name the step whose sessions to delete (see flower runs)");
  if (extra !== undefined)
    throw new UsageError(`flower forget: unexpected argument "${extra}" (see flower forget --help)`);
  const runDir = resolve(parseNonEmpty("--run-dir", parsed.values["run-dir"]) ?? "runs");
  const runDirectory = new RunDirectory(runDir);
  // A run id forgets every step of the run; a step name, that step.
  const steps = runDirectory.step(step)
    ? [step]
    : runDirectory
        .steps()
        .filter((record) => record.run === step)
        .map((record) => record.step);
  for (const name of steps.length > 0 ? steps : [step]) {
    const forgotten = await runDirectory.forgetStep(name);
    if (forgotten === null) throw new UsageError(`flower forget: no session store in ${runDir}`);
    const { deleted, from } = forgotten;
    process.stdout.write(`deleted ${deleted} session${deleted === 1 ? "" : "s"} of "${name}" from ${from}\n`);
  }
  return EXIT.ok;
}
