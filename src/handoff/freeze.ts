/**
 * Freezing a handoff to disk, and reading it back. The successor's prompt is always built from the
 * file as it stands on disk, so a person's edit between freeze and takeover counts.
 */
import { existsSync, readFileSync, renameSync } from "node:fs";
import { makePrivateDirectory } from "../fs/private-files.js";
import { join } from "node:path";
import type { Locale } from "../locale/locale.js";
import { writeFileAtomically } from "../fs/atomic-write.js";
import { safeFileName } from "../fs/safe-file-name.js";
import type { Handoff } from "./document.js";
import { parseHandoff } from "./parse.js";

const NAMES: Record<Locale, { file: string; archive: string }> = {
  zh: { file: "交接", archive: "交接" },
  en: { file: "handoff", archive: "handoff" },
};

/** `<notes>/交接-<step>.md` (zh) or `<notes>/handoff-<step>.md` (en). */
export function handoffPath(notesDir: string, step: string, locale: Locale): string {
  return join(notesDir, `${NAMES[locale].file}-${safeFileName(step)}.md`);
}

export interface Frozen {
  /** Where this handoff now is. */
  path: string;
  /** Where the previous generation's file was moved, if there was one. */
  archived: string | null;
}

/**
 * Writes the handoff; an existing previous generation is moved to
 * `<notes>/archive/交接/<step>-<timestamp>.md` first.
 */
export function freezeHandoff(
  handoff: Handoff,
  options: { notesDir: string; step: string; locale: Locale; now?: Date },
): Frozen {
  const path = handoffPath(options.notesDir, options.step, options.locale);
  let archived: string | null = null;
  if (existsSync(path)) {
    const archiveDir = join(options.notesDir, "archive", NAMES[options.locale].archive);
    makePrivateDirectory(archiveDir);
    const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, "-");
    let target = join(archiveDir, `${safeFileName(options.step)}-${stamp}.md`);
    for (let n = 2; existsSync(target); n++)
      target = join(archiveDir, `${safeFileName(options.step)}-${stamp}-${n}.md`);
    renameSync(path, target);
    archived = target;
  }
  writeFileAtomically(path, handoff.toMarkdown(options.locale));
  return { path, archived };
}

/** The frozen file as it is on disk now (possibly edited by a person). */
export function readFrozenHandoff(path: string, step: string): Handoff {
  return parseHandoff(readFileSync(path, "utf8"), step);
}
