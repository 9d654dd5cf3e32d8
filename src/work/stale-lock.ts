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
 * The lock a failed call in `dir` met, when it is inside `dir` and older than STALE_LOCK_MS; null for
 * any other failure, a lock elsewhere, or one that may still be held.
 */
export function staleLockOf(error: unknown, dir: string, now = Date.now()): string | null {
  if (!(error instanceof GitError)) return null;
  const named = HELD.exec(error.stderr)?.[1];
  if (named === undefined) return null;
  const lock = resolve(dir, named);
  const inside = relative(resolve(dir), lock);
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return null;
  let modified: number;
  try {
    modified = statSync(lock).mtimeMs;
  } catch {
    // Gone meanwhile: its holder finished; the call can simply be tried again.
    return lock;
  }
  return now - modified > STALE_LOCK_MS ? lock : null;
}

/** Removes a stale lock; true when the call that met it may be tried again. */
export function clearStaleLock(error: unknown, dir: string): boolean {
  const lock = staleLockOf(error, dir);
  if (lock === null) return false;
  rmSync(lock, { force: true });
  return true;
}
