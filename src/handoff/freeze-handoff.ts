/**
 * Freezing a handoff to disk, and reading it back. The successor's prompt is always built from the
 * file as it stands on disk, so a person's edit between freeze and takeover counts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locale } from "../locale/locale.js";
import { freezeFile } from "../documents/freeze-file.js";
import { safeFileName } from "../fs/safe-file-name.js";
import type { Handoff } from "./handoff-document.js";
import { parseHandoff } from "./read-handoff.js";

const NAMES: Record<Locale, { file: string; archive: string }> = {
  zh: { file: "交接", archive: "交接" },
  en: { file: "handoff", archive: "handoff" },
};

/** `<notes>/交接-<step>.md` (zh) or `<notes>/handoff-<step>.md` (en). */
export function handoffPath(notesDir: string, step: string, locale: Locale): string {
  return join(notesDir, `${NAMES[locale].file}-${safeFileName(step)}.md`);
}

/** `<notes>/archive/交接` (zh) or `<notes>/archive/handoff` (en): where earlier generations' files go. */
export function handoffArchiveDir(notesDir: string, locale: Locale): string {
  return join(notesDir, "archive", NAMES[locale].archive);
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
  return freezeFile({
    path: handoffPath(options.notesDir, options.step, options.locale),
    text: handoff.toMarkdown(options.locale),
    archiveDir: handoffArchiveDir(options.notesDir, options.locale),
    archiveStem: options.step,
    ...(options.now ? { now: options.now } : {}),
  });
}

/** The frozen file as it is on disk now (possibly edited by a person). */
export function readFrozenHandoff(path: string, step: string): Handoff {
  return parseHandoff(readFileSync(path, "utf8"), step);
}
