/**
 * A chain's first index, taken from what git already knows: the person's own index (a local run), or the
 * index `git worktree add` just wrote (a run's own worktree). Its entries carry the stat data of the files
 * as they are, so the first checkpoint's scan hashes only what changed; an index made from a tree
 * (`read-tree`) has none, and its first refresh hashes every file (1 s of CPU on 10,000 files / 216 MB).
 *
 * The person's index is read, never written: this module gets its bytes and returns new ones for the
 * shadow repository. What it keeps and what it drops, and why:
 * - the entries, as they are (version 2, 3 or 4), with the "assume unchanged" bit cleared: in the shadow
 *   it would hide an edit of that file from every checkpoint;
 * - the cache tree (`TREE`), when its root is valid and is the chain's base tree: then the index holds
 *   exactly that tree and the copy is the seed ("exact"); otherwise the index holds staged changes (or
 *   git did not keep the cache tree), and the entries are taken without it ("entries"): the caller reads
 *   the base tree over them (`read-tree --reset`, which keeps the stat data of every entry whose content
 *   is the tree's), so the chain still starts from its base, HEAD;
 * - every other extension goes: the untracked cache and the fsmonitor data describe the person's own
 *   settings (their excludes, their daemon), resolve-undo and the offset tables are of no use here.
 * An index this cannot take returns null, and the chain starts the old way: a split index (`link`: its
 * entries are in a `sharedindex` file of the person's .git), a sparse one (`sdir`), or one with
 * skip-worktree entries (a sparse checkout: what they lack on disk is a question the old way answers the
 * way flower always has), an unmerged entry, an intent-to-add entry, or a format this does not know.
 */
import { createHash } from "node:crypto";

export interface Seed {
  /**
   * `exact`: the index holds exactly the base tree, use it as it is; `entries`: the entries of the
   * person's index without a cache tree, to read the base tree over.
   */
  kind: "exact" | "entries";
  /** The new index file's bytes, in parts (written one after another: no copy of the whole). */
  parts: Buffer[];
}

/** SHA-1's size: the index's object names and its checksum (a SHA-256 repository is not seeded). */
const HASH = 20;
/** An entry's fixed part: ctime, mtime, dev, ino, mode, uid, gid, size (40 bytes), the name, the flags. */
const FIXED = 40 + HASH + 2;

/** In the high byte of an entry's flags: "assume unchanged", extended flags follow, the stage. */
const ASSUME_VALID = 0x80;
const EXTENDED = 0x40;
const STAGE = 0x30;
/** The name's length is 12 bits: the high byte's low 4 and the low byte; 0xfff means "longer". */
const NAME_LENGTH = 0xfff;
/** In the high byte of the extended flags: skip-worktree, intent-to-add. */
const SKIP_WORKTREE = 0x40;
const INTENT_TO_ADD = 0x20;

/**
 * The seed for a chain whose base tree is `baseTree` (40 hex digits), from the bytes of an index (read
 * into a buffer of the caller's own: its "assume unchanged" bits are cleared in place); null when this
 * index cannot seed one (see the module comment).
 */
export function seedFromIndex(source: Buffer, baseTree: string): Seed | null {
  if (!/^[0-9a-f]{40}$/.test(baseTree)) return null;
  if (source.length < 12 + HASH || source.toString("latin1", 0, 4) !== "DIRC") return null;
  const version = source.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = source.readUInt32BE(8);
  const index = source.subarray(0, source.length - HASH);
  const length = index.length;
  // Byte reads only: this loop runs once per chain over every entry, before the JIT has seen it.
  let at = 12;
  for (let entry = 0; entry < count; entry++) {
    if (at + FIXED > length) return null;
    const high = index[at + 60]!;
    if ((high & STAGE) !== 0) return null;
    let fixed = FIXED;
    if ((high & EXTENDED) !== 0) {
      if (version < 3 || (index[at + FIXED]! & (SKIP_WORKTREE | INTENT_TO_ADD)) !== 0) return null;
      fixed = FIXED + 2;
    }
    if ((high & ASSUME_VALID) !== 0) index[at + 60] = high & ~ASSUME_VALID;
    if (version === 4) {
      // The number of bytes to drop from the previous name (a varint), then the rest of this one.
      let varint = at + fixed;
      while (varint < length && (index[varint]! & 0x80) !== 0) varint++;
      const end = index.indexOf(0, varint + 1);
      if (end < 0) return null;
      at = end + 1;
    } else {
      const named = ((high & 0x0f) << 8) | index[at + 61]!;
      const name = named < NAME_LENGTH ? named : index.indexOf(0, at + fixed) - (at + fixed);
      if (name < 0) return null;
      // Padded with 1 to 8 NULs to a multiple of 8.
      at += (fixed + name + 8) & ~7;
    }
  }
  if (at > index.length) return null;
  const entries = index.subarray(0, at);
  let tree: Buffer | null = null;
  while (at < index.length) {
    if (at + 8 > index.length) return null;
    const signature = index.toString("latin1", at, at + 4);
    const size = index.readUInt32BE(at + 4);
    if (at + 8 + size > index.length) return null;
    // A lowercase signature is one a reader must understand: a split (`link`) or sparse (`sdir`) index.
    if (signature[0]! < "A" || signature[0]! > "Z") return null;
    if (signature === "TREE") tree = index.subarray(at, at + 8 + size);
    at += 8 + size;
  }
  const exact = tree !== null && rootOf(tree) === baseTree;
  const parts = exact ? [entries, tree!] : [entries];
  const checksum = createHash("sha1");
  for (const part of parts) checksum.update(part);
  return { kind: exact ? "exact" : "entries", parts: [...parts, checksum.digest()] };
}

/** The tree the cache tree's root names, or null when the root is not valid. */
function rootOf(extension: Buffer): string | null {
  // The root's record: its path (empty) and NUL, "<entries> <subtrees>\n", then its name if entries >= 0.
  if (extension.length < 8 + 1 || extension[8] !== 0) return null;
  const line = extension.indexOf(0x0a, 9);
  if (line < 0) return null;
  const [entries] = extension.toString("latin1", 9, line).split(" ");
  if (entries === undefined || !/^\d+$/.test(entries)) return null;
  if (line + 1 + HASH > extension.length) return null;
  return extension.toString("hex", line + 1, line + 1 + HASH);
}
