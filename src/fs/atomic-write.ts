/**
 * Writing a file so that a reader (or a crash) sees the old content or the new one, never half: write a
 * temp file in the same folder, then rename it over the target (a rename within one file system is
 * atomic on POSIX). Every file flower writes for a person or a later process goes through here: the run
 * record, frozen handoffs, spill files, the workbench index.
 */
import { randomBytes } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { checkpoint, type CheckpointName } from "./checkpoint.js";
import { makePrivateDirectory, makePrivateDirectoryAsync, PRIVATE_FILE_MODE } from "./private-files.js";

export interface AtomicWriteOptions {
  /** File mode of the file. @default 0o600 (owner only: see private-files.ts) */
  mode?: number;
  /** A crash test's stopping point between writing the temporary file and renaming it (checkpoint.ts). */
  checkpoint?: CheckpointName;
}

/**
 * The temp file's name: same folder (so the rename stays on one file system), unique per writer, and
 * hidden (a leading dot): a temporary left by a killed writer must not show up as a file of its own,
 * e.g. as an entry of the workbench index, which skips dotfiles.
 */
function temporaryPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
}

/** Writes `content` to `path` atomically, creating the folder if needed. */
export function writeFileAtomically(
  path: string,
  content: string | Uint8Array,
  options: AtomicWriteOptions = {},
): void {
  makePrivateDirectory(dirname(path));
  const temporary = temporaryPath(path);
  try {
    writeFileSync(temporary, content, {
      flag: "wx",
      mode: options.mode ?? PRIVATE_FILE_MODE,
    });
    if (options.checkpoint) checkpoint(options.checkpoint);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The same, without blocking the event loop (hooks run inside the SDK's message loop). */
export async function writeFileAtomicallyAsync(
  path: string,
  content: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  await makePrivateDirectoryAsync(dirname(path));
  const temporary = temporaryPath(path);
  try {
    await writeFile(temporary, content, {
      flag: "wx",
      mode: options.mode ?? PRIVATE_FILE_MODE,
    });
    if (options.checkpoint) checkpoint(options.checkpoint);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
