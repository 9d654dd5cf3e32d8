/**
 * What flower calls a turn, in one place: with a count per view, the report once said 18 where
 * `flower runs` said 94.
 *
 * A turn is one model request of the step's main thread: one point on the report's chart, one entry
 * of a generation's `turns` series. Subagents' requests are not turns of the step; the SDK's `num_turns`
 * (kept as `numTurns` in the record and the result) counts them too, and flower shows it nowhere as
 * "turns". Records written before the series was kept have only `numTurns`: it stands in for them.
 */
import type { GenerationRecord, StepRecord } from "./step-record.js";

/** The main thread's turns in one generation. */
export function generationTurns(generation: Pick<GenerationRecord, "turns" | "numTurns">): number {
  return generation.turns?.length ?? generation.numTurns;
}

/** The main thread's turns of a step, over all its generations. */
export function stepTurns(record: Pick<StepRecord, "history" | "numTurns">): number {
  if (record.history.length === 0) return record.numTurns;
  return record.history.reduce((total, generation) => total + generationTurns(generation), 0);
}
