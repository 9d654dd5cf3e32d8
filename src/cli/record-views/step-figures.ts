/**
 * How `flower runs` (commands/runs.ts) and `flower show` (commands/show.ts) print a step record's
 * figures: a recorded time as the local clock reads it, and a value summed over a run's steps. Both
 * commands print them, so they live here rather than in either command.
 */
import type { StepRecord } from "../../records/step-record.js";

/** An ISO time as the local clock reads it (`2026-12-01 14:03:09`); a text that is no time, as it is. */
export function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A value summed over step records (cost, turns). */
export function sum(records: readonly StepRecord[], value: (record: StepRecord) => number): number {
  return records.reduce((total, record) => total + value(record), 0);
}
