/**
 * The work of one run: its chain of checkpoints in the workspace's shadow repository, carried through a
 * shared store when there is one, and the rule that keeps the files and the transcript together.
 *
 * The invariant it keeps (SIGKILL at any moment, then a continue here or on another machine): the files
 * a run goes on with hold exactly the changes of the tool calls whose results are in the transcript it
 * resumes. Two halves make it:
 * - A main-thread call's checkpoint is taken, and stored, in its PostToolUse hook: the binary writes the
 *   call's result to the transcript only after the hook returns (checked against the binary). So a result
 *   in the transcript always has its checkpoint.
 * - A checkpoint whose call result the transcript lacks (killed between the hook and the transcript
 *   write, or during the next call) is dropped when the step goes on: the chain moves back to the last
 *   checkpoint the transcript has, and in a working tree of flower's own (a worktree, a copy) the files
 *   are put back to it. In the person's own checkout flower never puts files back behind their back: what
 *   differs from the checkpoint is kept, named on the terminal and told to the model.
 *
 * Checkpoints are taken one at a time (hooks of parallel calls arrive together): a queue keeps them in
 * order, and a failure is reported and does not stop the run.
 */
import { createHash } from "node:crypto";
import { existsSync, realpathSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { WorkError } from "../errors.js";
import type { SecretRedactor } from "../secret-redactor.js";
import {
  chainKey,
  checkpointMessage,
  leftOutTrailers,
  parseCheckpointMessage,
  parseLeftOut,
  type CheckpointMeta,
} from "./checkpoint-message.js";
import { GitError, gitText } from "./git.js";
import { personRepository, ShadowRepo, type LeftOut } from "./shadow-repo.js";
import { PACK_EVERY } from "./shadow-maintenance.js";
import type { CarryFence, WorkCarrier } from "./work-carrier.js";

export interface WorkTrackerOptions {
  /** The folder the agent works in. */
  workspace: string;
  /** The run directory: the shadow repositories live in `<runDir>/work/`, and it is never recorded. */
  runDir: string;
  /** The run whose chain this is (a workflow run's id, or a lone step's name). */
  run: string;
  /** A working tree of flower's own (a worktree or copy of a fleet run, `--worktree`): restored exactly. */
  owned: boolean;
  /** The shared store's log of checkpoints; null with a local store (the shadow repository is the store). */
  carrier: WorkCarrier | null;
  /** The lease every stored row proves (a driver presumed dead cannot move the work). */
  fence?: () => CarryFence | undefined;
  /** Files larger than this are left out of checkpoints. */
  maxFileBytes: number;
  /** The credentials the `claude` child is given: an untracked file holding one is left out. @default none */
  redactor?: Pick<SecretRedactor, "holds"> | null;
  now: () => Date;
}

/** A checkpoint as the record keeps it. */
export interface TakenCheckpoint {
  meta: CheckpointMeta;
  commit: string;
  parent: string | null;
  /** False when the tree was the parent's (no commit; `commit` is the parent). */
  changed: boolean;
  files: string[];
  leftOut: LeftOut[];
}

/** A submitted run's beginning (`submitted`). */
export interface SubmittedWork {
  /** The commit the chain begins at: the person's HEAD, or a checkpoint of their checkout on top of it. */
  start: string | null;
  /** Untracked files that looked like secrets: not in the store, not given to any worker. */
  leftOut: LeftOut[];
  /** Files that looked like secrets and went along because `flower.json`'s `carry` names them. */
  carried: string[];
}

/** What going on from the chain did to the files. */
export interface Reconciled {
  /** The checkpoint the step goes on from. */
  target: string | null;
  /** Checkpoints dropped: their calls' results are not in the transcript. */
  dropped: number;
  /** Files put back to the checkpoint (a working tree of flower's own, or carried from another machine). */
  restored: string[];
  /** Files that differ from the checkpoint and were left as they are (the person's checkout). */
  kept: string[];
}

/** Whether a session's transcript holds a tool call's result. */
export type HasResult = (session: string, call: string) => Promise<boolean>;

export class WorkTracker {
  readonly run: string;
  readonly shadow: ShadowRepo;
  readonly owned: boolean;
  /** The index file and ref name of this chain. */
  readonly key: string;
  readonly #options: WorkTrackerOptions;
  #tip: string | null;
  /** The last row of the carrier's log this machine has replayed. */
  #seq = 0;
  /** The secrets the submit of this run left out (named by its first row): said with every checkpoint. */
  #submitLeftOut: LeftOut[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  /** Checkpoints that wrote a commit since this tracker opened: every PACK_EVERY, the shadow is packed. */
  #commits = 0;
  /** The pack running beside the chain, if one is. */
  #packing: Promise<unknown> | null = null;

  private constructor(options: WorkTrackerOptions, shadow: ShadowRepo, tip: string | null) {
    this.#options = options;
    this.run = options.run;
    this.shadow = shadow;
    this.owned = options.owned;
    this.key = chainKey(options.run);
    this.#tip = tip;
  }

  /** Opens the workspace's shadow repository and this run's chain in it. Throws GitMissingError without git. */
  static async open(options: WorkTrackerOptions): Promise<WorkTracker> {
    const workspace = realpathSync(options.workspace);
    const person = await personRepository(workspace);
    const root = person?.root ?? workspace;
    const shadow = await ShadowRepo.open(
      {
        workspace,
        dir: shadowDirOf(options.runDir, root),
        exclude: ownFolders(root, workspace, options.runDir),
        maxFileBytes: options.maxFileBytes,
        redactor: options.redactor ?? null,
      },
      person,
    );
    const tracker = new WorkTracker(options, shadow, null);
    tracker.#tip = await shadow.resolve(tracker.ref);
    return tracker;
  }

  /** The chain's ref in the shadow repository. */
  get ref(): string {
    return `refs/flower/runs/${this.key}`;
  }

  /** The latest checkpoint; null before the first. */
  get tip(): string | null {
    return this.#tip;
  }

  /** The commit the chain starts from: the person's HEAD (null when the workspace is not in a repository). */
  get base(): string | null {
    return this.shadow.person?.head ?? null;
  }

  /**
   * A new run under a name that ran before (`rt.run` of the same step again): its chain starts afresh
   * from the checkout as it is; the earlier run's checkpoints stay under `refs/flower/rewound/`, and a
   * shared store's earlier rows are skipped, not replayed.
   */
  restart(): Promise<void> {
    return this.#serial(async () => {
      if (this.#tip !== null)
        await this.shadow.setRef(`refs/flower/rewound/${this.key}/${Date.now()}`, this.#tip);
      await this.shadow.deleteRef(this.ref);
      this.#tip = null;
      this.#seq = (await this.#options.carrier?.last(this.run)) ?? 0;
    });
  }

  /** Runs `work` after everything queued before it; a failure does not block what comes after. */
  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Records the workspace as the chain's next checkpoint, unless nothing changed since the last one.
   * With a shared store the checkpoint is stored before this resolves (the PostToolUse hook waits for it).
   */
  checkpoint(meta: Omit<CheckpointMeta, "run">): Promise<TakenCheckpoint> {
    return this.#serial(async () => {
      const full: CheckpointMeta = { ...meta, run: this.run };
      const parent = this.#tip ?? this.base;
      const snapshot = await this.shadow.snapshot({
        index: this.key,
        parent,
        message: checkpointMessage(full),
        at: this.#options.now(),
      });
      if (snapshot.changed) {
        await this.#carry(snapshot.commit, parent, full);
        await this.shadow.setRef(this.ref, snapshot.commit);
        this.#tip = snapshot.commit;
        // Beside the chain, not in its queue: the next checkpoint does not wait for the pack (git's
        // rules make a repack safe beside writes). One at a time; a pack that fails is tried again
        // PACK_EVERY commits later.
        if (++this.#commits % PACK_EVERY === 0 && this.#packing === null)
          this.#packing = this.shadow
            .maintain({ full: false })
            .catch(() => null)
            .finally(() => (this.#packing = null));
      } else if (this.#tip === null && parent !== null) {
        // The first checkpoint of a clean checkout is its HEAD: the chain starts there.
        await this.shadow.setRef(this.ref, parent);
        this.#tip = parent;
      }
      return {
        meta: full,
        commit: snapshot.commit,
        parent,
        changed: snapshot.changed,
        files: snapshot.files,
        leftOut: [
          ...snapshot.leftOut,
          ...this.#submitLeftOut.filter((entry) => !snapshot.leftOut.some((own) => own.path === entry.path)),
        ],
      };
    });
  }

  /** The secrets the submit of this run left out (known once the store's log is replayed). */
  get submitLeftOut(): readonly LeftOut[] {
    return this.#submitLeftOut;
  }

  /**
   * A submitted run's beginning: the checkout as the person sees it (uncommitted changes and unpushed
   * commits included) goes into the store's log as the chain's first row, so a worker on any machine
   * begins from exactly that — but for untracked files that look like secrets, which stay here, named in
   * that first checkpoint's message so every machine can say what the run was not given.
   */
  submitted(step: string): Promise<SubmittedWork> {
    return this.#serial(async () => {
      const base = this.base;
      const meta: CheckpointMeta = { kind: "start", run: this.run, step, generation: 0 };
      const at = this.#options.now();
      const snapshot = await this.shadow.snapshot({
        index: this.key,
        parent: base,
        message: checkpointMessage(meta),
        at,
      });
      const secrets = snapshot.leftOut.filter((entry) => entry.why === "secret");
      let commit = snapshot.commit;
      if (secrets.length > 0) {
        // The same tree, its message naming what was left out (root-relative, as every machine reads it).
        const named = secrets.map((entry) => ({
          path: this.#fromRoot(entry.path),
          sign: entry.sign ?? "name",
        }));
        const date = `${Math.floor(at.getTime() / 1000)} +0000`;
        commit = await this.shadow.text(
          ["commit-tree", snapshot.tree, ...(base !== null ? ["-p", base] : []), "-F", "-"],
          {
            input: `${checkpointMessage(meta)}${leftOutTrailers(named)}`,
            env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
          },
        );
      }
      const carrier = this.#options.carrier;
      if (carrier !== null) {
        const bundle = await this.shadow.bundle(commit, await this.#knownElsewhere());
        this.#seq = await carrier.append(this.run, {
          commit,
          parent: base,
          step,
          kind: "base",
          bundle,
        });
      }
      await this.shadow.setRef(this.ref, commit);
      this.#tip = commit;
      this.#submitLeftOut = secrets;
      return { start: commit, leftOut: secrets, carried: snapshot.carried };
    });
  }

  /** A workspace-relative path as the repository's top names it. */
  #fromRoot(path: string): string {
    return this.shadow.scope === "" ? path : `${this.shadow.scope}/${path}`;
  }

  /** A root-relative path as this workspace names it. */
  #inWorkspace(path: string): string {
    const scope = this.shadow.scope;
    return scope !== "" && path.startsWith(`${scope}/`) ? path.slice(scope.length + 1) : path;
  }

  /** Stores a new checkpoint in the carrier's log: what it adds to its parent (or to what the remotes hold). */
  async #carry(commit: string, parent: string | null, meta: CheckpointMeta): Promise<void> {
    const carrier = this.#options.carrier;
    if (carrier === null) return;
    const exclude = parent !== null && parent !== this.base ? [parent] : await this.#knownElsewhere();
    const bundle = await this.shadow.bundle(commit, exclude);
    const fence = this.#options.fence?.();
    this.#seq = await carrier.append(
      this.run,
      { commit, parent, step: meta.step, kind: meta.kind, bundle },
      ...(fence ? [fence] : []),
    );
  }

  /**
   * Commits another machine can be assumed to have: what the person's remote-tracking branches point at
   * (pushed work is in every checkout of the repository). The first bundle of a run carries the rest,
   * unpushed commits included, so a worker never needs more than a checkout that fetched.
   */
  async #knownElsewhere(): Promise<string[]> {
    const person = this.shadow.person;
    if (person === null) return [];
    const text = await gitText(["for-each-ref", "--format=%(objectname)", "refs/remotes"], {
      cwd: person.root,
    }).catch(() => "");
    return [...new Set(text.split("\n").filter((line) => /^[0-9a-f]{40,64}$/.test(line)))];
  }

  /**
   * Replays the carrier's log (rows this machine has not seen) into the shadow repository; the chain's
   * tip becomes the log's last row. Nothing to do without a carrier.
   */
  catchUp(): Promise<void> {
    return this.#serial(async () => {
      const carrier = this.#options.carrier;
      if (carrier === null) return;
      const rows = await carrier.list(this.run, this.#seq);
      if (rows.length === 0) return;
      const scratch = join(this.shadow.dir, `incoming-${this.key}.bundle`);
      for (const row of rows) {
        if (row.bundle !== null && !(await this.shadow.has(row.commit))) {
          try {
            await this.shadow.unbundle(row.bundle, scratch);
          } catch (error) {
            throw missingBase(error, row.commit, this.shadow.root);
          }
        }
        if (row.kind === "base")
          this.#submitLeftOut = parseLeftOut(await this.shadow.messageOf(row.commit)).map((secret) => ({
            path: this.#inWorkspace(secret.path),
            why: "secret",
            sign: secret.sign,
          }));
        this.#seq = row.seq;
      }
      const last = rows.at(-1)!.commit;
      await this.shadow.setRef(this.ref, last);
      this.#tip = last;
    });
  }

  /**
   * Before a step goes on: the chain's tip moves back past checkpoints of calls whose results the
   * transcript does not have, and the workspace is brought to it (see the module comment for the rule in
   * the person's checkout). `start`: the run's first checkpoint, for that rule.
   */
  reconcile(hasResult: HasResult, start: string | null): Promise<Reconciled> {
    return this.#serial(async () => {
      const tip = this.#tip;
      if (tip === null) return { target: null, dropped: 0, restored: [], kept: [] };
      let target = tip;
      let dropped = 0;
      for (;;) {
        const meta = parseCheckpointMessage(await this.shadow.messageOf(target));
        if (meta === null || meta.run !== this.run || meta.kind !== "call" || !meta.session || !meta.call)
          break;
        if (await hasResult(meta.session, meta.call)) break;
        const parent = await this.#parentOf(target);
        if (parent === null) break;
        target = parent;
        dropped += 1;
      }
      if (target !== tip) {
        await this.shadow.setRef(this.ref, target);
        this.#tip = target;
        const fence = this.#options.fence?.();
        const carrier = this.#options.carrier;
        if (carrier !== null)
          this.#seq = await carrier.append(
            this.run,
            { commit: target, parent: tip, step: fence?.step ?? "", kind: "reset", bundle: null },
            ...(fence ? [fence] : []),
          );
      }
      const restored: string[] = [];
      const kept: string[] = [];
      if (this.owned) {
        restored.push(...(await this.shadow.restore(target, this.key, { base: this.base })));
      } else {
        const differing = await this.shadow.changedSince(target, this.key);
        if (differing.length > 0) {
          // A file as the run found it (at its start, or in HEAD) is nobody's edit: the run's version comes.
          // With neither to compare with (a checkout outside git, a step of the run that has no start yet)
          // nothing shows a file is nobody's: every difference is kept and named, never put back.
          const found = [start, this.base].filter((commit): commit is string => commit !== null);
          const touched = new Set(found.length > 0 ? await this.#changedSinceAll(found) : differing);
          const bring = differing.filter((path) => !touched.has(path));
          kept.push(...differing.filter((path) => touched.has(path)));
          if (bring.length > 0)
            restored.push(...(await this.shadow.restore(target, this.key, { only: bring })));
        }
      }
      return { target, dropped, restored, kept };
    });
  }

  /**
   * Moves the chain back to `commit` (a rewind): the old tip stays reachable under `refs/flower/rewound/`,
   * and a shared store's log gets a reset row, so every machine goes on from `commit`.
   */
  moveTo(commit: string, step: string): Promise<void> {
    return this.#serial(async () => {
      const old = this.#tip;
      if (old === commit) return;
      if (old !== null) await this.shadow.setRef(`refs/flower/rewound/${this.key}/${Date.now()}`, old);
      await this.shadow.setRef(this.ref, commit);
      this.#tip = commit;
      const carrier = this.#options.carrier;
      if (carrier !== null) {
        const fence = this.#options.fence?.();
        this.#seq = await carrier.append(
          this.run,
          { commit, parent: old, step, kind: "reset", bundle: null },
          ...(fence ? [fence] : []),
        );
      }
    });
  }

  /**
   * The newest checkpoint of the chain, from its tip back along first parents, that `accept` takes; the
   * chain's base (a commit that is not a checkpoint) when none is.
   */
  async findCheckpoint(accept: (meta: CheckpointMeta) => boolean): Promise<string | null> {
    let commit = this.#tip;
    while (commit !== null) {
      const meta = parseCheckpointMessage(await this.shadow.messageOf(commit));
      if (meta === null || meta.run !== this.run || accept(meta)) return commit;
      commit = await this.#parentOf(commit);
    }
    return null;
  }

  /** Paths that differ from every one of `commits` (changed by someone since each). */
  async #changedSinceAll(commits: string[]): Promise<string[]> {
    if (commits.length === 0) return [];
    let paths: Set<string> | null = null;
    for (const commit of commits) {
      const changed: string[] = await this.shadow.changedSince(commit, this.key);
      paths = paths === null ? new Set(changed) : new Set(changed.filter((path) => paths!.has(path)));
    }
    return [...(paths ?? [])];
  }

  async #parentOf(commit: string): Promise<string | null> {
    return this.shadow.resolve(`${commit}^`);
  }

  /** Waits for the checkpoints queued so far, and a pack running beside them. */
  async settled(): Promise<void> {
    await this.#queue;
    await this.#packing;
  }

  /**
   * Done with the chain for now: waits for what is queued, then (`maintain`: a step's end) packs the
   * shadow repository and prunes what no checkpoint reaches (shadow-maintenance.ts), and ends the shell
   * its git calls ran through. A maintenance that fails is not the step's failure: the next one packs.
   */
  async close(options: { maintain?: boolean } = {}): Promise<void> {
    await this.settled();
    try {
      if (options.maintain === true) await this.shadow.maintain({ full: true }).catch(() => null);
    } finally {
      this.shadow.close();
    }
  }
}

