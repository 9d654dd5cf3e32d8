/**
 * What a worker tells a run's notifiers once its turn with the run is settled: a paused run waits for
 * `flower approve` (`approval`), an ended one is `done`, `goal-not-met` or `failed`. A cancelled, lost
 * or given-back run needs no word: a person or another worker has it. (A fleet run the drift watch
 * paused, or that reached a run budget, gets `drift` / `budget-reached` here once drive-run.ts tells
 * those ends apart from a stop.)
 */
import type { Locale } from "../locale/locale.js";
import { NOTIFY_TEXT, type Notification } from "../notify/index.js";
import { nextBudget } from "../records/run-spend.js";
import type { DriveOutcome } from "./drive-run.js";
import type { Settled } from "./settle.js";

/** How a printed command goes on with a fleet run: after its pause, or after it failed or missed its goal. */
export type FleetCommandFor = (action: "approve" | "continue", run: string) => string;

export function fleetNotice(
  run: string,
  step: string | null,
  settled: Settled,
  outcome: DriveOutcome,
  locale: Locale,
  commandFor: FleetCommandFor,
): Omit<Notification, "at"> | null {
  const words = NOTIFY_TEXT[locale].why;
  const at = step ?? "requirements";
  switch (settled.status) {
    case "paused":
      if (outcome.drift)
        return {
          event: "drift",
          run,
          step: outcome.drift.step,
          status: "paused",
          why: words.drift(outcome.drift.generations, outcome.drift.handoff),
          continue: commandFor("approve", run),
        };
      return {
        event: "approval",
        run,
        step: at,
        status: "paused",
        why: words.approval(at),
        continue: commandFor("approve", run),
      };
    case "done":
      return { event: "done", run, step: step ?? "work", status: "done", why: words.done, continue: null };
    case "budget-reached":
      return {
        event: "budget-reached",
        run,
        step: step ?? "work",
        status: "budget-reached",
        why: settled.error ?? words.failed,
        continue: outcome.budget
          ? `${commandFor("continue", run)} --budget ${nextBudget(outcome.budget.spentUsd, outcome.budget.budgetUsd)}`
          : commandFor("continue", run),
      };
    case "goal-not-met":
      return {
        event: "goal-not-met",
        run,
        step: step ?? "work",
        status: "goal-not-met",
        why: outcome.why ?? words.goalNotMet,
        continue: commandFor("continue", run),
      };
    case "failed":
      return {
        event: "failed",
        run,
        step: step ?? "work",
        status: "failed",
        why: settled.error ?? words.failed,
        continue: commandFor("continue", run),
      };
    default:
      return null;
  }
}

/**
 * The library's way of writing those commands: `flower approve|continue <run> --store <url>`, the
 * store's password left out (a notification may land in a chat; the command finds it in PGPASSWORD).
 */
export function defaultCommandFor(store: string): FleetCommandFor {
  let shown = store;
  try {
    const url = new URL(store);
    url.password = "";
    shown = url.toString();
  } catch {
    // Not a URL the worker could have opened; shown as given.
  }
  // Quoted for a shell unless plain (a `?schema=` would be a glob there); run names are always plain.
  const quoted = /^[\w./:@%+=,-]+$/u.test(shown) ? shown : `'${shown.replace(/'/g, `'\\''`)}'`;
  return (action, run) => `flower ${action} ${run} --store ${quoted}`;
}
