/**
 * The live page's source for `flower serve`: the run directory's records, or with `--store` the shared
 * store's (every machine's runs) with the fleet's queue laid over them (serve-fleet.ts). The store is read through one view kept open while the page runs (a
 * read per second must not open a connection pool each time); a report is drawn like `flower report`
 * draws it (report-contents.ts), from a step source opened for that one request.
 */
import { dirname } from "node:path";
import { readFileInside } from "../../fs/contained-file.js";
import type { Locale } from "../../locale/locale.js";
import { renderHtmlReport } from "../../report/html-report.js";
import { runDirectory as runDirectoryPath } from "../../storage/files.js";
import { effectiveStatus, RunDirectory } from "../../storage/run-directory.js";
import { openStoreView, statusInStore } from "../../storage/store-view.js";
import type { RunActions, RunRow, RunSource } from "../../serve/page-source.js";
import { parseNonEmpty, type ParsedCommand } from "../command-line/args.js";
import { reportInput, wantedRecords } from "../record-views/report-contents.js";
import { NO_FLEET, openFleetSeam } from "./serve-fleet.js";
import { runRows } from "./serve-rows.js";
import { openStepSource } from "../record-views/step-source.js";
import { storeOption } from "../command-line/store-option.js";
import { sayToRun } from "../../runtime/person/say.js";
import { openSayTarget } from "../../storage/say-target.js";

export interface ServeSource {
  source: RunSource;
  /** The fleet's approve and cancel on a shared store; on a run directory, refusals saying why. */
  actions: RunActions;
}

export function openServeSource(values: ParsedCommand["values"], locale: Locale): ServeSource {
  const store = storeOption(values);
  const report = (name: string) => drawReport(values, locale, name);
  const log = (name: string, path: string) => readLog(values, locale, name, path);
  if (store.spec.kind === "postgres") {
    const view = openStoreView(store.spec);
    const fleet = openFleetSeam(store.spec);
    // Read every second while a page listens: the records once, then what changed.
    const steps = view.followSteps();
    const source: RunSource = {
      where: view.location,
      runs: async () => {
        const records = await steps();
        const holders = await view.holders();
        const rows = runRows({
          steps: records,
          holders,
          statusOf: (record) => statusInStore(record, holders.get(record.step)),
        });
        return fleet.rows(rows, records);
      },
      report,
      log,
      close: async () => {
        await fleet.close();
        await view.close();
      },
    };
    return { source, actions: { ...fleet.actions, say: (name, text) => sayFromPage(values, name, text) } };
  }
  const directory = new RunDirectory(runDirectoryPath(parseNonEmpty("--run-dir", values["run-dir"])));
  const source: RunSource = {
    where: directory.recordsPath,
    runs: async (): Promise<RunRow[]> => {
      const steps = directory.steps();
      // No fleet in a run directory: nothing to approve or cancel.
      return runRows({ steps, holders: directory.holders(), statusOf: effectiveStatus }).map((row) => ({
        ...row,
        can: { approve: false, cancel: false, say: row.can.say === true },
      }));
    },
    report,
    log,
    close: async () => undefined,
  };
  return { source, actions: { ...NO_FLEET, say: (name, text) => sayFromPage(values, name, text) } };
}

/**
 * The page's field: `flower say` on the run (runtime/person/say.ts), in the run directory or the store
 * the page reads; a run that has ended, or an unknown one, is refused with the reason the command gives.
 */
async function sayFromPage(values: ParsedCommand["values"], name: string, text: string): Promise<void> {
  const store = storeOption(values);
  const target = openSayTarget(store.spec, runDirectoryPath(parseNonEmpty("--run-dir", values["run-dir"])));
  try {
    const said = await sayToRun(target, name, text);
    if (said.kind === "unknown") throw new Error(`no run or step "${name}" in ${target.where}`);
    if (said.kind === "ended") throw new Error(`run "${said.run}" has ended (${said.status})`);
  } finally {
    await target.close();
  }
}

/** `flower report <name>` as a page; null when no run or step has that name. */
async function drawReport(
  values: ParsedCommand["values"],
  locale: Locale,
  name: string,
): Promise<string | null> {
  const source = await openStepSource(values, locale);
  try {
    if (!source.steps.some((record) => record.run === name || record.step === name)) return null;
    const wanted = wantedRecords(source, [name], locale);
    await source.prepareFiles(wanted.records);
    // Its check logs link to the page's log route, which serves only what these records name.
    const link = (path: string) => `/runs/${encodeURIComponent(name)}/log?path=${encodeURIComponent(path)}`;
    return renderHtmlReport(reportInput(wanted, source, locale, link), { locale });
  } finally {
    await source.close();
  }
}

/** A check log the run's records name, read where this machine has it; null for any other path. */
async function readLog(
  values: ParsedCommand["values"],
  locale: Locale,
  name: string,
  path: string,
): Promise<string | null> {
  const source = await openStepSource(values, locale);
  try {
    const named = source.steps
      .filter((record) => record.run === name || record.step === name)
      .some((record) =>
        record.guard?.checkRuns.some((run) => run.results.some((result) => result.logPath === path)),
      );
    const file = named ? source.locate(path).file : null;
    // Only a regular file in the log folder, through no link: a log replaced by a link to a file outside
    // (or a hard link to one) is not served because the record names its path.
    return file === null ? null : readFileInside(dirname(file), file);
  } finally {
    await source.close();
  }
}
