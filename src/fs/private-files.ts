/**
 * Owner-only modes for what flower creates: transcripts, handoffs, spills and run records can hold
 * source code, customer data and whatever a tool printed, so the run directory, the session store and
 * the workbench are readable by their owner only (folders 0700, files 0600), whatever the umask.
 * Existing folders a person made (the workspace, a run directory given on the command line) keep the
 * mode they have: flower does not change what it did not create.
 */
import { closeSync, existsSync, mkdirSync, openSync, writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** `mkdir -p` where every folder created is owner-only. */
export function makePrivateDirectory(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
}

export async function makePrivateDirectoryAsync(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
}

/**
 * A folder flower keeps in someone's project (the run directory, the workbench `.flower/`): when flower
 * creates it, it gets a `.gitignore` of its own (`*`), so transcripts, handoffs and records never reach
 * a commit by accident. A folder that already existed is the person's and is left as it is; an existing
 * `.gitignore` is never overwritten (the file is created exclusively).
 */
export function makeIgnoredDirectory(path: string): void {
  const created = !existsSync(path);
  makePrivateDirectory(path);
  if (created) writeIgnoreFile(() => writeFileSync(join(path, ".gitignore"), IGNORE_ALL, IGNORE_FLAGS));
}

export async function makeIgnoredDirectoryAsync(path: string): Promise<void> {
  const created = !existsSync(path);
  await makePrivateDirectoryAsync(path);
  if (created)
    await writeIgnoreFileAsync(() => writeFile(join(path, ".gitignore"), IGNORE_ALL, IGNORE_FLAGS));
}

const IGNORE_ALL = "*\n";
const IGNORE_FLAGS = { flag: "wx", mode: PRIVATE_FILE_MODE } as const;

/** Another process that created the folder at the same moment may have written it first: that is fine. */
function writeIgnoreFile(write: () => void): void {
  try {
    write();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

async function writeIgnoreFileAsync(write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

/**
 * Creates an empty owner-only file when none exists (an existing one is left as it is). For SQLite:
 * it gives its -wal and -shm files the database file's mode, so creating the database first decides all three.
 */
export function createPrivateFile(path: string): void {
  closeSync(openSync(path, "a", PRIVATE_FILE_MODE));
}
