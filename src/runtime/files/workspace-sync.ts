/**
 * The workbench files a step needs on another machine, kept in the shared store as they appear:
 * - every file under `.flower/notes/` (handoffs, requirements, goals, any document frozen there; the
 *   archive too), saved when a handoff or a document is frozen and when a step ends;
 * - every spill file, saved when the spill guard writes it (a transcript points at it).
 * Before a step runs, the notes are written back into this workspace where they are missing or older
 * than the store's copy; spill files are written back lazily, when a loaded transcript points at one
 * (session-layers/roaming-store.ts). Saving happens in the background, one file after another; `flush()` waits
 * and reports the first failure, so a step does not end "done" with its handoff missing from the store.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { DEFAULTS } from "../../defaults.js";
import { writeFileAtomically } from "../../fs/atomic-write.js";
import type { StepRecord } from "../../records/step-record.js";
import type { WorkspaceFiles } from "../../session-layers/workspace-files.js";

const NOTES = `${DEFAULTS.workbenchDir}/notes/`;

export class WorkspaceSync {
  readonly workspace: string;
  readonly #files: WorkspaceFiles;
  /** Content hash last saved per relative path: unchanged notes are not sent again. */
  readonly #saved = new Map<string, string>();
  #queue: Promise<void> = Promise.resolve();
  #failure: Error | undefined = undefined;

  constructor(files: WorkspaceFiles, workspace: string) {
    this.#files = files;
    this.workspace = workspace;
  }

  /** Saves every file under `.flower/notes/` that changed since it was last saved from here. */
  saveNotes(step: string): void {
    this.#enqueue(async () => {
      for (const path of walk(join(this.workspace, NOTES))) await this.#save(path, step);
    });
  }

  /** Saves one spill file (an absolute path under this workspace's `.flower/spill/`). */
  saveFile(path: string, step: string): void {
    this.#enqueue(() => this.#save(path, step));
  }

  /**
   * Writes back the stored notes this workspace lacks, or holds in a version older than the store's
   * (a handoff frozen on another machine after this checkout last saw it). Returns the paths written.
   */
  async restoreNotes(): Promise<string[]> {
    const written: string[] = [];
    for (const stored of await this.#files.list(NOTES)) {
      const path = join(this.workspace, ...stored.path.split("/"));
      if (existsSync(path) && statSync(path).mtimeMs >= stored.savedAt) continue;
      const content = await this.#files.get(stored.path);
      if (content === null) continue;
      // Saved from here after it was written: the same bytes, nothing to do.
      if (existsSync(path) && readFileSync(path).equals(content)) continue;
      writeFileAtomically(path, content);
      this.#saved.set(stored.path, hash(content));
      written.push(path);
    }
    return written;
  }

  /** Waits for the saves so far; throws the first failure (once). */
  async flush(): Promise<void> {
    await this.#queue;
    const failure = this.#failure;
    this.#failure = undefined;
    if (failure !== undefined) throw failure;
  }

  async #save(path: string, step: string): Promise<void> {
    // By the `.flower/` in the path, not relative to the workspace: the spill guard names files under the
    // workbench's real path, which differs from the workspace as given when that has a symlink in it.
    const marker = `${sep}${DEFAULTS.workbenchDir}${sep}`;
    const at = path.lastIndexOf(marker);
    if (at === -1) return;
    const key = `${DEFAULTS.workbenchDir}/${path
      .slice(at + marker.length)
      .split(sep)
      .join("/")}`;
    let content: Buffer;
    try {
      content = readFileSync(path);
    } catch {
      // Moved to the archive meanwhile: the walk of the next save finds it there.
      return;
    }
    const digest = hash(content);
    if (this.#saved.get(key) === digest) return;
    await this.#files.put(key, content, step);
    this.#saved.set(key, digest);
  }

  #enqueue(work: () => Promise<void>): void {
    this.#queue = this.#queue.then(async () => {
      try {
        await work();
      } catch (error) {
        this.#failure ??= error instanceof Error ? error : new Error(String(error));
      }
    });
  }
}

/** Every regular file under `dir`, depth first; nothing when it does not exist. */
function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...walk(path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

function hash(content: Buffer): string {
  return createHash("sha256").update(content).digest("hex");
}

/**
 * A path recorded on another machine (`/their/checkout/.flower/notes/handoff-x.md`) as the same file in
 * this workspace, when this workspace has it (restoreNotes wrote it back); otherwise the path as recorded.
 * Paths outside a `.flower/` folder stay.
 */
export function relocatedPath(path: string, workspace: string): string {
  const marker = `/${DEFAULTS.workbenchDir}/`;
  const at = path.lastIndexOf(marker);
  if (at === -1) return path;
  const here = join(workspace, DEFAULTS.workbenchDir, path.slice(at + marker.length));
  return existsSync(here) ? here : path;
}

/** The record with its handoff paths as they are in this workspace (see relocatedPath). */
export function relocatedRecord(record: StepRecord, workspace: string): StepRecord {
  return {
    ...record,
    handoffs: record.handoffs.map((path) => relocatedPath(path, workspace)),
    pendingHandoff: record.pendingHandoff === null ? null : relocatedPath(record.pendingHandoff, workspace),
  };
}
