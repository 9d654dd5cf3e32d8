/**
 * The drift watch: a night-long run can spend hours going nowhere (writing notes, rewriting a plan)
 * while nobody looks, and the goal guard judges only when the work ends. At every handoff flower knows
 * where the run stands: it runs the goal's checks then (their own timeouts) and counts the files the
 * generation changed (its checkpoints). When `driftAfter` generations in a row made neither a newly
 * passing check nor a changed file, the step pauses for a person at that handoff — the successor not
 * started, the handoff frozen — with the evidence; `flower continue` starts the successor and the watch
 * counts afresh. A run without a goal's checks watches the files only; one without checkpoints, the
 * checks only; with neither there is nothing to watch.
 */
import { join } from "node:path";
import { runChecks } from "../../goal/checks.js";
import type { ResolvedGoal } from "../../goal/goal-option.js";
import type { GenerationProgress, GenerationRecord, StepRecord } from "../../records/step-record.js";

export interface ProgressInput {
  /** The generation that just handed off. */
  generation: GenerationRecord;
  record: StepRecord;
  goal: { goal: ResolvedGoal; logDir: string; env: NodeJS.ProcessEnv } | undefined;
  workspace: string;
  signal: AbortSignal;
}

/** Runs the goal's checks (when there are any) and counts the generation's files. */
export async function measureProgress(input: ProgressInput): Promise<GenerationProgress> {
  const { generation, record, goal } = input;
  const files = generation.work ? generation.work.files.length : null;
  const checks = goal?.goal.checks ?? [];
  if (checks.length === 0) return { passing: null, checks: 0, newlyPassing: [], files };
  let passing: string[];
  try {
    const results = await runChecks(checks, {
      workspace: input.workspace,
      // Apart from the guard's logs (numbered by its runs): one run per generation.
      logDir: join(goal!.logDir, "handoffs"),
      run: generation.generation,
      env: goal!.env,
      signal: input.signal,
    });
    passing = results.filter((result) => result.passed).map((result) => result.command);
  } catch {
    // A stop while the checks ran, or checks that cannot run: nothing measured, nothing concluded.
    return { passing: null, checks: checks.length, newlyPassing: [], files };
  }
  const before = passedBefore(record, generation.generation);
  return {
    passing,
    checks: checks.length,
    newlyPassing: passing.filter((command) => !before.has(command)),
    files,
  };
}

/** Every check that passed at an earlier handoff or in any guard round of the step. */
function passedBefore(record: StepRecord, generation: number): Set<string> {
  const passed = new Set<string>();
  for (const earlier of record.history)
    if (earlier.generation < generation)
      for (const command of earlier.progress?.passing ?? []) passed.add(command);
  for (const run of record.guard?.checkRuns ?? [])
    for (const result of run.results) if (result.passed) passed.add(result.command);
  return passed;
}

/** A generation that made no progress by what was measured; false when nothing was measured. */
export function stalled(progress: GenerationProgress): boolean {
  if (progress.passing === null && progress.files === null) return false;
  return progress.newlyPassing.length === 0 && (progress.files ?? 0) === 0;
}

/**
 * The generations that make a drift pause: the last `driftAfter` of the history, all after the last
 * pause (`after`), all measured and stalled. Null when the watch is off (0) or they do not.
 *
 * Without a goal's checks the files alone are watched, and they can judge only a run whose work is files:
 * an analysis job (reading data, answering in its handoffs) changes none and is not stalled for it. So a
 * generation measured by its files alone is evidence only once some generation of the step changed a file.
 */
export function driftEvidence(
  history: readonly GenerationRecord[],
  driftAfter: number,
  after: number,
): GenerationRecord[] | null {
  if (driftAfter <= 0) return null;
  const last = history.slice(-driftAfter);
  if (last.length < driftAfter) return null;
  const changedFiles = history.some((generation) => (generation.progress?.files ?? 0) > 0);
  const all = last.every(
    (generation) =>
      generation.generation > after &&
      generation.progress &&
      stalled(generation.progress) &&
      (generation.progress.passing !== null || changedFiles),
  );
  return all ? last : null;
}
