/**
 * A step record as the report's input: the per-turn context series across generations, with the
 * handoff line the step ran with. Records written before the series was kept give a report with one
 * point per generation (its last context).
 */
import { HandoffPolicy } from "../../handoff/policy.js";
import { driftMeasures, type StepRecord } from "../../records/step-record.js";
import { generationTurns } from "../../records/turns.js";
import type { ReportGuardRound, ReportStep, ReportTurn } from "../../report/report-input.js";
import { describeCheckFailure } from "../../goal/check-failure.js";
import { REPORT_TEXT } from "../../report/report-text.js";
import type { Locale } from "../../locale/locale.js";

export interface ReportStepOptions {
  /** Language of the checks' reasons. @default "en" */
  locale?: Locale;
  /** A check log's path as a link from the report file; without it the path is the link. */
  link?: (path: string) => string;
}

/** The guard's runs of the checks as report rounds: each check's reason in the reader's language. */
function guardRounds(record: StepRecord, options: ReportStepOptions): ReportGuardRound[] | undefined {
  const guard = record.guard;
  if (!guard || guard.checkRuns.length === 0) return undefined;
  const locale = options.locale ?? "en";
  const link = options.link ?? ((path: string) => path);
  return guard.checkRuns.map((run) => ({
    round: run.round,
    verdict: run.passed ? REPORT_TEXT[locale].passed : REPORT_TEXT[locale].failed,
    passed: run.passed,
    time: run.at,
    checks: run.results.map((result) => {
      const reason = result.failure ? describeCheckFailure(result.failure, locale) : result.reason;
      return {
        name: result.command,
        passed: result.passed,
        ...(reason ? { detail: reason } : {}),
        ...(!result.passed && result.tail.trim() !== "" ? { tail: result.tail.trimEnd() } : {}),
        log: link(result.logPath),
      };
    }),
  }));
}

export function reportStep(record: StepRecord, status?: string, options: ReportStepOptions = {}): ReportStep {
  // A record written before the lines were kept: the default policy's (HandoffPolicy owns the formulas).
  const { window, at, warnAt } = record.policy ?? new HandoffPolicy();
  const turns: ReportTurn[] = [];
  for (const generation of record.history) {
    const series = generation.turns ?? (generation.context > 0 ? [[generation.context, 0, 0] as const] : []);
    for (const [context, spills, denials] of series)
      turns.push({ generation: generation.generation, context, spills, denials });
  }
  const guard = guardRounds(record, options);
  return {
    step: record.step,
    // A workflow step's prompt is flower's, written from the run's task: the task as typed is the run's.
    ...(record.workflow ? { prompt: record.prompt } : { task: record.prompt }),
    ...(status ? { status } : {}),
    ...(record.guard?.why ? { why: record.guard.why } : {}),
    ...(guard ? { guard } : {}),
    ...(record.drift
      ? {
          drift: {
            generations: [...record.drift.generations],
            at: record.drift.at,
            measures: driftMeasures(record.history, record.drift.generations),
          },
        }
      : {}),
    ...(record.personMessages?.length
      ? {
          messages: record.personMessages.map((message) => ({
            by: message.by,
            at: message.at,
            given: message.deliveredAt,
            generation: message.generation,
            text: message.text,
          })),
        }
      : {}),
    window,
    at,
    warnAt,
    turns,
    generations: record.history.map((generation) => ({
      generation: generation.generation,
      costUsd: generation.costUsd,
      numTurns: generationTurns(generation),
      ...(generation.progress?.passing
        ? {
            checks: {
              passing: generation.progress.passing.length,
              total: generation.progress.checks,
              newly: generation.progress.newlyPassing.length,
            },
          }
        : {}),
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
