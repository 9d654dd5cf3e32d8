/**
 * What `--notify` is told at the end of a live command (`flower "<task>"`, `flower continue`): the
 * notification of the run's pause or end, sent after the run's lines are printed and its runtime
 * closed, within the notifier's time limit. A Ctrl-C or SIGTERM while it is sent quits at once (the run
 * is recorded), ending the notifier's command first.
 *
 * Which notice a run's end makes is decided where its lines are (live-run.ts's endNotice for a step run
 * on its own, workflow-live.ts's workflowNotice for a workflow run); a run that stopped at its budget is
 * told there as the `budget-reached` event (budgetNotice).
 */
import { EXIT, EXIT_CODES, FlowerError, StepFailedError } from "../../errors.js";
import type { Locale } from "../../locale/locale.js";
import { Notifier, NOTIFY_TEXT, type Notification, type NotifyTarget } from "../../notify/index.js";
import { driftMeasures, type StepRecord } from "../../records/step-record.js";
import type { Runtime } from "../../runtime/runtime.js";
import { cut, oneLine } from "./terminal-text.js";
import { formatUsd, nextBudget } from "../../records/run-spend.js";
import { withBudget } from "../record-views/budget-lines.js";

/** A notification but the run's name and the time, which the sender adds. */
export type Notice = Omit<Notification, "run" | "at">;

/** The command that goes on, as the notification carries it: the first line (a note may follow), null for none. */
export function goOnLine(command: string): string | null {
  const line = command.split("\n")[0]!.trim();
  return line === "" ? null : line;
}

/** The notice of a step that stopped at its budget (status `budget-reached`), or null for any other. */
export function budgetNotice(
  record: StepRecord | undefined,
  step: string,
  continueCommand: string,
  locale: Locale,
): Notice | null {
  const stop = record?.status === "budget-reached" ? record.budgetStop : undefined;
  if (!stop) return null;
  return {
    event: "budget-reached",
    step,
    status: "budget-reached",
    why: NOTIFY_TEXT[locale].why.budgetReached(formatUsd(stop.spentUsd), formatUsd(stop.budgetUsd), stop.by),
    continue: goOnLine(withBudget(continueCommand, nextBudget(stop.spentUsd, stop.budgetUsd))),
  };
}

/** A goal-not-met step's reason in one line: the guard's, else the words for it. */
export function goalNotMetWhy(record: StepRecord | undefined, locale: Locale): string {
  const why = record?.guard?.why;
  return why ? cut(oneLine(why), 300) : NOTIFY_TEXT[locale].why.goalNotMet;
}

/** The step of a run a record name stands for: `<run>/work` → `work`; a step run on its own is its `work`. */
export function stepOfRun(run: string, recordStep: string | undefined): string {
  return recordStep?.startsWith(`${run}/`) ? recordStep.slice(run.length + 1) : "work";
}

/**
 * The notice of a step the drift watch paused (it stopped at a handoff, by itself, with the successor
 * still to start), or null when `record` is not such a pause.
 */
export function driftNotice(
  record: StepRecord | undefined,
  step: string,
  stopCode: number | null,
  continueCommand: string,
  locale: Locale,
): Notice | null {
  if (stopCode !== null || record?.status !== "stopped" || !record.drift || record.pendingHandoff === null)
    return null;
  const measures = driftMeasures(record.history, record.drift.generations);
  return {
    event: "drift",
    step,
    status: "paused",
    why: NOTIFY_TEXT[locale].why.drift(record.drift.generations, record.pendingHandoff, measures),
    continue: goOnLine(continueCommand),
  };
}

/**
 * The notice of a run that ended with an error, or null when the error is the caller's to fix (a usage
 * or configuration error, a step another process drives: nothing ran here that a person must hear of).
 */
export function failedNotice(
  error: unknown,
  rt: Runtime,
  run: string,
  continueCommand: string,
  locale: Locale,
): Notice | null {
  if (error instanceof FlowerError && EXIT_CODES[error.code] !== EXIT.failed) return null;
  let recordStep = error instanceof StepFailedError ? error.step : undefined;
  try {
    recordStep ??= rt.records
      .list()
      .filter((record) => record.run === run)
      .at(-1)?.step;
  } catch {
    // The records cannot be read (the store went away): the step stays unknown.
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    event: "failed",
    step: stepOfRun(run, recordStep),
    status: "failed",
    why: cut(oneLine(message), 300) || NOTIFY_TEXT[locale].why.failed,
    continue: goOnLine(continueCommand),
  };
}

/**
 * Sends the notice to the target and waits (at most the notifier's time limit); a failure is one line
 * on stderr. A stop signal meanwhile exits at once with its code, the notifier's command ended first.
 */
export async function notifyAfterRun(
  target: NotifyTarget,
  run: string,
  notice: Notice,
  locale: Locale,
): Promise<void> {
  const notifier = new Notifier([target], {
    locale,
    onFailure: (line) => process.stderr.write(`${line}\n`),
  });
  const quit = (code: number) => () => {
    notifier.abort();
    process.exit(code);
  };
  const onSigint = quit(EXIT.interrupted);
  const onSigterm = quit(EXIT.terminated);
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigterm);
  try {
    await notifier.send({ ...notice, run });
  } finally {
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigterm);
  }
}
