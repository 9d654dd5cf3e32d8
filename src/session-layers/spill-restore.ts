/**
 * Spill files travel with the store. The trim pass writes `<workspace>/.flower/spill/trim-<hash>.txt` on
 * the machine that loads a session, and a resumed transcript may carry such pointers (the resumed CLI
 * writes the trimmed history it was given). On a second machine with a fresh checkout the folder is empty,
 * so before the agent can Read a pointer, every pointed-at file missing here is written back from the
 * blob store. Only this workspace's spill folder is ever written: a pointer's folder comes from whichever
 * machine trimmed it, its file name (a content hash) is what identifies the blob.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { writeFileAtomically } from "../fs/atomic-write.js";
import { blobAddress, type BlobStore } from "./blob-store.js";
import type { SpillFile } from "./passes/trim-results.js";

/** The name the trim pass gives a spill file (`spillPath` in passes/trim-results.ts): 20 hex digits of sha256. */
const SPILL_NAME = /trim-([0-9a-f]{20})\.txt/g;

/** The spill file names (`trim-<hash>.txt`) that the entries mention, each once. */
export function spillNamesIn(entries: readonly SessionStoreEntry[]): string[] {
  const names = new Set<string>();
  for (const entry of entries) {
    for (const match of JSON.stringify(entry).matchAll(SPILL_NAME)) names.add(match[0]);
  }
  return [...names];
}

/**
 * Writes back every spill file the entries point at that is missing under `spillDir`. A name the blob
 * store does not know (a pointer from before blobs were kept, or text that merely looks like one) is left
 * missing; a blob whose content does not hash to its name is refused. Returns the names written.
 */
export async function restoreSpills(
  entries: readonly SessionStoreEntry[],
  spillDir: string,
  blobs: BlobStore,
): Promise<string[]> {
  const restored: string[] = [];
  for (const name of spillNamesIn(entries)) {
    const path = join(spillDir, name);
    if (existsSync(path)) continue;
    const prefix = name.slice("trim-".length, -".txt".length);
    const content = await blobs.get(prefix);
    if (content === null || !blobAddress(content).startsWith(prefix)) continue;
    writeFileAtomically(path, content);
    restored.push(name);
  }
  return restored;
}

/** Keeps every spill file of one load in the blob store, so other machines can restore it. */
export async function keepSpills(spills: readonly SpillFile[], blobs: BlobStore): Promise<void> {
  await Promise.all(spills.map((spill) => blobs.put(spill.content)));
}
