/**
 * A writing turn that answered with a pointer instead of the handoff: "The handoff is in
 * .flower/notes/my-handoff.md". The writing guard (guards/writing-guard.ts) turns back a subagent or a
 * Write in the writing turn, so this happens only when the file was written before the turn (a
 * coordinator that kept its own handoff file) or by a route the guard does not see. Degrading then would
 * throw away a handoff that is on disk; so when the answer itself carries no section, a file it names is
 * read as the handoff — only inside the workspace (an answer must not pull /etc/passwd into the
 * successor's prompt), only a text file of handoff size, and only if it holds a section that says something.
 * The step's own frozen handoff (flower's file for the previous generation, titled with the step) is
 * never taken: it says where the work stood one generation ago.
 */
import { readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import { LOCALES } from "../locale/locale.js";
import { parseHandoff } from "./read-handoff.js";
import { isHollow, resolveScenePath, scenePaths } from "./handoff-quality.js";
import { HANDOFF_SECTIONS } from "../handoff-sections.js";
import { HANDOFF_TITLE } from "./handoff-document-text.js";

/** A handoff is a page or two; a bigger file is something else (a log, a data file). */
export const NAMED_FILE_MAX_BYTES = 256 * 1024;

export interface NamedHandoff {
  /** The path as the answer wrote it. */
  path: string;
  text: string;
}

/** The first file the answer names that holds a handoff (not the step's frozen one), or null. */
export function namedHandoffFile(answer: string, workspace: string, step: string): NamedHandoff | null {
  const frozenTitles = LOCALES.map((locale) => HANDOFF_TITLE[locale](step));
  let root: string;
  try {
    root = realpathSync(workspace);
  } catch {
    return null;
  }
  for (const path of scenePaths(answer)) {
    const text = readInside(resolveScenePath(path, workspace), root);
    if (text === null || frozenTitles.includes(text.trimStart().split("\n")[0]!.trim())) continue;
    const handoff = parseHandoff(text);
    if (HANDOFF_SECTIONS.some((name) => !isHollow(handoff[name]))) return { path, text };
  }
  return null;
}

/** The file's text if it is a regular UTF-8 text file of handoff size inside `root`; else null. */
function readInside(file: string, root: string): string | null {
  try {
    const real = realpathSync(file);
    const rel = relative(root, real);
    if (rel === "" || rel.split(sep)[0] === ".." || isAbsolute(rel)) return null;
    const stat = statSync(real);
    if (!stat.isFile() || stat.size > NAMED_FILE_MAX_BYTES) return null;
    const text = new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(real));
    return text.includes("\u0000") ? null : text;
  } catch {
    return null;
  }
}
