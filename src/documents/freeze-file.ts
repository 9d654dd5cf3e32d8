/**
 * Freezing a document's text to disk: the previous version, if any, is moved to the archive first, and
 * the new one is written atomically (a crash leaves either the old file or the new one, never half).
 * Every frozen document — handoff generations, requirements, goals — keeps its history this way, so a
 * person can always see what an earlier version said.
 */
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomically } from "../fs/atomic-write.js";
import { safeFileName } from "../fs/safe-file-name.js";

export interface FreezeFileOptions {
  /** Where the document goes. */
  path: string;
  /** Its text. */
  text: string;
  /** Where earlier versions go (created when needed). */
  archiveDir: string;
  /** The archived file's name before its time stamp (`<stem>-<timestamp>.md`); made file-name safe. */
  archiveStem: string;
  /** @default new Date() */
  now?: Date;
}

export interface FrozenFile {
  /** Where the document now is. */
  path: string;
  /** Where the previous version was moved, if there was one. */
  archived: string | null;
}

/** Archives the previous version (if any) and writes the new one atomically. */
export function freezeFile(options: FreezeFileOptions): FrozenFile {
  const { path, archiveDir } = options;
  let archived: string | null = null;
  if (existsSync(path)) {
    mkdirSync(archiveDir, { recursive: true });
    const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, "-");
    const stem = safeFileName(options.archiveStem);
    let target = join(archiveDir, `${stem}-${stamp}.md`);
    for (let n = 2; existsSync(target); n++) target = join(archiveDir, `${stem}-${stamp}-${n}.md`);
    renameSync(path, target);
    archived = target;
  }
  writeFileAtomically(path, options.text);
  return { path, archived };
}
