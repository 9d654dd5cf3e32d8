/**
 * Where a declared document lives, freezing it there, and reading it back. The next step's prompt is
 * always built from the file as it stands on disk, so a person's edit between two steps counts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import type { Locale } from "../locale/locale.js";
import { safeFileName } from "../fs/safe-file-name.js";
import type { DocumentSpec, ParsedDocument } from "./document.js";
import { freezeFile, type FrozenFile } from "./freeze-file.js";
import { parseDocument } from "./read.js";

/** `<notes>/<stem>-<run>.md`: `需求-<run>.md` (zh) or `requirements-<run>.md` (en). */
export function documentPath(notesDir: string, spec: DocumentSpec, run: string, locale: Locale): string {
  return join(notesDir, `${spec.file[locale]}-${safeFileName(run)}.md`);
}

export interface FreezeDocumentOptions {
  /** The workbench's notes folder. */
  notesDir: string;
  locale: Locale;
  /** @default new Date() */
  now?: Date;
}

/**
 * Freezes the document to `documentPath(...)` atomically; a previous version is moved to
 * `<notes>/archive/<stem>/<run>-<timestamp>.md` first.
 */
export function freezeDocument(document: ParsedDocument, options: FreezeDocumentOptions): FrozenFile {
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError("options", options, "an object { notesDir, locale, now? }");
  refuseUnknownOptions(options, {
    notesDir: true,
    locale: true,
    now: true,
  } satisfies Record<keyof FreezeDocumentOptions, true>);
  const stem = document.spec.file[options.locale];
  return freezeFile({
    path: documentPath(options.notesDir, document.spec, document.run, options.locale),
    text: document.toMarkdown(options.locale),
    archiveDir: join(options.notesDir, "archive", safeFileName(stem)),
    archiveStem: document.run || stem,
    ...(options.now ? { now: options.now } : {}),
  });
}

export interface ReadDocument {
  /** The file's text exactly as it is on disk now (what the next step's prompt carries). */
  text: string;
  /** The same text parsed by the spec; degraded when it is not usable as it now stands. */
  document: ParsedDocument;
}

/** The frozen file as it is on disk now (possibly edited by a person). */
export function readFrozenDocument(spec: DocumentSpec, path: string, run = ""): ReadDocument {
  const text = readFileSync(path, "utf8");
  return { text, document: parseDocument(spec, text, run) };
}