/** Where the shadow repository of a repository root (or a folder outside git) is kept. */
export function shadowDirOf(runDir: string, root: string): string {
  return join(runDir, "work", `${shadowName(root)}.git`);
}

/** A folder name for the shadow repository of a root: readable, and unique per path. */
function shadowName(root: string): string {
  const name = root.split(sep).filter(Boolean).at(-1) ?? "root";
  return `${name.replace(/[^A-Za-z0-9._-]/g, "_")}-${createHash("sha256").update(root).digest("hex").slice(0, 12)}`;
}

/** flower's own folders, as exclude patterns relative to the root: they travel their own way. */
function ownFolders(root: string, workspace: string, runDir: string): string[] {
  const scope = relative(root, workspace).split(sep).join("/");
  const patterns = [`/${scope === "" ? "" : `${scope}/`}.flower/`];
  const inRoot = relative(root, existsSync(runDir) ? realpathSync(runDir) : resolve(runDir))
    .split(sep)
    .join("/");
  if (inRoot !== "" && !inRoot.startsWith("..")) patterns.push(`/${inRoot}/`);
  return patterns;
}

/** A bundle whose prerequisites this repository lacks: the checkout has not fetched what the run began on. */
function missingBase(error: unknown, commit: string, root: string): Error {
  const said = error instanceof GitError ? error.stderr : String(error);
  if (/lacks these prerequisite commits|prerequisite/i.test(said)) {
    const missing = /([0-9a-f]{40,64})/.exec(said.slice(said.search(/prerequisite/i)))?.[1] ?? "?";
    return new WorkError(
      `the run's work cannot be brought to ${root}: it builds on commit ${missing.slice(0, 12)}, which this checkout does not have (run \`git fetch\` there; the commit is pushed to a remote the run's checkout had)`,
      { cause: error },
    );
  }
  return new WorkError(`could not take in checkpoint ${commit.slice(0, 12)} from the store: ${said.trim()}`, {
    cause: error,
  });
}
