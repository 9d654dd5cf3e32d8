/**
 * What a report page draws, for `flower report` (commands/report.ts) and the live page's report route
 * (serve-source.ts): which records a name means (a step, a run, or the last one), and the page's input
 * built from them. Both draw the same page, so this is in neither.
 */
import { relative } from "node:path";
import { UsageError } from "../../errors.js";
import type { Locale } from "../../locale/locale.js";
import type { StepRecord } from "../../records/step-record.js";
import type { ReportDocument, ReportInput, ReportRun } from "../../report/report-input.js";
import { reportStep } from "./step-report-input.js";
import { frozenState } from "./frozen-state.js";
import { frozenDocumentView } from "./frozen-view.js";
import { runStatus } from "./run-status.js";
import type { StepSource } from "./step-source.js";
import { CLI_TEXT } from "../cli-text.js";
import { runSpent } from "../../records/run-spend.js";
import { runBudget } from "./budget-lines.js";
import { withWork } from "./work-summary.js";

/** The records a report page draws. */
export interface Wanted {
  /** Set when the page draws one whole workflow run. */
  run?: string;
  records: StepRecord[];
}

export function reportInput(
  wanted: Wanted,
  source: StepSource,
  locale: Locale,
  directory: string | ((path: string) => string),
): ReportInput {
  // A log is linked relative to the report, so the run directory can be moved with its report; the live
  // page (cli/page/serve-source.ts) links its own route instead.
  const link =
    typeof directory === "function"
      ? directory
      : (path: string) => {
          const file = source.locate(path).file ?? path;
          return encodeURI(relative(directory, file).split("\\").join("/"));
        };
  // Each generation's files and the rewound generations (cli/record-views/work-summary.ts): none for older records.
  const steps = wanted.records.map((record) => {
    const step = withWork(reportStep(record, source.statusOf(record), { locale, link }), record);
    // The run's budget, where one is set: the whole run's spend of it, on each of its steps.
    const run = record.run ?? record.step;
    const budgetUsd = runBudget(wanted.records, run);
    return budgetUsd === undefined
      ? step
      : { ...step, budget: { spentUsd: runSpent(wanted.records, run), budgetUsd } };
  });
  const title = wanted.run ?? wanted.records.map((record) => record.step).join(" · ");
  return {
    title,
    generatedAt: new Date().toISOString(),
    ...(wanted.run !== undefined ? { run: reportRun(wanted.run, wanted.records, source, locale) } : {}),
    steps,
  };
}

/** The run's task as typed, its status and its frozen documents as the steps read them. */
function reportRun(id: string, records: StepRecord[], source: StepSource, locale: Locale): ReportRun {
  const state = runStatus(records);
  const first = state.steps[0]!;
  const documents: ReportDocument[] = [];
  for (const record of state.steps) {
    if (!record.frozen) continue;
    const located = source.locate(record.frozen.path);
    const view = frozenDocumentView(
      { ...record.frozen, path: located.file ?? record.frozen.path },
      id,
      record.result,
      locale,
      frozenState(record, state.steps, source),
    );
    if (!view) continue;
    documents.push({
      title: view.title,
      step: record.workflow?.name ?? record.step,
      path: located.shown,
      notes: view.notes,
      sections: view.sections.map((section) => ({
        label: section.label,
        text: section.text ?? "",
        ...(section.changed ? { changed: true } : {}),
      })),
    });
  }
  return {
    id,
    task: first.workflow?.task ?? first.prompt,
    status: state.status,
    documents,
  };
}

/**
 * A step record's name: that step. Otherwise a run id: every step of the run, in workflow order. No
 * name: the last step's run when it has one, else the last step.
 */
export function wantedRecords(source: StepSource, wanted: readonly string[], locale: Locale): Wanted {
  const text = CLI_TEXT[locale];
  const ofRun = (run: string) => runStatus(source.steps.filter((step) => step.run === run)).steps;
  if (wanted.length === 0) {
    const last = source.steps.at(-1);
    if (!last) throw new UsageError(`flower report: ${text.noSteps(source.where)}`);
    return last.run !== undefined ? { run: last.run, records: ofRun(last.run) } : { records: [last] };
  }
  const pieces = wanted.map((name) => {
    const record = source.step(name);
    if (record) return { records: [record] };
    if (source.steps.some((step) => step.run === name)) return { run: name, records: ofRun(name) };
    throw new UsageError(text.noStep(name, source.where, source.knownNames()));
  });
  if (pieces.length === 1) return pieces[0]!;
  return { records: pieces.flatMap((piece) => piece.records) };
}
