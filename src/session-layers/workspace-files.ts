/**
 * Files of a workbench that must follow a step to another machine, kept by a shared store under their
 * path relative to the workspace (`.flower/notes/handoff-build.md`, `.flower/spill/<name>.txt`): the
 * frozen documents a successor starts from, and the spill guard's files a transcript points at. A fresh
 * checkout has no `.flower/`; the runtime writes them back before a step continues there.
 */

export interface StoredFile {
  /** Relative to the workspace, `/`-separated, under `.flower/`. */
  path: string;
  /** When it was last saved, in this machine's clock (the store's clock, corrected by its age). */
  savedAt: number;
}

export interface WorkspaceFiles {
  /** Saves `content` under `path` (unchanged content is not rewritten). */
  put(path: string, content: Buffer, step?: string): Promise<void>;
  get(path: string): Promise<Buffer | null>;
  /** Every file whose path starts with `prefix`. */
  list(prefix: string): Promise<StoredFile[]>;
}

/** A path the store accepts: relative, `/`-separated, under `.flower/`, without `..` or empty parts. */
export function isWorkspaceFilePath(value: unknown): value is string {
  if (typeof value !== "string" || !value.startsWith(".flower/") || value.includes("\\")) return false;
  return value.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}
