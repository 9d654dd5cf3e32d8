/**
 * The names of what flower keeps on disk, known here only: the run directory's default place and the
 * files inside it. The CLI resolves `--run-dir` through `runDirectory`, and only storage/ joins a file
 * name to a run directory, so renaming a file (or moving the default) is a change to this module.
 */
import { join, resolve } from "node:path";
import { DEFAULTS } from "../defaults.js";

/** Step records and leases (storage/sqlite/sqlite-run-records.ts), with `manifest.json` beside them. */
export const RECORDS_FILE = "records.db";

/** The session transcripts of the default backend, beside the records. */
export const SESSIONS_FILE = "sessions.db";

/** The run directory, absolute: the one given (relative to the process cwd), else the default. */
export function runDirectory(given?: string): string {
  return resolve(given ?? DEFAULTS.runDir);
}

/** Whether `runDir` is the default one (the CLI then leaves `--run-dir` out of the lines it prints). */
export function isDefaultRunDirectory(runDir: string): boolean {
  return resolve(runDir) === runDirectory();
}

export function sessionsPath(runDir: string): string {
  return join(runDir, SESSIONS_FILE);
}

export function recordsPath(runDir: string): string {
  return join(runDir, RECORDS_FILE);
}
