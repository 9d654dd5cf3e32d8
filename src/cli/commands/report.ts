/**
 * `flower report [<run>|<step>...]`: one self-contained HTML file (inline SVG and CSS, no script, no
 * network). A run's page starts with the task as typed, the steps in order, the frozen documents as
 * frozen and the goal's checks run by run; then each step's context per turn across generations, with the
 * handoff line, the handoffs, and cost, turns and the files changed per generation (then the generations
 * a rewind took back, marked). With a shared store (`--store`, FLOWER_STORE) the records come from the
 * store too, so a run recorded on another machine can be drawn here (cli/step-source.ts).
 *
 * A name is told apart by what the records hold: a step record's name draws that step; otherwise a run id
 * (the `run` of the records) draws the run. No name: the last step's run, or the last step on its own.
 */
import { dirname, join, relative, resolve } from "node:path";
import { EXIT, UsageError } from "../../errors.js";
import { writeFileAtomically } from "../../fs/atomic-write.js";
import { safeFileName } from "../../fs/safe-file-name.js";
import { resolveLocale, type Locale } from "../../locale/locale.js";
import type { StepRecord } from "../../records/step-record.js";
import { renderHtmlReport } from "../../report/html-report.js";
import type { ReportDocument, ReportInput, ReportRun } from "../../report/report-input.js";
import { reportStep } from "../../runtime/report-input.js";
import { parseLang, parseNonEmpty, type ParsedCommand } from "../args.js";
import { frozenState } from "../frozen-state.js";
import { frozenDocumentView } from "../frozen-view.js";
import { runStatus } from "../run-status.js";
import { openStepSource, type StepSource } from "../step-source.js";
import { CLI_TEXT } from "../text.js";
import { withWork } from "../work-summary.js";

export interface Wanted {
  /** Set when the page draws one whole workflow run. */
  run?: string;
  records: StepRecord[];
}

export async function reportCommand(parsed: ParsedCommand): Promise<number> {
  const locale = resolveLocale(parseLang(parsed.values.lang));
  const out = parseNonEmpty("--out", parsed.values.out);
  const source = await openStepSource(parsed.values, locale);
  let html: string;
  let path: string;
  try {
    const wanted = wantedRecords(source, parsed.positionals, locale);
    const names = wanted.run ?? wanted.records.map((record) => record.step).join("+");
    path = resolve(out ?? join(source.runDirectory.path, `report-${safeFileName(names)}.html`));
    await source.prepareFiles(wanted.records);
    html = renderHtmlReport(reportInput(wanted, source, locale, dirname(path)), { locale });
  } finally {
    await source.close();
  }
  writeFileAtomically(path, html);
  process.stdout.write(`${path}\n`);
  return EXIT.ok;
}

export function reportInput(
  wanted: Wanted,
  source: StepSource,
  locale: Locale,
  directory: string | ((path: string) => string),
): ReportInput {
  // A log is linked relative to the report, so the run directory can be moved with its report; the live
  // page (cli/serve-source.ts) links its own route instead.
  const link =
    typeof directory === "function"
      ? directory
      : (path: string) => {
          const file = source.locate(path).file ?? path;
          return encodeURI(relative(directory, file).split("\\").join("/"));
        };
  // Each generation's files and the rewound generations (cli/work-summary.ts): none for older records.
  const steps = wanted.records.map((record) =>
    withWork(reportStep(record, source.statusOf(record), { locale, link }), record),
  );
  const title = wanted.run ?? wanted.records.map((record) => record.step).join(" · ");
  return {
    title,
    generatedAt: new Date().toISOString(),
    ...(wanted.run !== undefined ? { run: reportRun(wanted.run, wanted.records, source, locale) } : {}),
    steps,
  };
}

/** The run's task as typed, its status and its frozen documents as frozen. */
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
      sections: view.sections.map((section) => ({ label: section.label, text: section.text ?? "" })),
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
