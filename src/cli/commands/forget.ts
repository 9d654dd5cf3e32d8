/**
 * `flower forget <step>`: retention. Deletes the step's sessions from the run's session store; the
 * manifest keeps its record, so `flower show` still tells what it cost and where its handoffs are.
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
  const forgotten = await new RunDirectory(runDir).forgetStep(step);
  if (forgotten === null) throw new UsageError(`flower forget: no session store in ${runDir}`);
  const { deleted, from } = forgotten;
  process.stdout.write(`deleted ${deleted} session${deleted === 1 ? "" : "s"} of "${step}" from ${from}\n`);
  return EXIT.ok;
}
