/**
 * A step record as the report's input: the per-turn context series across generations, with the
 * handoff line the step ran with. Records written before the series was kept give a report with one
 * point per generation (its last context).
 */
import { HandoffPolicy } from "../handoff/policy.js";
import type { StepRecord } from "../records/step-record.js";
import { generationTurns } from "../records/turns.js";
import type { ReportStep, ReportTurn } from "../report/report-input.js";

export function reportStep(record: StepRecord, status?: string): ReportStep {
  // A record written before the lines were kept: the default policy's (HandoffPolicy owns the formulas).
  const { window, at, warnAt } = record.policy ?? new HandoffPolicy();
  const turns: ReportTurn[] = [];
  for (const generation of record.history) {
    const series = generation.turns ?? (generation.context > 0 ? [[generation.context, 0, 0] as const] : []);
    for (const [context, spills, denials] of series)
      turns.push({ generation: generation.generation, context, spills, denials });
  }
  return {
    step: record.step,
    task: record.prompt,
    ...(status ? { status } : {}),
    window,
    at,
    warnAt,
    turns,
    generations: record.history.map((generation) => ({
      generation: generation.generation,
      costUsd: generation.costUsd,
      numTurns: generationTurns(generation),
      ...(generation.handoff
        ? {
            handoff: {
              degraded: generation.handoff.degraded,
              ...(generation.handoff.path ? { path: generation.handoff.path } : {}),
            },
          }
        : {}),
    })),
  };
}
