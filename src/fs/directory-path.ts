/**
 * Whether a folder flower is to make (a run directory) can be made: a path that is a file, or that lies
 * under a file (`somefile/runs`), never can (mkdir fails with ENOTDIR or EEXIST). Checked before anything
 * is written, so the caller names its option instead of a raw system error.
 */
import { lstatSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * The first existing path, from `path` itself up to the root, that is not a directory (a file, a
 * socket, …); null when every existing one is a directory (the folder exists, or can be made). Links
 * are followed, as mkdir follows them.
 */
export function notADirectoryOnPath(path: string): string | null {
  let current = resolve(path);
  for (;;) {
    const stat = statOf(current);
    if (stat === "missing") {
      // A link to nothing is there all the same: mkdir cannot make a folder in its place.
      if (isLink(current)) return current;
    } else return stat === "directory" ? null : current;
    const parent = dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

/** What is at a path, following links; "missing" also under a file (ENOTDIR: its parent decides). */
function statOf(path: string): "directory" | "other" | "missing" {
  try {
    return statSync(path).isDirectory() ? "directory" : "other";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return "missing";
    // Unreadable (EACCES, a link loop): making the folder will say what is wrong.
    return "directory";
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
