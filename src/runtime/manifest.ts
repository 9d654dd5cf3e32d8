/**
 * manifest.json in the run directory: one record per step, readable afterwards to reconstruct how many
 * generations a step burned and what each cost. Written atomically (temp file + rename) on every
 * change, so a crash never leaves half a file; re-read before each write so two processes running
 * different steps of one run do not erase each other's records.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ManifestError } from "../errors.js";
import { writeFileAtomically } from "../fs/atomic-write.js";
import type { StepRecord } from "./step-result.js";

export const MANIFEST_FORMAT = "flower-manifest";
export const MANIFEST_VERSION = 1;

export interface ManifestFile {
  format: typeof MANIFEST_FORMAT;
  version: number;
  steps: Record<string, StepRecord>;
}

export class Manifest {
  readonly path: string;

  constructor(runDir: string) {
    this.path = join(runDir, "manifest.json");
    // Fail at construction on a corrupt or foreign file, before any step spends money.
    this.read();
  }

  /** The whole file; an empty manifest when there is none yet. */
  read(): ManifestFile {
    let raw: string;
    try {
      raw = readFileSync(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        return { format: MANIFEST_FORMAT, version: MANIFEST_VERSION, steps: {} };
      }
      throw new ManifestError(this.path, "Cannot read the manifest", { cause: error });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      throw new ManifestError(
        this.path,
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
        this.path,
        `This manifest.json was not written by flower-agent (no "format": "${MANIFEST_FORMAT}"); it was left as it is. Pick another runDir`,
      );
    }
    if (typeof file.version !== "number" || file.version > MANIFEST_VERSION) {
      throw new ManifestError(
        this.path,
        `Manifest version ${String(file.version)} is newer than this flower-agent understands (${MANIFEST_VERSION})`,
      );
    }
    return file as ManifestFile;
  }

  get(step: string): StepRecord | undefined {
    return this.read().steps[step];
  }

  steps(): StepRecord[] {
    return Object.values(this.read().steps);
  }

  /** Writes one step's record, keeping every other step as it is on disk now. */
  put(record: StepRecord): void {
    const file = this.read();
    file.steps[record.step] = { ...record, updatedAt: new Date().toISOString() };
    writeFileAtomically(this.path, `${JSON.stringify(file, null, 2)}\n`);
  }
}
