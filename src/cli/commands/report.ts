/**
 * `flower report [step...]`: one self-contained HTML file (inline SVG and CSS, no script, no network)
 * that draws the steps' main-thread context per turn across generations, with the handoff line, the
 * handoffs, and cost and turns per generation. People would rather look at a long run than read it.
 * With a shared store (`--store`, FLOWER_STORE) the records come from the store too, so a run recorded
 * on another machine can be drawn here (cli/step-source.ts).
 */
import { join, resolve } from "node:path";
import { EXIT, UsageError } from "../../errors.js";
import { writeFileAtomically } from "../../fs/atomic-write.js";
import { safeFileName } from "../../fs/safe-file-name.js";
import { resolveLocale, type Locale } from "../../locale/locale.js";
import type { StepRecord } from "../../records/step-record.js";
import { renderHtmlReport } from "../../report/html-report.js";
import { reportStep } from "../../runtime/report-input.js";
import { parseLang, parseNonEmpty, type ParsedCommand } from "../args.js";
import { runStatus } from "../run-status.js";
import { openStepSource, type StepSource } from "../step-source.js";
import { CLI_TEXT } from "../text.js";

export async function reportCommand(parsed: ParsedCommand): Promise<number> {
  const locale = resolveLocale(parseLang(parsed.values.lang));
  const out = parseNonEmpty("--out", parsed.values.out);
  const source = await openStepSource(parsed.values, locale);
  let records: StepRecord[];
  try {
    records = wantedRecords(source, parsed.positionals, locale);
  } finally {
    await source.close();
  }
  const html = renderHtmlReport(
    {
      title: records.map((record) => record.step).join(" · "),
      generatedAt: new Date().toISOString(),
      steps: records.map((record) => reportStep(record, source.statusOf(record))),
    },
    { locale },
  );
  const path = resolve(
    out ??
      join(
        source.runDirectory.path,
        `report-${safeFileName(records.map((record) => record.step).join("+"))}.html`,
      ),
  );
  writeFileAtomically(path, html);
  process.stdout.write(`${path}\n`);
  return EXIT.ok;
}

/** The named steps (a run id: every step of the run, in workflow order); none named: the last step. */
function wantedRecords(source: StepSource, wanted: readonly string[], locale: Locale): StepRecord[] {
  const text = CLI_TEXT[locale];
  const records =
    wanted.length === 0
      ? source.steps.slice(-1)
      : wanted.flatMap((name) => {
          const record = source.step(name);
          if (record) return [record];
          const run = source.steps.filter((step) => step.run === name);
          if (run.length > 0) return runStatus(run).steps;
          throw new UsageError(text.noStep(name, source.where, source.knownNames()));
        });
  if (records.length === 0) throw new UsageError(`flower report: ${text.noSteps(source.where)}`);
  return records;
}
