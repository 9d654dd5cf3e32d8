/**
 * What a run has spent, read from its step records, and whether a budget over it is reached. Pure: the
 * step loop, the CLI (runs, show, continue's refusal) and the fleet (the day's spend) read the same sums.
 *
 * The SDK's `maxBudgetUsd` is per session and never covers the handoff-writing turn; a run's budget is
 * over everything the run spends. Each step record's `costUsd` already holds all of it (every response is
 * booked as it arrives: main thread, subagents, the writing turn, the reviewer), so the run's figure is the
 * sum over its steps.
 */
import type { BudgetStop, StepRecord } from "./step-record.js";

export type { BudgetStop };

/** One ceiling a run runs under. */
export interface Budget {
  /** `run`: the run's own budget (`--budget`); `day`: the fleet's total per UTC day (`--budget-per-day`). */
  by: BudgetStop["by"];
  /** The ceiling in dollars. */
  usd: number;
  /**
   * Spend counted against it that is not the run's own figure (the day's spend of other runs, minus the
   * run's spend on earlier days): spent = offset + the run's figure. 0 for a run budget.
   */
  offset: number;
}

/** The run a step record belongs to: its workflow run, else the step itself (a `--direct` run). */
export function runOf(record: Pick<StepRecord, "run" | "step">): string {
  return record.run ?? record.step;
}

/** The run's spent figure: the sum of its steps' costs (earlier runs of a step name are not this run). */
export function runSpent(
  records: readonly Pick<StepRecord, "run" | "step" | "costUsd">[],
  run: string,
): number {
  let spent = 0;
  for (const record of records) if (runOf(record) === run) spent += record.costUsd;
  return spent;
}

/** The first budget the run's figure has reached (spent >= ceiling), with what it counts; null: none. */
export function reachedBudget(
  budgets: readonly Budget[],
  runFigure: number,
): { budget: Budget; spent: number } | null {
  for (const budget of budgets) {
    const spent = budget.offset + runFigure;
    if (spent >= budget.usd) return { budget, spent };
  }
  return null;
}

/** The UTC day of a time, `YYYY-MM-DD`. */
export function utcDay(at: Date | string): string {
  return (typeof at === "string" ? new Date(at) : at).toISOString().slice(0, 10);
}

/**
 * What one record spent, per UTC day: each generation's cost on the day it started; what no generation
 * holds (a reviewer, a writing turn booked between generations) on the day the record was last written.
 * Archived runs of a step name (`earlierRuns`) count as well: they were spent. The stores keep these sums
 * beside each record, written with it (a per-day table), so the day's spend is one aggregate: `daySpent`
 * over every record is what they add up to.
 */
export function daySpends(record: StepRecord): Map<string, number> {
  const days = new Map<string, number>();
  // A time that is not one (a record written by hand) books nothing rather than stopping the write.
  const book = (at: string, usd: number) => {
    const time = new Date(at);
    if (Number.isNaN(time.getTime())) return;
    const day = utcDay(time);
    days.set(day, (days.get(day) ?? 0) + usd);
  };
  const add = (one: Omit<StepRecord, "earlierRuns">) => {
    let inGenerations = 0;
    // A rewind took generations out of the history, not out of what was spent.
    const rewound = (one.rewound ?? []).flatMap((rewind) => rewind.generations);
    for (const generation of [...one.history, ...rewound]) {
      inGenerations += generation.costUsd;
      book(generation.startedAt, generation.costUsd);
    }
    const rest = one.costUsd - inGenerations;
    if (rest > 0) book(one.updatedAt, rest);
  };
  add(record);
  for (const earlier of record.earlierRuns ?? []) add(earlier);
  return days;
}

/** What records spent on a UTC day (see daySpends). */
export function daySpent(records: readonly StepRecord[], day: string): number {
  let spent = 0;
  for (const record of records) spent += daySpends(record).get(day) ?? 0;
  return spent;
}

/** Dollars as a budget line shows them: four decimals (a run's cent-sized spend stays readable). */
export function formatUsd(usd: number): string {
  return `$${usd.toFixed(4)}`;
}

/**
 * A budget to suggest after `spent` reached `budget`: twice the budget, or the spend plus the budget when
 * that is more, rounded up to the cent, as typed (`0.05`).
 */
export function nextBudget(spent: number, budget: number): string {
  const cents = Math.ceil(Math.max(budget * 2, spent + budget) * 100 - 1e-9);
  return String(Math.max(cents, 1) / 100);
}
