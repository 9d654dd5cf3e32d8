/**
 * Keeping a shadow repository small. Every checkpoint writes a dozen loose objects (the changed files,
 * the trees above them, the commit), each in a file of its own and a 4 KiB block at least: 1,000
 * checkpoints of a 5-file change took 78.8 MB on disk, 5.6 MB packed. So the shadow is repacked every
 * PACK_EVERY checkpoints of a chain (in the background: the chain's next checkpoint does not wait) and
 * when a step ends, and at a step's end also pruned:
 * - `git repack -A -d -l`: every object a ref reaches into one pack, its earlier deltas kept and the new
 *   objects deltified against the older versions (which is what makes it small: an incremental repack
 *   without `-a` packs each batch alone, 41.8 MB for the same 1,000 checkpoints). Local objects only
 *   (`-l`): what the shadow borrows from the person's repository through `alternates` is never copied
 *   into it. Its cost is about 1 ms of CPU per new object (the delta search), so it is the same per
 *   checkpoint whether it runs every 50 or every 100; 100 keeps the loose objects between two under
 *   ~8 MB.
 * - `git prune --expire=1.hour.ago` (a step's end): the loose objects no ref reaches (checkpoints dropped
 *   by a continue, files a comparison hashed), and the index files of chains nobody used for a day (a
 *   chain that goes on later starts its index again from its tip, cheaply: index-seed.ts).
 *
 * What stays, on purpose: everything a ref reaches — each run's chain (`refs/flower/runs/`), the chains
 * of earlier runs of a step name and of rewinds (`refs/flower/rewound/`), the branches handed back.
 *
 * Two runs can share a shadow repository (two steps of one run directory in one checkout) and one can
 * write while the other maintains. git's own rules make that safe, as they make `git gc --auto` safe
 * beside a person's commands: a repack only adds a pack and then removes files of objects it packed;
 * with `-A` an object no ref reaches is not dropped from an old pack but put back loose (a bundle another
 * run just took in, before its ref moves, is such an object); and `prune` removes only loose objects
 * older than PRUNE_EXPIRE, while another chain's files staged a moment ago are younger. (A chain whose
 * index names an object pruned since starts its index again: shadow-repo.ts.) Two maintenances at once
 * would only do the work twice: a lock file (`flower-maintenance`, holding the pid and host) lets one
 * through and the other skip; one left by a dead process, or older than an hour, is taken over. None of
 * this takes a `.lock` file a checkpoint's git call could meet, so the stale-lock rule (stale-lock.ts)
 * never sees one of maintenance's.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { GitAnswer, GitCall } from "./git.js";

/** A chain's objects are packed after this many checkpoints that wrote a commit. */
export const PACK_EVERY = 100;

/** Unreachable objects younger than this stay: another chain may be about to reach them. */
export const PRUNE_EXPIRE = "1.hour.ago";

/** A chain index unused this long is removed at a full maintenance (it is made again when needed). */
const IDLE_INDEX_MS = 24 * 60 * 60 * 1000;

/** A maintenance lock older than this is taken as left behind. */
const LOCK_STALE_MS = 60 * 60 * 1000;

const LOCK = "flower-maintenance";

/** What a shadow repository offers maintenance (shadow-repo.ts's ShadowRepo). */
export interface Maintainable {
  readonly dir: string;
  run(args: readonly string[], call?: GitCall & { index?: string }): Promise<GitAnswer>;
}

export interface Maintained {
  /** The pack files after it. */
  packs: number;
  /** Loose objects after it. */
  loose: number;
}

/**
 * Packs the shadow repository (and with `full` prunes and clears what is idle); null when another
 * maintenance is at it.
 */
export async function maintainShadow(
  shadow: Maintainable,
  options: { full: boolean },
): Promise<Maintained | null> {
  const lock = join(shadow.dir, LOCK);
  if (!takeLock(lock)) return null;
  try {
    // Nothing loose, nothing to pack or prune: a step that changed no file costs a directory listing.
    if (looseObjects(shadow.dir) > 0) {
      await shadow.run(["repack", "-A", "-d", "-l", "-q", `--unpack-unreachable=${PRUNE_EXPIRE}`]);
      if (options.full) await shadow.run(["prune", `--expire=${PRUNE_EXPIRE}`]);
    }
    if (options.full) clearIdle(shadow.dir);
    return { packs: packFiles(shadow.dir), loose: looseObjects(shadow.dir) };
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Takes the maintenance lock; false while a live maintenance holds it. */
function takeLock(lock: string): boolean {
  const mine = `${process.pid} ${hostname()} ${Date.now()}\n`;
  for (let tries = 0; tries < 2; tries++) {
    try {
      writeFileSync(lock, mine, { flag: "wx", mode: 0o600 });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (!lockLeftBehind(lock)) return false;
    rmSync(lock, { force: true });
  }
  return false;
}

function lockLeftBehind(lock: string): boolean {
  let text: string;
  let modified: number;
  try {
    text = readFileSync(lock, "utf8");
    modified = statSync(lock).mtimeMs;
  } catch {
    // Gone meanwhile: free.
    return true;
  }
  if (Date.now() - modified > LOCK_STALE_MS) return true;
  const [pid, host] = text.trim().split(" ");
  if (host !== hostname() || pid === undefined || !/^\d+$/.test(pid)) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Removes chain indexes and session files nobody used for a day. */
function clearIdle(dir: string): void {
  const now = Date.now();
  const old = (path: string) => {
    try {
      return now - statSync(path).mtimeMs > IDLE_INDEX_MS;
    } catch {
      return false;
    }
  };
  for (const name of safeList(dir))
    if (/^index-.+$/.test(name) && !name.endsWith(".lock") && old(join(dir, name)))
      rmSync(join(dir, name), { force: true });
  const io = join(dir, "flower-io");
  for (const name of safeList(io)) if (old(join(io, name))) rmSync(join(io, name), { force: true });
}

export function packFiles(dir: string): number {
  return safeList(join(dir, "objects", "pack")).filter((name) => name.endsWith(".pack")).length;
}

export function looseObjects(dir: string): number {
  let count = 0;
  const objects = join(dir, "objects");
  for (const name of safeList(objects))
    if (/^[0-9a-f]{2}$/.test(name)) count += safeList(join(objects, name)).length;
  return count;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
