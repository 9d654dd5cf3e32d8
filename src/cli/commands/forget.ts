/**
 * `flower forget <step|run>`: a step's (or run's) sessions deleted, and with --store all it left there.
 * Options: command-line/command-options.ts `forget`; store: command-line/store-option.ts; the kept --notify
 * targets: live/remembered-notify.ts; words: command-line/usage-text.ts.
 */
import { EXIT, LeaseHeldError, UsageError } from "../../errors.js";
import type { StepRecord } from "../../records/step-record.js";
import { runDirectory as runDirectoryPath } from "../../storage/files.js";
import { forgetNotify } from "../live/remembered-notify.js";
import { RunDirectory } from "../../storage/run-directory.js";
import { openStoreView } from "../../storage/store-view.js";
import type { StoreSpec } from "../../storage/store-spec.js";
import { parseLang, parseNonEmpty, type ParsedCommand } from "../command-line/args.js";
import { storeOption } from "../command-line/store-option.js";
import { USAGE_TEXT } from "../command-line/usage-text.js";
import { resolveLocale } from "../../locale/locale.js";

/**
 * `flower forget <step|run>`: retention.
 * - In a run directory: deletes the step's sessions (a run's: every step's), its reviewer sessions
 *   included, from the run's session store; the manifest keeps the records, so `flower show` still
 *   tells what they cost and where their handoffs and documents are. A step a live driver holds is
 *   refused, naming the holder (exit 2).
 * - In a shared store (`--store`, FLOWER_STORE): deletes the step's sessions, the files it saved there
 *   (`flower_files`), its lease and its record, and for a fleet run (`flower submit`) its fleet row and
 *   ended queue jobs, in one transaction, and the local copy of the record — nothing of it is left for
 *   another machine to continue, nor for `flower runs` to list. A step a live driver holds is refused,
 *   naming the holder (exit 2), as `flower continue` refuses it; so is a fleet run that is queued,
 *   paused or running, naming `flower cancel` (forget stops nothing).
 */
export async function forgetCommand(parsed: ParsedCommand): Promise<number> {
  // --workspace comes with a line carried from another command: taken, not needed here.
  const usage = USAGE_TEXT[resolveLocale(parseLang(parsed.values.lang))];
  const [step, extra] = parsed.positionals;
  if (step === undefined) throw new UsageError(usage.forgetWhich);
  if (extra !== undefined) throw new UsageError(usage.unexpected("forget", extra));
  const runDir = runDirectoryPath(parseNonEmpty("--run-dir", parsed.values["run-dir"]));
  const store = storeOption(parsed.values);
  if (store.spec.kind === "postgres") return forgetInStore(store.spec, step, runDir);
  const runDirectory = new RunDirectory(runDir);
  // A run id forgets every step of the run; a step name, that step.
  const steps = runDirectory.step(step)
    ? [step]
    : runDirectory
        .steps()
        .filter((record) => record.run === step)
        .map((record) => record.step);
  // Sessions a live driver is appending to are not deleted from under it: the same refusal as continue's.
  const holders = runDirectory.holders();
  for (const name of steps) {
    const holder = holders.get(name);
    if (holder) throw new LeaseHeldError(name, holder);
  }
  for (const name of steps.length > 0 ? steps : [step]) {
    const forgotten = await runDirectory.forgetStep(name);
    if (forgotten === null) throw new UsageError(usage.noSessionStore(runDir));
    const { deleted, from } = forgotten;
    process.stdout.write(`deleted ${deleted} session${deleted === 1 ? "" : "s"} of "${name}" from ${from}\n`);
  }
  forgetNotify(runDir, [step, ...steps]);
  return EXIT.ok;
}

/** `flower forget <step|run> --store postgres://…`: the step is gone from the fleet. */
async function forgetInStore(
  spec: Extract<StoreSpec, { kind: "postgres" }>,
  name: string,
  runDir: string,
): Promise<number> {
  const view = openStoreView(spec);
  try {
    const all = await view.steps();
    const fleetRuns = await view.fleetRuns();
    const byName = all.find((record) => record.step === name);
    const steps: StepRecord[] = byName ? [byName] : all.filter((record) => record.run === name);
    // A fleet run is named by its run id (a --direct one's step has the same name); one cancelled before it began has no step.
    const fleetRun = fleetRuns.some((run) => run.run === name) ? name : undefined;
    if (steps.length === 0 && fleetRun === undefined) {
      const known = [
        ...new Set([...all.map((record) => record.run ?? record.step), ...fleetRuns.map((run) => run.run)]),
      ];
      throw new UsageError(
        `flower forget: no step "${name}" in ${view.location}${known.length ? ` (known: ${known.join(", ")})` : ""}`,
      );
    }
    const forgotten = await view.forget({ steps, ...(fleetRun !== undefined ? { fleetRun } : {}) });
    new RunDirectory(runDir).forgetRecords(steps.map((record) => record.step));
    forgetNotify(runDir, [name, ...steps.map((record) => record.step)]);
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    const parts = [
      plural(forgotten.sessions, "session"),
      plural(forgotten.files, "file"),
      plural(forgotten.records, "record"),
      // The run's checkpoints (its files' history) go with the last of its steps.
      ...(forgotten.work > 0 ? [plural(forgotten.work, "checkpoint")] : []),
      ...(forgotten.fleetRuns > 0 ? ["the fleet's run"] : []),
    ];
    const what = `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)!}`;
    process.stdout.write(`deleted ${what} of "${name}" from ${view.location}\n`);
    return EXIT.ok;
  } finally {
    await view.close();
  }
}
