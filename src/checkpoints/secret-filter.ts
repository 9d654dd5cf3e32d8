/**
 * The checkpoints' filter of secrets (secret-files.ts judges): of the paths a scan found changed, which
 * are staged, which are left out because they are untracked and look like secrets, and which look like
 * secrets but go along because `flower.json`'s `carry` names them.
 *
 * Untracked means: not in the person's index (their `git add` is their decision, so a file they track is
 * never judged); in a workspace outside git every file is untracked.
 *
 * It runs at every checkpoint, so it is cheap on purpose: the person's index is listed (one `git
 * ls-files`) only when the index file changed since the last listing — a path-by-path question costs
 * git the same read of the whole index, so one listing serves every path after it; a file's content is
 * read only when it is untracked and its name says nothing, at most CONTENT_BYTES of it; and a verdict is
 * kept per path, size and mtime (a file left out stays untracked in the shadow's index, so every scan
 * lists it again).
 */
import { closeSync, lstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import { join } from "node:path";
import type { SecretRedactor } from "../secret-redactor.js";
import { git, nulList } from "./git.js";
import {
  CARRY_NOTHING,
  CONTENT_BYTES,
  secretByContent,
  secretByName,
  type CarryRule,
  type SecretSign,
} from "./secret-files.js";

export interface SecretSorting {
  /** Paths to stage (the person's files, the run's files, deletions, and what `carry` names). */
  take: string[];
  /** Untracked files that look like secrets: not staged, and out of the index if an older one was. */
  leftOut: Array<{ path: string; sign: SecretSign }>;
  /** Files that look like secrets and are staged because `carry` names them. */
  carried: string[];
}

export interface SecretFilterOptions {
  /** The work tree the paths are relative to (the repository's top, or a workspace outside git). */
  root: string;
  /** The person's checkout whose index says what is tracked; null outside git (nothing is). */
  person: { root: string; gitDir: string } | null;
  /** `flower.json`'s `carry`. @default nothing */
  carry?: CarryRule;
  /** The credentials the `claude` child is given: a file holding one is a secret. @default none */
  redactor?: Pick<SecretRedactor, "holds"> | null;
}

export class SecretFilter {
  readonly #root: string;
  readonly #person: { root: string; gitDir: string } | null;
  readonly #carry: CarryRule;
  readonly #redactor: Pick<SecretRedactor, "holds"> | null;
  /** The paths of the person's index, valid while the index file is as `#indexSeen` says. */
  #tracked = new Set<string>();
  #indexSeen = "";
  /** Path → the content's verdict, valid while the file's size and mtime are as recorded. */
  readonly #content = new Map<string, { size: number; mtimeMs: number; sign: SecretSign | null }>();

  constructor(options: SecretFilterOptions) {
    this.#root = options.root;
    this.#person = options.person;
    this.#carry = options.carry ?? CARRY_NOTHING;
    this.#redactor = options.redactor ?? null;
  }

  async sort(paths: readonly string[]): Promise<SecretSorting> {
    const sorting: SecretSorting = { take: [], leftOut: [], carried: [] };
    const present = new Map<string, Stats>();
    for (const path of paths) {
      const stat = lstatOf(join(this.#root, path));
      // A deletion never carries anything: it goes through.
      if (stat === null) sorting.take.push(path);
      else present.set(path, stat);
    }
    if (present.size === 0) return sorting;
    const tracked = await this.#trackedOf([...present.keys()]);
    for (const [path, stat] of present) {
      const sign = tracked.has(path) ? null : this.#signOf(path, stat);
      if (sign === null) sorting.take.push(path);
      else if (this.#carry(path)) {
        sorting.take.push(path);
        sorting.carried.push(path);
      } else sorting.leftOut.push({ path, sign });
    }
    return sorting;
  }

  #signOf(path: string, stat: Stats): SecretSign | null {
    if (secretByName(path)) return "name";
    // A link is stored as a link (its target is not read); anything else but a file has no content.
    if (!stat.isFile()) return null;
    const known = this.#content.get(path);
    if (known !== undefined && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return known.sign;
    const sign = secretByContent(head(join(this.#root, path), stat.size), this.#redactor);
    this.#content.set(path, { size: stat.size, mtimeMs: stat.mtimeMs, sign });
    return sign;
  }

  /** Which of `paths` the person's index tracks. */
  async #trackedOf(paths: string[]): Promise<Set<string>> {
    const person = this.#person;
    if (person === null) return new Set();
    const seen = indexStamp(join(person.gitDir, "index"));
    if (seen !== this.#indexSeen) {
      // Read-only (GIT_OPTIONAL_LOCKS=0, git.ts): the person's index is listed, never refreshed.
      const listed = await git(["ls-files", "-z", "--cached"], { cwd: person.root, ok: [0, 128] });
      this.#tracked = new Set(nulList(listed.stdout));
      this.#indexSeen = seen;
    }
    return new Set(paths.filter((path) => this.#tracked.has(path)));
  }
}

function lstatOf(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** What changes when the index is written: a new file (inode), its size, its mtime. */
function indexStamp(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return "none";
  }
}

/** The first CONTENT_BYTES of a file (fewer for a smaller one); empty when it cannot be read. */
function head(path: string, size: number): Buffer {
  const buffer = Buffer.alloc(Math.min(size, CONTENT_BYTES));
  let fd: number | null = null;
  try {
    fd = openSync(path, "r");
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read);
  } catch {
    return Buffer.alloc(0);
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
