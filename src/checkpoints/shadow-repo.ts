/**
 * The shadow repository: a git repository of flower's own that records a workspace's files, outside the
 * person's `.git`. It never touches their index, HEAD, branches, stash, config or hooks: every call runs
 * with GIT_DIR set to the shadow, an index file of its own per chain, and no global or system config.
 *
 * It borrows, read-only, what the person's repository already has: its objects (an `alternates` entry,
 * so a checkpoint of a 200 MB checkout stores only what changed), its `info/exclude` and the person's
 * global excludes file (so `.gitignore` is respected exactly as their own `git status` respects it), and
 * its index as each chain's first (so the first checkpoint hashes only what changed: index-seed.ts).
 *
 * The work tree is the repository's top level, and every scan is limited to the workspace's folder in it:
 * trees are whole-repository trees, so a branch built from them can be merged into the person's repository
 * as it is. A workspace that is not in a git repository is its own root, and its files are stored in full.
 *
 * What is left out, always: the `.git` folders (git's rule), flower's own folders (the run directory and
 * `.flower/`, which travel their own way), files over the size limit (named, so the record can say so),
 * nested repositories (named likewise), and untracked files that look like secrets unless `flower.json`'s
 * `carry` names them (secret-filter.ts; named too): a checkpoint travels to the store, to every worker and
 * into the branch `flower/<run>`.
 */
