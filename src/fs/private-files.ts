/**
 * Owner-only modes for what flower creates: transcripts, handoffs, spills and run records can hold
 * source code, customer data and whatever a tool printed, so the run directory, the session store and
 * the workbench are readable by their owner only (folders 0700, files 0600), whatever the umask.
 * Existing folders a person made (the workspace, a run directory given on the command line) keep the
 * mode they have: flower does not change what it did not create.
 */
import { closeSync, mkdirSync, openSync } from "node:fs";
import { mkdir } from "node:fs/promises";

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
 * Creates an empty owner-only file when none exists (an existing one is left as it is). For SQLite:
 * it gives its -wal and -shm files the database file's mode, so creating the database first decides all three.
 */
export function createPrivateFile(path: string): void {
  closeSync(openSync(path, "a", PRIVATE_FILE_MODE));
}
