/**
 * `flower forget <step|run>`: a step's (or run's) sessions deleted, and with --store all it left there.
 * Options: command-line/command-options.ts `forget`; store: command-line/store-option.ts; the kept --notify
 * targets: live/remembered-notify.ts; words: command-line/usage-text.ts.
 */
import { EXIT, FleetRunOpenError, LeaseHeldError, UsageError } from "../../errors.js";
import type { StepRecord } from "../../records/step-record.js";
import { runDirectory as runDirectoryPath } from "../../storage/files.js";
import { forgetNotify } from "../live/remembered-notify.js";
import { RunDirectory } from "../../storage/run-directory.js";
import { openStoreView } from "../../storage/store-view.js";
import type { StoreSpec } from "../../storage/store-spec.js";
import { parseLang, parseNonEmpty, parseOlderThan, type ParsedCommand } from "../command-line/args.js";
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
 * - `--older-than 30d` instead of a name: the same for every run (or lone step) last written longer ago
 *   than that — retention for a store whose runs' checkpoints (flower_work) would otherwise stay forever.
 *   A run still open in the fleet or held by a live driver is kept, and named with why.
 */
export async function forgetCommand(parsed: ParsedCommand): Promise<number> {
  // --workspace comes with a line carried from another command: taken, not needed here.
  const locale = resolveLocale(parseLang(parsed.values.lang));
  const usage = USAGE_TEXT[locale];
  const [step, extra] = parsed.positionals;
  const olderThan = parseOlderThan(parsed.values["older-than"], locale);
  if (olderThan !== undefined && step !== undefined) throw new UsageError(usage.forgetBoth);
  if (step === undefined && olderThan === undefined) throw new UsageError(usage.forgetWhich);
  if (extra !== undefined) throw new UsageError(usage.unexpected("forget", extra));
  const runDir = runDirectoryPath(parseNonEmpty("--run-dir", parsed.values["run-dir"]));
  const store = storeOption(parsed.values);
  if (olderThan !== undefined) {
    const age = { ms: olderThan, text: String(parsed.values["older-than"]).trim() };
    return store.spec.kind === "postgres"
      ? forgetOldInStore(store.spec, age, runDir)
      : forgetOldHere(runDir, age);
  }
  if (step === undefined) throw new UsageError(usage.forgetWhich);
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

/** A run's name and its steps, from every record: a run id, or a lone step's own name. */
function runsOf(records: readonly StepRecord[]): Map<string, StepRecord[]> {
  const runs = new Map<string, StepRecord[]>();
  for (const record of records) {
    const run = record.run ?? record.step;
    runs.set(run, [...(runs.get(run) ?? []), record]);
  }
  return runs;
}

/** Whether every step of a run was last written before `cutoff`. */
function writtenBefore(steps: readonly StepRecord[], cutoff: number): boolean {
  return steps.every((record) => new Date(record.updatedAt).getTime() < cutoff);
}

/** A run kept because a live driver holds one of its steps. */
function heldLine(run: string, error: LeaseHeldError): string {
  const { pid, host, heartbeatAt } = error.holder;
  return `kept "${run}": step "${error.step}" is driven by pid ${pid} on ${host} (last heartbeat ${heartbeatAt})`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** `flower forget --older-than 30d --store …`: every run last written longer ago goes, all it left there. */
async function forgetOldInStore(
  spec: Extract<StoreSpec, { kind: "postgres" }>,
  age: { ms: number; text: string },
  runDir: string,
): Promise<number> {
  const view = openStoreView(spec);
  try {
    const cutoff = Date.now() - age.ms;
    const runs = runsOf(await view.steps());
    const fleetRuns = await view.fleetRuns();
    // A fleet run that never got a step (cancelled in the queue) is judged by its own row.
    for (const run of fleetRuns)
      if (!runs.has(run.run) && new Date(run.updatedAt).getTime() < cutoff) runs.set(run.run, []);
    const total = { runs: 0, sessions: 0, files: 0, records: 0, work: 0, fleetRuns: 0 };
    const kept: string[] = [];
    const here = new RunDirectory(runDir);
    for (const [run, steps] of runs) {
      if (!writtenBefore(steps, cutoff)) continue;
      const fleetRun = fleetRuns.some((entry) => entry.run === run) ? run : undefined;
      try {
        const forgotten = await view.forget({ steps, ...(fleetRun !== undefined ? { fleetRun } : {}) });
        here.forgetRecords(steps.map((record) => record.step));
        forgetNotify(runDir, [run, ...steps.map((record) => record.step)]);
        total.runs += 1;
        total.sessions += forgotten.sessions;
        total.files += forgotten.files;
        total.records += forgotten.records;
        total.work += forgotten.work;
        total.fleetRuns += forgotten.fleetRuns;
      } catch (error) {
        if (error instanceof LeaseHeldError) kept.push(heldLine(run, error));
        else if (error instanceof FleetRunOpenError) kept.push(`kept "${run}": ${error.message}`);
        else throw error;
      }
    }
    const what = [
      plural(total.sessions, "session"),
      plural(total.files, "file"),
      plural(total.records, "record"),
      plural(total.work, "checkpoint"),
      ...(total.fleetRuns > 0 ? [plural(total.fleetRuns, "fleet run")] : []),
    ];
    process.stdout.write(
      total.runs === 0
        ? `nothing in ${view.location} was last written over ${age.text} ago\n`
        : `deleted ${plural(total.runs, "run")} last written over ${age.text} ago from ${view.location}: ${what.slice(0, -1).join(", ")} and ${what.at(-1)!}\n`,
    );
    for (const line of kept) process.stdout.write(`${line}\n`);
    return EXIT.ok;
  } finally {
    await view.close();
  }
}

/** `flower forget --older-than 30d` in a run directory: the sessions of every run last written longer ago. */
async function forgetOldHere(runDir: string, age: { ms: number; text: string }): Promise<number> {
  const runDirectory = new RunDirectory(runDir);
  const cutoff = Date.now() - age.ms;
  const holders = runDirectory.holders();
  let runs = 0;
  let sessions = 0;
  let from: string | null = null;
  for (const [run, steps] of runsOf(runDirectory.steps())) {
    if (!writtenBefore(steps, cutoff)) continue;
    const held = steps.find((record) => holders.has(record.step));
    if (held) {
      process.stdout.write(`${heldLine(run, new LeaseHeldError(held.step, holders.get(held.step)!))}\n`);
      continue;
    }
    let deleted = 0;
    for (const record of steps) {
      const forgotten = await runDirectory.forgetStep(record.step);
      if (forgotten === null) break;
      deleted += forgotten.deleted;
      from = forgotten.from;
    }
    forgetNotify(runDir, [run, ...steps.map((record) => record.step)]);
    runs += 1;
    sessions += deleted;
  }
  process.stdout.write(
    runs === 0
      ? `nothing in ${runDir} was last written over ${age.text} ago\n`
      : `deleted ${plural(sessions, "session")} of ${plural(runs, "run")} last written over ${age.text} ago from ${from ?? runDir}\n`,
  );
  return EXIT.ok;
}
