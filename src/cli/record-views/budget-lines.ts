/**
 * A run's budget as the command line says it: "spent $x of $y" where a budget is set, the line a run
 * that reached it ends with (the command that goes on with a higher one), and continue's refusal when the
 * budget given (or recorded) is already spent. The sums are records/run-spend.ts's.
 */
import type { Locale } from "../../locale/locale.js";
import { formatUsd, nextBudget, runSpent } from "../../records/run-spend.js";
import type { StepRecord } from "../../records/step-record.js";
import { CLI_TEXT } from "../cli-text.js";

/** The continue command with `--budget <usd>` on its first line (a store's note may follow). */
export function withBudget(command: string, usd: string): string {
  if (command === "") return "";
  const [first, ...rest] = command.split("\n");
  return [`${first} --budget ${usd}`, ...rest].join("\n");
}

/** The budget a run's records name: the latest setting among its steps; undefined: none. */
export function runBudget(records: readonly StepRecord[], run: string): number | undefined {
  const mine = records
    .filter((record) => (record.run ?? record.step) === run && record.settings?.budgetUsd !== undefined)
    .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
  return mine.at(-1)?.settings?.budgetUsd;
}

/** "spent $x of $y" for a run with a budget; null without one. */
export function spentOfBudget(records: readonly StepRecord[], run: string, locale: Locale): string | null {
  const budget = runBudget(records, run);
  if (budget === undefined) return null;
  return CLI_TEXT[locale].spentOf(formatUsd(runSpent(records, run)), formatUsd(budget));
}

/** The line a run ends with when a step of it stopped on a budget (null when none did). */
export function budgetReachedLine(
  record: StepRecord | undefined,
  continueCommand: string,
  locale: Locale,
): string | null {
  const stop = record?.status === "budget-reached" ? record.budgetStop : undefined;
  if (!stop) return null;
  const command = withBudget(continueCommand, nextBudget(stop.spentUsd, stop.budgetUsd));
  return CLI_TEXT[locale].budgetReached(
    formatUsd(stop.spentUsd),
    formatUsd(stop.budgetUsd),
    stop.by,
    command.split("\n")[0] ?? "",
  );
}

/**
 * `flower continue` with a budget the run has already spent (given now, or recorded): the one line that
 * says so, or null when the run may go on.
 */
export function budgetBelowSpent(
  records: readonly StepRecord[],
  run: string,
  given: number | undefined,
  continueCommand: string,
  locale: Locale,
): string | null {
  const budget = given ?? runBudget(records, run);
  if (budget === undefined) return null;
  const spent = runSpent(records, run);
  if (spent < budget) return null;
  const command = withBudget(continueCommand, nextBudget(spent, budget)).split("\n")[0] ?? "";
  return CLI_TEXT[locale].budgetBelowSpent(formatUsd(spent), formatUsd(budget), command);
}