import {
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import type { SecretRedactor } from "../secret-redactor.js";
import { readFlowerJson } from "./flower-json.js";
import { git, gitEnvironment, GitError, gitText, nulList, type GitAnswer, type GitCall } from "./git.js";
import { GitSession, sessionsAvailable } from "./git-session.js";
import { seedFromIndex } from "./index-seed.js";
import { SecretFilter } from "./secret-filter.js";
import type { SecretSign } from "./secret-files.js";
import { clearStaleLock } from "./stale-lock.js";
import { maintainShadow, type Maintained } from "./shadow-maintenance.js";

/** Where the person's repository is, seen from the workspace; null when the workspace is not in one. */
export interface PersonRepository {
  /** The repository's top level (the work tree of the checkout the workspace is in). */
  root: string;
  /** The checkout's own git dir (`.git`, or `.git/worktrees/<name>` for a linked worktree). */
  gitDir: string;
  /** The repository's shared git dir (objects, refs): the same as gitDir but for a linked worktree. */
  commonDir: string;
  /** HEAD's commit, or null for a repository without a commit yet. */
  head: string | null;
  /** HEAD's tree (null with head). */
  headTree?: string | null;
}

export interface ShadowRepoOptions {
  /** The folder whose files are recorded. */
  workspace: string;
  /** The shadow repository's folder (created when missing). */
  dir: string;
  /** Patterns left out besides `.gitignore`'s, in gitignore syntax relative to the root (`/runs/`). */
  exclude?: readonly string[];
  /** Files larger than this are left out (and named). */
  maxFileBytes: number;
  /** The credentials the `claude` child is given: an untracked file holding one is left out. @default none */
  redactor?: Pick<SecretRedactor, "holds"> | null;
}

/** What a scan found that is not recorded. */
export interface LeftOut {
  /** Relative to the workspace, `/`-separated. */
  path: string;
  why: "too-large" | "nested-repository" | "secret";
  /** The file's size, for a file too large. */
  bytes?: number;
  /** Why an untracked file looks like a secret: its name, a private key in it, a known credential. */
  sign?: SecretSign;
}

export interface Snapshot {
  /** The checkpoint's commit; the parent itself when nothing changed. */
  commit: string;
  tree: string;
  /** False when the tree was the parent's: no commit was made. */
  changed: boolean;
  /** Paths (relative to the workspace) that differ from the parent. */
  files: string[];
  leftOut: LeftOut[];
  /** Files (relative to the workspace) that look like secrets, recorded because `carry` names them. */
  carried: string[];
}

/**
 * Every chain's index is a split index: the 10,000 entries of a large checkout go into a shared file once,
 * and each write after a checkpoint's few changes writes only those. Rewriting the whole index was most
 * of what `update-index` and `write-tree` cost (10.8 ms each against 4.8 ms split, on 10,000 files /
 * 800 KB of index: bench/README.md workload 6). A shared file no chain index used for two days is removed
 * by git when it writes the next one; a chain index idle for a day is removed before that
 * (shadow-maintenance.ts), and one whose shared file is gone anyway starts again (`#stage`).
 */
const SPLIT_INDEX = [
  ["core.splitIndex", "true"],
  ["splitIndex.sharedIndexExpire", "2.days.ago"],
] as const;

/** Who a checkpoint commit is by: fixed, so the same tree, parent, message and time make the same commit. */
const IDENTITY = { name: "flower", email: "flower@localhost" };

export class ShadowRepo {
  readonly dir: string;
  /** The work tree: the repository's top level, or the workspace when it is not in a repository. */
  readonly root: string;
  /** The workspace's folder relative to root, `/`-separated; "" when they are the same. */
  readonly scope: string;
  readonly person: PersonRepository | null;
  readonly #maxFileBytes: number;
  readonly #secrets: SecretFilter;
  /** Per index file: it holds the tree of its chain's tip (set after a snapshot or restore by this object). */
  readonly #synced = new Map<string, string>();
  /** Trees of commits already looked up. */
  readonly #trees = new Map<string, string>();
  /** The environment of every call, built once: the person's cleaned, and the shadow's own variables. */
  readonly #environment: Record<string, string>;
  /** The long-lived shell the calls run through (git-session.ts); null where there is no POSIX shell. */
  readonly #session: GitSession | null;
  /** Refs kept in a reftable (a git that made it so by default): then only git writes them. */
  #reftable = false;

  private constructor(
    options: ShadowRepoOptions,
    root: string,
    scope: string,
    person: PersonRepository | null,
  ) {
    this.dir = options.dir;
    this.root = root;
    this.scope = scope;
    this.person = person;
    this.#maxFileBytes = options.maxFileBytes;
    this.#secrets = new SecretFilter({
      root,
      person,
      carry: readFlowerJson(root).carry,
      redactor: options.redactor ?? null,
    });
    if (person?.head && person.headTree) this.#trees.set(person.head, person.headTree);
    this.#environment = gitEnvironment({
      GIT_DIR: this.dir,
      GIT_WORK_TREE: this.root,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: IDENTITY.name,
      GIT_AUTHOR_EMAIL: IDENTITY.email,
      GIT_COMMITTER_NAME: IDENTITY.name,
      GIT_COMMITTER_EMAIL: IDENTITY.email,
    });
    this.#session = sessionsAvailable()
      ? new GitSession({ cwd: root, env: this.#environment, scratch: join(this.dir, "flower-io") })
      : null;
  }

  /** Opens the shadow repository of a workspace, creating it the first time. */
  static async open(options: ShadowRepoOptions, known?: PersonRepository | null): Promise<ShadowRepo> {
    const workspace = realpathSync(options.workspace);
    const person = known === undefined ? await personRepository(workspace) : known;
    const root = person?.root ?? workspace;
    const scope = relative(root, workspace).split(sep).join("/");
    const repo = new ShadowRepo(options, root, scope, person);
    await repo.#init(options.exclude ?? []);
    return repo;
  }

  /** The index file of a chain (`index`), or the repository's own. */
  #indexFile(index?: string): string {
    return join(this.dir, index === undefined ? "index" : `index-${index}`);
  }

  /**
   * A git call on the shadow (cwd: the root, so pathspecs are root-relative). A call that meets a lock
   * left by a killed git (stale-lock.ts) removes it and is tried once more.
   */
  async run(args: readonly string[], call: GitCall & { index?: string } = {}): Promise<GitAnswer> {
    const variables = { GIT_INDEX_FILE: this.#indexFile(call.index), ...call.env };
    const session = this.#session;
    const once = () =>
      session !== null && (call.cwd === undefined || call.cwd === this.root)
        ? session.run(args, {
            env: variables,
            ...(call.input !== undefined ? { input: call.input } : {}),
            ...(call.ok !== undefined ? { ok: call.ok } : {}),
          })
        : git(args, { cwd: this.root, ...call, environment: { ...this.#environment, ...variables } });
    try {
      return await once();
    } catch (error) {
      if (!clearStaleLock(error, this.dir)) throw error;
      return once();
    }
  }

  /** Ends the shell the calls run through (the next call starts another). */
  close(): void {
    this.#session?.close();
  }

  async text(args: readonly string[], call: GitCall & { index?: string } = {}): Promise<string> {
    return (await this.run(args, call)).stdout.toString("utf8").replace(/\n$/, "");
  }

  async #init(exclude: readonly string[]): Promise<void> {
    if (!existsSync(join(this.dir, "HEAD"))) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      // Owner-only like the rest of the run directory (--shared=0600: folders 0700, files 0600, objects
      // 0400), and no template (no sample hooks).
      await git(["init", "--quiet", "--bare", "--shared=0600", "--template=", this.dir], {
        env: { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
      });
      // Not bare after all: the work tree is given with every call. Hooks off; no automatic gc in the
      // middle of a call (flower packs and prunes at its own times: shadow-maintenance.ts).
      for (const [key, value] of [
        ["core.bare", "false"],
        ["core.hooksPath", "/dev/null"],
        ["core.autocrlf", "false"],
        ["core.quotePath", "false"],
        ["gc.auto", "0"],
        ["advice.detachedHead", "false"],
        ...SPLIT_INDEX,
      ] as const)
        await this.run(["config", key, value]);
    } else {
      const config = readText(join(this.dir, "config"));
      // Set by earlier versions "to make the scan cheap": the scan (`ls-files`) never reads the untracked
      // cache, only `git status` does, so it only made every index write carry one.
      if (config.includes("untrackedCache"))
        await this.run(["config", "--unset", "core.untrackedCache"], { ok: [0, 5] });
      if (!config.includes("splitIndex"))
        for (const [key, value] of SPLIT_INDEX) await this.run(["config", key, value]);
    }
    this.#reftable = existsSync(join(this.dir, "reftable"));
    // Refreshed at every open: the person may have added to their excludes, or moved their repository.
    const objects = this.person ? join(this.person.commonDir, "objects") : null;
    const alternates = join(this.dir, "objects", "info", "alternates");
    if (objects !== null) writeFileSync(alternates, `${objects}\n`, { mode: 0o600 });
    const excludesFile = await personExcludesFile(this.root);
    if (excludesFile !== null) await this.run(["config", "core.excludesFile", excludesFile]);
    const lines = [
      "# written by flower at every start: flower's own folders, and the person's info/exclude",
      "/.git",
      ...exclude,
      ...(this.person ? readLines(join(this.person.commonDir, "info", "exclude")) : []),
    ];
    mkdirSync(join(this.dir, "info"), { recursive: true, mode: 0o700 });
    writeFileSync(join(this.dir, "info", "exclude"), `${lines.join("\n")}\n`, { mode: 0o600 });
  }

  /** The pathspec limiting a call to the workspace's folder. */
  get #pathspec(): string[] {
    return this.scope === "" ? ["."] : [`:(top)${this.scope}`];
  }

  /**
   * The scan's limit: none when the workspace is the whole root (a pathspec, even ".", makes `ls-files`
   * match every entry against it: a third more CPU on 10,000 files).
   */
  get #scanScope(): string[] {
    return this.scope === "" ? [] : ["--", `:(top)${this.scope}`];
  }

  /** A path relative to the root as the workspace names it. */
  #inWorkspace(path: string): string {
    return this.scope === "" ? path : path.slice(this.scope.length + 1);
  }

  /** Whether the shadow has this commit (from a checkpoint, a bundle, or the person's repository). */
  async has(commit: string): Promise<boolean> {
    const answer = await this.run(["cat-file", "-e", `${commit}^{commit}`], { ok: [0, 1, 128] });
    return answer.code === 0;
  }

  /** The commit a ref points at, or null. */
  async resolve(ref: string): Promise<string | null> {
    const answer = await this.run(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { ok: [0, 1] });
    return answer.code === 0 ? answer.stdout.toString("utf8").trim() : null;
  }

  async treeOf(commit: string): Promise<string> {
    return this.text(["rev-parse", `${commit}^{tree}`]);
  }

  /**
   * Brings `index` up to the workspace as it is now, in three parts that stay in this order: one scan
   * lists what differs from the index (modified, deleted, and untracked files not ignored); `#keep` and
   * the secrets filter drop what is never recorded; the rest is updated in one call, which hashes each
   * changed file once. A chain without an index yet starts from `base` (`#seed`). Returns the paths
   * updated (root-relative), what was left out, and the secret-looking files carried as flower.json asks.
   */
  async #stage(
    index: string,
    base: string | null,
  ): Promise<{ taken: string[]; leftOut: LeftOut[]; carried: string[] }> {
    if (base !== null && !existsSync(this.#indexFile(index))) await this.#seed(index, base);
    const list = () =>
      this.run(
        ["ls-files", "-z", "--modified", "--deleted", "--others", "--exclude-standard", ...this.#scanScope],
        { index },
      );
    let scan: GitAnswer;
    try {
      scan = await list();
    } catch (error) {
      // An index git cannot read (its shared part removed after two idle days, a torn file): it starts
      // again from the chain's tip.
      if (base === null || !unreadableIndex(error)) throw error;
      this.dropIndex(index);
      await this.#seed(index, base);
      scan = await list();
    }
    const { take, leftOut } = this.#keep(nulList(scan.stdout));
    // Untracked files that look like secrets stay out, like files too large: not staged, so an index
    // keeps at most a version it had before (secret-filter.ts).
    const secrets = await this.#secrets.sort(take);
    for (const { path, sign } of secrets.leftOut)
      leftOut.push({ path: this.#inWorkspace(path), why: "secret", sign });
    if (secrets.take.length > 0)
      await this.run(["update-index", "--add", "--remove", "--replace", "-z", "--stdin"], {
        index,
        input: `${secrets.take.join("\0")}\0`,
      });
    const carried = secrets.carried.map((path) => this.#inWorkspace(path));
    return { taken: secrets.take, leftOut, carried };
  }

  /**
   * What of a scan's paths is recorded: all but nested repositories (an untracked folder listed whole:
   * its files are its own history's) and files over the size limit, which are named instead.
   */
  #keep(paths: readonly string[]): { take: string[]; leftOut: LeftOut[] } {
    const take: string[] = [];
    const leftOut: LeftOut[] = [];
    // A deleted file is listed as modified and as deleted.
    for (const path of new Set(paths)) {
      if (path.endsWith("/")) {
        leftOut.push({ path: this.#inWorkspace(path.slice(0, -1)), why: "nested-repository" });
        continue;
      }
      const size = fileSize(join(this.root, path));
      if (size !== null && size > this.#maxFileBytes) {
        leftOut.push({ path: this.#inWorkspace(path), why: "too-large", bytes: size });
        continue;
      }
      take.push(path);
    }
    return { take, leftOut };
  }

  /**
   * A chain's first index, holding `base`'s tree: from the person's index where it can seed one
   * (index-seed.ts) — as it is when it holds exactly that tree, else its entries with the tree read over
   * them (`read-tree --reset` keeps the stat data of every entry the tree has unchanged) — and otherwise
   * from the tree alone, refreshed (every file hashed once). Made under another name and renamed, so a
   * kill leaves no half-made index.
   */
  async #seed(index: string, base: string): Promise<void> {
    const seeding = `${index}.seed`;
    const file = this.#indexFile(seeding);
    rmSync(file, { force: true });
    const tree = await this.#treeOf(base);
    const seed = this.person ? seedFromIndex(readBytes(join(this.person.gitDir, "index")), tree) : null;
    if (seed !== null) writeParts(file, seed.parts);
    if (seed?.kind !== "exact") await this.run(["read-tree", "--reset", base], { index: seeding });
    if (seed === null) await this.run(["update-index", "-q", "--refresh"], { index: seeding, ok: [0, 1] });
    renameSync(file, this.#indexFile(index));
    this.#synced.set(index, tree);
  }

  /** Forgets a chain's index (its next use starts it again from its tip): it holds every path's stat data. */
  dropIndex(index: string): void {
    for (const name of [index, `${index}.compare`, `${index}.seed`])
      rmSync(this.#indexFile(name), { force: true });
    this.#synced.delete(index);
  }

  /**
   * Records the workspace as a commit on top of `parent` (a checkpoint, or the person's HEAD for the
   * first), unless the tree is the parent's: then nothing is written and `changed` is false.
   * `index` names the chain (one index file per chain, so two runs on one workspace never share one).
   */
  async snapshot(input: {
    index: string;
    parent: string | null;
    message: string;
    at: Date;
  }): Promise<Snapshot> {
    const { index, parent, at } = input;
    const parentTree = parent === null ? null : await this.#treeOf(parent);
    let { taken, leftOut, carried } = await this.#stage(index, parent);
    let synced = parentTree !== null && this.#synced.get(index) === parentTree;
    // Nothing staged and the index known to hold the parent's tree: the tree is unchanged, one scan spent.
    if (taken.length === 0 && synced)
      return { commit: parent!, tree: parentTree!, changed: false, files: [], leftOut, carried };
    let tree: string;
    try {
      tree = await this.text(["write-tree"], { index });
    } catch (error) {
      // The index names an object that is gone (a chain whose last commit failed, pruned long after):
      // it starts again from the parent, and the scan stages the changes once more.
      if (parent === null || !missingObject(error)) throw error;
      this.dropIndex(index);
      ({ taken, leftOut, carried } = await this.#stage(index, parent));
      synced = true;
      tree = await this.text(["write-tree"], { index });
    }
    this.#synced.set(index, tree);
    if (parent !== null && tree === parentTree)
      return { commit: parent, tree, changed: false, files: [], leftOut, carried };
    const date = `${Math.floor(at.getTime() / 1000)} +0000`;
    const commit = await this.text(["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-F", "-"], {
      index,
      input: input.message,
      env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
    this.#trees.set(commit, tree);
    // The index held the parent's tree, so what the scan staged is what differs from it: no second listing
    // (in git's order, as `diff-tree` lists them).
    const files = synced
      ? [...taken].sort(byBytes).map((path) => this.#inWorkspace(path))
      : parent === null
        ? await this.filesOf(commit)
        : await this.changedBetween(parent, commit);
    return { commit, tree, changed: true, files, leftOut, carried };
  }

  /** A commit's tree; remembered, since a commit's tree never changes. */
  async #treeOf(commit: string): Promise<string> {
    const known = this.#trees.get(commit);
    if (known !== undefined) return known;
    const tree = await this.treeOf(commit);
    this.#trees.set(commit, tree);
    return tree;
  }

  /** The workspace's paths that differ between two commits. */
  async changedBetween(from: string, to: string): Promise<string[]> {
    const answer = await this.run([
      "diff-tree",
      "-r",
      "-z",
      "--no-renames",
      "--name-only",
      from,
      to,
      "--",
      ...this.#pathspec,
    ]);
    return nulList(answer.stdout).map((path) => this.#inWorkspace(path));
  }

  /** Every path of the workspace in a commit. */
  async filesOf(commit: string): Promise<string[]> {
    const answer = await this.run(["ls-tree", "-r", "-z", "--name-only", commit, "--", ...this.#pathspec]);
    return nulList(answer.stdout).map((path) => this.#inWorkspace(path));
  }

  /**
   * The workspace's paths whose files differ from `commit` now (a scan; nothing is recorded). Files left
   * out of checkpoints (too large, nested repositories, ignored) are not compared.
   */
  async changedSince(commit: string, index: string): Promise<string[]> {
    // A scratch index holding the commit's tree: the chain's own index (and what it knows) stays as it
    // is. It starts from the chain's index (or, without one, the person's), so only what differs is hashed.
    const scratch = `${index}.compare`;
    const file = this.#indexFile(scratch);
    const own = this.#indexFile(index);
    try {
      if (existsSync(own)) {
        writeFileSync(file, readFileSync(own), { mode: 0o600 });
        await this.run(["read-tree", "--reset", commit], { index: scratch });
      } else {
        rmSync(file, { force: true });
        await this.#seed(scratch, commit);
      }
      await this.#stage(scratch, null);
      const answer = await this.run(
        ["diff-index", "--cached", "-z", "--no-renames", "--name-only", commit, "--", ...this.#pathspec],
        { index: scratch },
      );
      return nulList(answer.stdout).map((path) => this.#inWorkspace(path));
    } finally {
      rmSync(file, { force: true });
      this.#synced.delete(scratch);
    }
  }

  /**
   * Makes the workspace's recorded files what they are in `commit`: changed files are rewritten, files the
   * commit lacks are removed, files it has are written back. Ignored and left-out files are not touched.
   * `only`: restore just these paths (workspace-relative); the rest stays as it is. Returns the paths changed.
   */
  async restore(
    commit: string,
    index: string,
    options: { only?: readonly string[]; base?: string | null } = {},
  ): Promise<string[]> {
    const { only } = options;
    // A chain's first restore on this machine (a fresh worktree): its index starts from the checkout's HEAD.
    await this.#stage(index, options.base ?? null);
    const changed = await this.run(
      ["diff-index", "--cached", "-z", "--no-renames", "--name-only", commit, "--", ...this.#pathspec],
      { index },
    );
    let paths = nulList(changed.stdout);
    if (only !== undefined) {
      const wanted = new Set(only.map((path) => (this.scope === "" ? path : `${this.scope}/${path}`)));
      paths = paths.filter((path) => wanted.has(path));
    }
    if (paths.length === 0) {
      if (only === undefined) this.#synced.set(index, await this.#treeOf(commit));
      return [];
    }
    if (only === undefined) {
      // -u writes the work tree: paths of the old index missing from the commit are removed.
      await this.run(["read-tree", "-u", "--reset", commit], { index });
      this.#synced.set(index, await this.#treeOf(commit));
    } else {
      const inCommit = new Set(
        nulList((await this.run(["ls-tree", "-r", "-z", "--name-only", commit, "--", ...paths])).stdout),
      );
      const write = paths.filter((path) => inCommit.has(path));
      const remove = paths.filter((path) => !inCommit.has(path));
      if (write.length > 0) await this.run(["checkout", commit, "--", ...write], { index });
      if (remove.length > 0)
        await this.run(["rm", "--quiet", "--force", "--ignore-unmatch", "--", ...remove], { index });
      this.#synced.delete(index);
    }
    return paths.map((path) => this.#inWorkspace(path));
  }

  /** Points `ref` at `commit` (creating it). */
  async setRef(ref: string, commit: string): Promise<void> {
    if (!LOOSE_REF.test(ref) || ref.includes("..") || !/^[0-9a-f]{40,64}$/.test(commit) || this.#reftable) {
      await this.run(["update-ref", ref, commit]);
      return;
    }
    // Written as git writes a loose ref (update-ref's way, without its process: this is the last step
    // of every checkpoint): `<ref>.lock` taken exclusively, the name and a newline, renamed into place.
    const path = join(this.dir, ref);
    const write = () => writeLooseRef(path, ref, commit);
    try {
      write();
    } catch (error) {
      if (!clearStaleLock(error, this.dir)) throw error;
      write();
    }
  }

  async deleteRef(ref: string): Promise<void> {
    await this.run(["update-ref", "-d", ref], { ok: [0, 1] });
  }

  /** A commit's message. */
  async messageOf(commit: string): Promise<string> {
    return this.text(["log", "-1", "--format=%B", commit]);
  }

  /**
   * A bundle of what `tip` needs beyond `exclude` (commits the receiver has: the previous checkpoint,
   * or what the person's remotes hold). Null when there is nothing to send (tip is excluded itself).
   */
  async bundle(tip: string, exclude: readonly string[]): Promise<Buffer | null> {
    const ref = `refs/flower/bundle/${process.pid}-${Date.now()}`;
    await this.setRef(ref, tip);
    try {
      const answer = await this.run(
        ["bundle", "create", "--quiet", "-", ref, ...exclude.map((commit) => `^${commit}`)],
        {
          ok: [0, 128],
        },
      );
      if (answer.code === 128) {
        if (/empty bundle/i.test(answer.stderr)) return null;
        throw new Error(answer.stderr);
      }
      return answer.stdout;
    } finally {
      await this.deleteRef(ref);
    }
  }

  /** Takes in a bundle's objects; the commit it carries is then known here (`has`). */
  async unbundle(bundle: Buffer, file: string): Promise<void> {
    writeFileSync(file, bundle, { mode: 0o600 });
    try {
      await this.run(["bundle", "unbundle", file]);
    } finally {
      // Its objects are in a pack now; a run's first bundle can be the whole repository.
      rmSync(file, { force: true });
    }
  }

  /**
   * Packs the shadow repository, and with `full` prunes what no ref reaches (shadow-maintenance.ts). In
   * processes of its own, not through the session's shell: a repack must not hold up a checkpoint.
   */
  maintain(options: { full: boolean }): Promise<Maintained | null> {
    return maintainShadow(
      {
        dir: this.dir,
        run: (args, call = {}) =>
          git(args, {
            ...call,
            cwd: this.root,
            environment: { ...this.#environment, GIT_INDEX_FILE: this.#indexFile(), ...call.env },
          }),
      },
      options,
    );
  }
}

/** The repository the workspace is in, as seen by the person's own git (read-only); null when none. */
export async function personRepository(workspace: string): Promise<PersonRepository | null> {
  const where = await git(["rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir"], {
    cwd: workspace,
    ok: [0, 128],
  }).catch(() => null);
  if (where === null || where.code !== 0) return null;
  const [root, gitDir, common] = where.stdout.toString("utf8").split("\n");
  if (!root || !gitDir || !common) return null;
  // HEAD and its tree in one call; a repository without a commit yet answers 128 and has neither.
  const [head, tree] = (
    await gitText(["rev-parse", "HEAD^{commit}", "HEAD^{tree}"], { cwd: workspace, ok: [0, 128] })
  ).split("\n");
  const known = head !== undefined && /^[0-9a-f]{40,64}$/.test(head);
  return {
    root: realpathSync(root),
    gitDir,
    commonDir: realpathSync(isAbsolute(common) ? common : join(workspace, common)),
    head: known ? head : null,
    headTree: known && tree !== undefined && /^[0-9a-f]{40,64}$/.test(tree) ? tree : null,
  };
}

/** The person's global excludes file (core.excludesFile, else git's XDG default) when it exists. */
async function personExcludesFile(root: string): Promise<string | null> {
  const configured = await gitText(["config", "--path", "--get", "core.excludesFile"], {
    cwd: root,
    ok: [0, 1],
  }).catch(() => "");
  const xdg = process.env.XDG_CONFIG_HOME?.trim() || join(homedir(), ".config");
  const path = configured !== "" ? configured : join(xdg, "git", "ignore");
  return existsSync(path) ? path : null;
}

/** A ref flower writes itself: under refs/, plain characters. */
const LOOSE_REF = /^refs\/[A-Za-z0-9._/-]+$/;

/**
 * A loose ref as git writes one. A lock held (a killed git's, or another writer's) is git's own error,
 * so the stale-lock rule (stale-lock.ts) and the warnings treat it as they treat git's.
 */
function writeLooseRef(path: string, ref: string, commit: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const lock = `${path}.lock`;
  let fd: number;
  try {
    fd = openSync(lock, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    throw new GitError(["update-ref", ref, commit], 128, `fatal: Unable to create '${lock}': File exists.\n`);
  }
  try {
    writeSync(fd, `${commit}\n`);
  } finally {
    closeSync(fd);
  }
  renameSync(lock, path);
}

/** A new file of these parts, one after another. */
function writeParts(path: string, parts: readonly Buffer[]): void {
  const fd = openSync(path, "w", 0o600);
  try {
    for (const part of parts)
      for (let written = 0; written < part.length;)
        written += writeSync(fd, part, written, part.length - written);
  } finally {
    closeSync(fd);
  }
}

/** Paths in git's order (the index's and a tree walk's): by their bytes. */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** A file's bytes; empty when it cannot be read (the index of a repository without one yet). */
function readBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch {
    return Buffer.alloc(0);
  }
}

/** git could not read an index file. */
function unreadableIndex(error: unknown): boolean {
  return (
    error instanceof GitError &&
    /index file (open failed|corrupt)|sharedindex|bad signature|bad index|index uses .* extension/i.test(
      error.stderr,
    )
  );
}

/** git could not find an object the index names (`write-tree`: "invalid object …"). */
function missingObject(error: unknown): boolean {
  return error instanceof GitError && /invalid object|missing|unable to read/i.test(error.stderr);
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "");
  } catch {
    return [];
  }
}

/** A regular file's size; null for anything else (a link is stored as a link, whatever it points at). */
function fileSize(path: string): number | null {
  try {
    const stat = lstatSync(path);
    return stat.isFile() ? stat.size : null;
  } catch {
    return null;
  }
}
