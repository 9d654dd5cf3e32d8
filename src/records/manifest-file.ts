/**
 * manifest.json in the run directory: the human-readable record of every step, readable afterwards to
 * reconstruct how many generations a step burned and what each cost. Since records moved into a
 * database (storage/sqlite/sqlite-run-records.ts) it is a mirror, rewritten atomically from the database after each
 * change; an older run directory's manifest.json, written before that, is imported once.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ManifestError } from "../errors.js";
import { writeFileAtomically } from "../fs/atomic-write.js";
import type { StepRecord } from "./step-record.js";

export const MANIFEST_FORMAT = "flower-manifest";
export const MANIFEST_VERSION = 1;

export interface ManifestFile {
  format: typeof MANIFEST_FORMAT;
  version: number;
  steps: Record<string, StepRecord>;
}

export function manifestPath(runDir: string): string {
  return join(runDir, "manifest.json");
}

/**
 * The file as it is; null when there is none. A corrupt or foreign file is an error and is left alone:
 * it may be somebody else's, and a run must never overwrite it.
 */
export function readManifestFile(path: string): ManifestFile | null {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new ManifestError(path, "Cannot read the manifest", { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new ManifestError(
      path,
      "The manifest is not valid JSON; it was left as it is. Move it away or pick another runDir",
      { cause: error },
    );
  }
  const file = parsed as Partial<ManifestFile> | null;
  if (
    !file ||
    typeof file !== "object" ||
    file.format !== MANIFEST_FORMAT ||
    typeof file.steps !== "object" ||
    !file.steps
  ) {
    throw new ManifestError(
      path,
      `This manifest.json was not written by flower-agent (no "format": "${MANIFEST_FORMAT}"); it was left as it is. Pick another runDir`,
    );
  }
  if (typeof file.version !== "number" || file.version > MANIFEST_VERSION) {
    throw new ManifestError(
      path,
      `Manifest version ${String(file.version)} is newer than this flower-agent understands (${MANIFEST_VERSION})`,
    );
  }
  return file as ManifestFile;
}

/** Writes the whole mirror atomically: a reader sees the previous version or this one, never half. */
export function writeManifestFile(path: string, records: readonly StepRecord[]): void {
  const file: ManifestFile = { format: MANIFEST_FORMAT, version: MANIFEST_VERSION, steps: {} };
  for (const record of records) file.steps[record.step] = record;
  writeFileAtomically(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
}
