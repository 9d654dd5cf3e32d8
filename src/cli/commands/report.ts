/**
 * `flower report [step...]`: one self-contained HTML file (inline SVG and CSS, no script, no network)
 * that draws the steps' main-thread context per turn across generations, with the handoff line, the
 * handoffs, and cost and turns per generation. People would rather look at a long run than read it.
 */
import { join, resolve } from "node:path";
import { EXIT, UsageError } from "../../errors.js";
import { writeFileAtomically } from "../../fs/atomic-write.js";
import { safeFileName } from "../../fs/safe-file-name.js";
import { resolveLocale } from "../../locale/locale.js";
import { renderHtmlReport } from "../../report/html-report.js";
import { reportStep } from "../../runtime/report-input.js";
import { effectiveStatus, RunDirectory } from "../../runtime/run-directory.js";
import { parseLang, parseNonEmpty, type ParsedCommand } from "../args.js";
import { knownNames, runStatus } from "../run-status.js";
import { CLI_TEXT } from "../text.js";

export function reportCommand(parsed: ParsedCommand): number {
  const locale = resolveLocale(parseLang(parsed.values.lang));
  const text = CLI_TEXT[locale];
  const runDirectory = new RunDirectory(
    resolve(parseNonEmpty("--run-dir", parsed.values["run-dir"]) ?? "runs"),
  );
  const wanted = parsed.positionals;
  const records =
    wanted.length === 0
      ? [runDirectory.lastStep()].filter((record) => record !== undefined)
      : wanted.flatMap((name) => {
          const record = runDirectory.step(name);
          if (record) return [record];
          // A run id: every step of the run, in workflow order.
          const run = runDirectory.steps().filter((step) => step.run === name);
          if (run.length > 0) return runStatus(run).steps;
          throw new UsageError(text.noStep(name, runDirectory.recordsPath, knownNames(runDirectory)));
        });
  if (records.length === 0) throw new UsageError(`flower report: ${text.noSteps(runDirectory.recordsPath)}`);
  const title = records.map((record) => record.step).join(" · ");
  const html = renderHtmlReport(
    {
      title,
      generatedAt: new Date().toISOString(),
      steps: records.map((record) => reportStep(record, effectiveStatus(record))),
    },
    { locale },
  );
  const out = resolve(
    parseNonEmpty("--out", parsed.values.out) ??
      join(runDirectory.path, `report-${safeFileName(records.map((record) => record.step).join("+"))}.html`),
  );
  writeFileAtomically(out, html);
  process.stdout.write(`${out}\n`);
  return EXIT.ok;
}
