/**
 * A lock file git left in flower's shadow repository when it was killed mid-call. git takes
 * `<file>.lock` with O_EXCL for every index or ref it changes and renames it into place when done; a git
 * killed in between (`docker stop`, the OOM killer, a SIGKILL of the whole process group) leaves the
 * lock, and every later call that needs that file fails with "File exists" — each checkpoint of the run
 * would fail from then on. A SIGKILL of flower alone does not do it: its git child finishes on its own.
 *
 * Only the shadow repository's locks are cleared, never the person's. A lock is taken as stale once it is
 * older than any call of flower's holds one: a chain's calls run one at a time, so the only other holder
 * can be a git left running by a driver that died, which finishes within seconds.
 */
import { rmSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { GitError } from "./git.js";

/** How old a lock in the shadow repository must be before flower removes it. */
export const STALE_LOCK_MS = 60_000;

/** git's words for a lock somebody else holds (its C locale's; flower runs git with LC_ALL=C). */
const HELD = /Unable to create '([^']+\.lock)': File exists/;

/**
 * When a failed call in `dir` met a lock inside `dir` that is older than STALE_LOCK_MS (or already gone),
 * removes it and returns true: the call may be tried again. False for any other failure, a lock elsewhere,
 * or one that may still be held.
 */
export function clearStaleLock(error: unknown, dir: string): boolean {
  if (!(error instanceof GitError)) return false;
  const named = HELD.exec(error.stderr)?.[1];
  if (named === undefined) return false;
  const lock = resolve(dir, named);
  const inside = relative(resolve(dir), lock);
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return false;
  let modified: number;
  try {
    modified = statSync(lock).mtimeMs;
  } catch {
    // Gone meanwhile: its holder finished.
    return true;
  }
  if (Date.now() - modified <= STALE_LOCK_MS) return false;
  rmSync(lock, { force: true });
  return true;
}
