/**
 * `flower report [<run>|<step>...]`: one self-contained HTML file (report/html-report.ts). Options:
 * command-line/command-options.ts `report`; records: record-views/step-source.ts (run directory, and
 * --store); what the page draws: record-views/report-contents.ts (shared with the live page).
 */
import { dirname, join, resolve } from "node:path";
import { EXIT } from "../../errors.js";
import { writeFileAtomically } from "../../fs/atomic-write.js";
import { safeFileName } from "../../fs/safe-file-name.js";
import { resolveLocale } from "../../locale/locale.js";
import { renderHtmlReport } from "../../report/html-report.js";
import { parseLang, parseNonEmpty, type ParsedCommand } from "../command-line/args.js";
import { reportInput, wantedRecords } from "../record-views/report-contents.js";
import { openStepSource } from "../record-views/step-source.js";

/**
 * `flower report [<run>|<step>...]`: one self-contained HTML file (inline SVG and CSS, no script, no
 * network). A run's page starts with the task as typed, the steps in order, the frozen documents as
 * frozen and the goal's checks run by run; then each step's context per turn across generations, with the
 * handoff line, the handoffs, and cost, turns and the files changed per generation (then the generations
 * a rewind took back, marked). With a shared store (`--store`, FLOWER_STORE) the records come from the
 * store too, so a run recorded on another machine can be drawn here (cli/record-views/step-source.ts).
 *
 * A name is told apart by what the records hold: a step record's name draws that step; otherwise a run id
 * (the `run` of the records) draws the run. No name: the last step's run, or the last step on its own.
 */
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
