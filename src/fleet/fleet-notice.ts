/**
 * What a worker tells a run's notifiers once its turn with the run is settled: a paused run waits for
 * `flower approve` (`approval`), an ended one is `done`, `goal-not-met` or `failed`. A cancelled, lost
 * or given-back run needs no word: a person or another worker has it. (A fleet run the drift watch
 * paused, or that reached a run budget, gets `drift` / `budget-reached` here once drive-run.ts tells
 * those ends apart from a stop.)
 */
import { shellQuote, typed } from "../locale/invocation.js";
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
  const goOn = commandFor("continue", run);
  // An ended run: its event is its status, for the step it ended in (`work` when none is known).
  const ended = (
    status: "done" | "budget-reached" | "goal-not-met" | "failed",
    why: string,
    command: string | null,
  ): Omit<Notification, "at"> => ({
    event: status,
    run,
    step: step ?? "work",
    status,
    why,
    continue: command,
  });
  switch (settled.status) {
    case "paused":
      if (outcome.drift)
        return {
          event: "drift",
          run,
          step: outcome.drift.step,
          status: "paused",
          why: words.drift(outcome.drift.generations, outcome.drift.handoff, outcome.drift.measures),
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
      return ended("done", words.done, null);
    case "budget-reached":
      return ended(
        "budget-reached",
        settled.error ?? words.failed,
        outcome.budget
          ? `${goOn} --budget ${nextBudget(outcome.budget.spentUsd, outcome.budget.budgetUsd)}`
          : goOn,
      );
    case "goal-not-met":
      return ended("goal-not-met", outcome.why ?? words.goalNotMet, goOn);
    case "failed":
      return ended("failed", settled.error ?? words.failed, goOn);
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
  return (action, run) => typed(`${action} ${run} --store ${shellQuote(shown)}`);
}
