/**
 * A worker keeps nothing of a run that is over (SPEC K8): not its worktree, not its shadow repository,
 * not its setup log (and no branch: drive-run.ts turns the hand-back off, the work is in the store).
 *
 * A run that ends under this worker is cleared just before its end is written (worker.ts). One that ends
 * elsewhere leaves its tree here: paused here and approved onto another worker, given back at a
 * shutdown and finished by another, or driven by a worker that was killed and restarted. So after every
 * run's end and at the start, the trees of runs the store says are over are cleared too. A tree of a run
 * the store does not know is left alone: the checkout's run directory may hold a person's own
 * `flower --worktree` runs.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { FINISHED } from "../records/fleet-run.js";
import type { FleetStore } from "../storage/fleet-store.js";
import { chainKey } from "../checkpoints/checkpoint-message.js";
import { removeRunWorkspace } from "../checkpoints/run-workspace.js";

/** Clears the trees under `runDir` of fleet runs that are over, but those in `driving`. Returns the runs cleared. */
export async function clearOverRuns(
  fleet: FleetStore,
  runDir: string,
  driving: ReadonlySet<string>,
): Promise<string[]> {
  const folder = join(runDir, "worktrees");
  if (!existsSync(folder)) return [];
  const trees = new Set(
    readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name),
  );
  if (trees.size === 0) return [];
  const cleared: string[] = [];
  for (const row of await fleet.runs.list()) {
    if (driving.has(row.run) || !FINISHED.includes(row.status) || !trees.has(chainKey(row.run))) continue;
    if (await removeRunWorkspace(runDir, row.run).catch(() => false)) cleared.push(row.run);
  }
  return cleared;
}
