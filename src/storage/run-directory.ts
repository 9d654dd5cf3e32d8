/**
 * A run directory seen from outside a run: what `flower runs`, `flower show` and `flower forget` need,
 * and nothing more. Tools that look at a run afterwards go through this API instead of opening the
 * records or the session store themselves, so how the records are kept can change (today records.db,
 * mirrored to manifest.json) without touching them. It exposes `StepRecord` and who holds a step.
 *
 * Everything here reads, except `forgetStep`, which deletes a step's sessions (retention).
 */
import { pidExists } from "../records/process-identity.js";
import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { LeaseHolder } from "../errors.js";
import { safeFileName } from "../fs/safe-file-name.js";
import { holderOf, ownerGone, DEFAULT_LEASE_TIMING } from "../records/lease.js";
import { manifestPath } from "../records/manifest-file.js";
import { currentProcess } from "../records/process-identity.js";
import { SqliteRunRecords } from "./sqlite/sqlite-run-records.js";
import type { PersonMessage } from "../records/person-messages.js";
import { atDriftPause, type StepRecord } from "../records/step-record.js";
import { SqliteSessionStore } from "./sqlite/sqlite-session-store.js";
import { recordsPath, sessionsPath } from "./files.js";
import { deleteStepSessions } from "./retention.js";

/** A step's frozen handoff files: the current one (newest), and those moved to the archive. */
export interface HandoffFiles {
  current: string[];
  archived: string[];
}

export interface ForgetResult {
  /** How many sessions (with their subagent transcripts) were deleted. */
  deleted: number;
  /** Where they were deleted from, for the message. */
  from: string;
}

export class RunDirectory {
  /** The run directory, absolute. */
  readonly path: string;
  /** Where the step records are kept (records.db; manifest.json is only its readable copy), for messages such as "no steps in …". */
  readonly recordsPath: string;

  /** Opens a run directory; fails at once on records it cannot read. Creates nothing in an empty one. */
  constructor(runDir: string) {
    this.path = resolve(runDir);
    this.recordsPath = recordsPath(this.path);
    // Validate now (a corrupt or foreign manifest.json is an error), without creating a database.
    this.#read(() => undefined);
  }

  /** Opens the records for one read and closes them again; nothing there yet reads as empty. */
  #read<T>(read: (records: SqliteRunRecords) => T, empty?: T): T {
    // An older run directory has only manifest.json: the records open it (and import it once).
    if (!existsSync(this.recordsPath) && !existsSync(manifestPath(this.path))) return empty as T;
    const records = new SqliteRunRecords(this.path);
    try {
      return read(records);
    } finally {
      records.close();
    }
  }

  /** A person's messages to `run` that no session has been given yet (`flower say`), oldest first. */
  messages(run: string): PersonMessage[] {
    return this.#read((records) => records.messages.list(run), []);
  }

  /** Every step's record, oldest update first. */
  steps(): StepRecord[] {
    return this.#read((records) => records.list(), []).sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
  }

  /** The step names, oldest update first (for "known: …" in messages). */
  stepNames(): string[] {
    return this.#read((records) => records.list(), []).map((record) => record.step);
  }

  /** One step's record; undefined when the run directory has no such step. */
  step(name: string): StepRecord | undefined {
    return this.#read((records) => records.get(name), undefined);
  }

  /** Who drives each running step now (a lease whose owner is gone is left out). */
  holders(): Map<string, LeaseHolder> {
    const self = currentProcess();
    const now = new Date();
    const leases = this.#read((records) => records.leases(), []);
    return new Map(
      leases
        .filter((lease) => !ownerGone(lease, self, now, DEFAULT_LEASE_TIMING))
        .map((lease) => [lease.step, holderOf(lease)]),
    );
  }

  /** The most recently updated step, if any. */
  lastStep(): StepRecord | undefined {
    return this.steps().at(-1);
  }

  /**
   * The frozen files of a step: the newest one is current; earlier generations were moved to the
   * archive (the record follows them there), and archived files of earlier runs of the same step are
   * listed too.
   */
  handoffFiles(record: StepRecord): HandoffFiles {
    const newest = record.handoffs.at(-1);
    const current = newest === undefined ? [] : [newest];
    const archived = new Set(record.handoffs.slice(0, -1));
    const prefix = `${safeFileName(record.step)}-`;
    for (const path of current) {
      // <notes>/交接-<step>.md → <notes>/archive/交接/<step>-<timestamp>.md (handoff-… in en).
      const kind = basename(path).slice(0, basename(path).indexOf("-"));
      const dir = join(dirname(path), "archive", kind);
      if (!existsSync(dir)) continue;
      for (const name of readdirSync(dir).sort()) {
        if (
          name.startsWith(prefix) &&
          name.endsWith(".md") &&
          /^\d{4}-\d\d-\d\dT/.test(name.slice(prefix.length))
        )
          archived.add(join(dir, name));
      }
    }
    return { current, archived: [...archived].sort() };
  }

  /**
   * Retention, the one write: deletes the step's sessions (burned generations and the current one)
   * from the session store; the step's record stays, so costs and handoff files remain readable.
   * Returns null when the directory has no session store at all. Throws ConfigurationError for a step
   * that was never recorded. Must not be called while the step runs.
   */
  async forgetStep(step: string): Promise<ForgetResult | null> {
    const database = sessionsPath(this.path);
    if (!existsSync(database)) return null;
    const store = new SqliteSessionStore({ path: database });
    const records = new SqliteRunRecords(this.path);
    try {
      return { deleted: await deleteStepSessions(records, store, step), from: database };
    } finally {
      store.close();
      records.close();
    }
  }

  /**
   * Deletes the steps' records from this directory, the local copy a shared store's driver keeps: a step
   * forgotten in the store must not come back from it, in `flower runs` here or as a step `flower
   * continue` would try to resume. Nothing to do in a directory without records.
   */
  forgetRecords(steps: readonly string[]): void {
    this.#read((records) => {
      for (const step of steps) records.delete(step);
    });
  }
}

/**
 * A step's status as a reader should see it: "running" is only true while the process that runs the
 * step lives; a step whose process crashed or was killed is interrupted (and can be continued); one the
 * drift watch stopped at a handoff is paused for a person (as its notifier and a fleet's row say).
 */
export function effectiveStatus(record: StepRecord): StepRecord["status"] | "interrupted" | "paused" {
  if (atDriftPause(record)) return "paused";
  if (record.status !== "running" || record.pid === undefined || record.pid === process.pid)
    return record.status;
  return pidExists(record.pid) ? "running" : "interrupted";
}
