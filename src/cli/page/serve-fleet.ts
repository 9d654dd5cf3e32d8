/**
 * What the live page takes from the fleet (src/fleet): the queue's statuses (queued, running
 * on which pid@host, paused, cancelled…) laid over the rows the step records give, and approve and
 * cancel. The page never changes a run itself: it passes the verb to the fleet's API, the one owner of
 * the queue, which refuses what does not apply (a finished run, an unknown one) with its own reason.
 *
 * A run directory has no fleet: its rows offer no action (approve and cancel there answer why).
 */
import { approveRun, cancelRun, fleetRunViews, openFleet } from "../../fleet/fleet-runs.js";
import type { StepRecord } from "../../records/step-record.js";
import type { FleetRunView } from "../../fleet/fleet-runs.js";
import type { FleetStore } from "../../storage/fleet-store.js";
import type { PostgresStoreSpec } from "../../storage/store-spec.js";
import type { RunActions, RunRow } from "../../serve/page-source.js";

/** The statuses a run can still be moved from (the fleet's FINISHED are the others). */
const OPEN = ["queued", "running", "paused"];

export interface FleetSeam {
  /**
   * The records' rows with the fleet's runs laid over them (a queued run with no record yet too); `steps`:
   * the step records the rows were made from (the runs' cost and generations come from them).
   */
  rows(records: RunRow[], steps: StepRecord[]): Promise<RunRow[]>;
  actions: RunActions;
  close(): Promise<void>;
}

/** The fleet of a shared store, opened once for the page's life (it reads every second). */
export function openFleetSeam(store: PostgresStoreSpec): FleetSeam {
  const fleet: FleetStore = openFleet(store);
  return {
    rows: async (records, steps) => fleetRows(records, await fleetRunViews(fleet, steps)),
    actions: {
      approve: async (name) => void (await approveRun(fleet, name)),
      cancel: async (name) => void (await cancelRun(fleet, name)),
    },
    close: () => fleet.close(),
  };
}

/** A run directory's page: nothing to approve or cancel. */
export const NO_FLEET: RunActions = {
  approve: async () => {
    throw new Error("no fleet here: approve and cancel need a shared store (--store postgres://…)");
  },
  cancel: async () => {
    throw new Error("no fleet here: approve and cancel need a shared store (--store postgres://…)");
  },
};

/**
 * The fleet's word on status, step and machine wins (it knows a queued run, a cancel asked); the records
 * keep the gauge, the files changed, the checks and the documents. Rows of runs outside the fleet stay as
 * they are, with no action. Order: the most recently updated last, like the records' rows.
 */
export function fleetRows(records: RunRow[], fleet: FleetRunView[]): RunRow[] {
  const byName = new Map(
    records.map((row) => [row.name, { ...row, can: { approve: false, cancel: false, say: row.can.say } }]),
  );
  for (const view of fleet) {
    const row = byName.get(view.run);
    byName.set(view.run, {
      name: view.run,
      status: view.cancelRequested ? "cancelling" : view.status,
      step: view.step ?? row?.step ?? null,
      machine: view.machine ? `pid ${view.pid}@${view.machine}` : (row?.machine ?? null),
      gauge: row?.gauge ?? null,
      // The records' count (the step the run is on) where they are here; the fleet's sums its steps.
      generations: row?.generations ?? view.generations,
      ...(row?.work ? { work: row.work } : {}),
      costUsd: Math.max(view.costUsd, row?.costUsd ?? 0),
      ...(row?.budgetUsd !== undefined ? { budgetUsd: row.budgetUsd } : {}),
      checks: row?.checks ?? [],
      documents: row?.documents ?? [],
      task: view.task,
      updatedAt: [view.updatedAt, row?.updatedAt ?? ""].sort().at(-1)!,
      report: row !== undefined,
      can: {
        approve: view.status === "paused",
        cancel: OPEN.includes(view.status) && !view.cancelRequested,
        // Queued, running, paused or stopped at its budget: its next session would read a message.
        say: !["done", "goal-not-met", "failed", "cancelled"].includes(view.status) && !view.cancelRequested,
      },
    });
  }
  return [...byName.values()].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
}
