/**
 * A working tree of one run's own: `flower worker` gives one to every run it drives (so runs never write
 * over each other, whatever the concurrency), and `flower --worktree "<task>"` to a local run.
 *
 * In a git checkout it is a `git worktree` of that checkout, detached at the commit the run began from,
 * under `<runDir>/worktrees/<run>` (the run directory is ignored by its own .gitignore, so the checkout's
 * `git status` does not see it). Outside git it is a copy of the workspace (without flower's own folders).
 * Either way flower owns it: a continue puts its files back exactly to the run's last checkpoint.
 *
 * A repository can name a setup command run in each new working tree (installing dependencies) in a
 * `flower.json` at its top level: `{ "setup": "npm ci" }`. Its output goes to `<worktree>.setup.log`; a
 * failure stops the run before any model request, with the log's last lines.
 */
import { spawn } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { DEFAULTS } from "../defaults.js";
import { WorkError } from "../errors.js";
import { withDriverTag } from "../process/reaper.js";
import { chainKey, parseCheckpointMessage } from "./checkpoint-message.js";
import { readFlowerJson } from "./flower-json.js";
import { git, gitText, nulList } from "./git.js";
import { personRepository } from "./shadow-repo.js";
import type { WorkCarrier } from "./work-carrier.js";
import { shadowDirOf, WorkTracker } from "./work-tracker.js";

export interface RunWorkspace {
  /** The run's own folder. */
  path: string;
  kind: "worktree" | "copy";
  /** Made now (false: it was there from an earlier drive of the run on this machine). */
  created: boolean;
  /** The commit it was made at; null for a copy. */
  commit: string | null;
  /**
   * Files a new tree took from the run's checkpoints in the store, past its beginning (a run that went on
   * from another worker); empty for a run that begins here or a tree found again.
   */
  restored: string[];
  /**
   * Untracked files that looked like secrets where the run was submitted, not carried (named by its
   * first checkpoint); for a new tree of a submitted run, empty otherwise.
   */
  leftOut: string[];
}

export interface OpenRunWorkspace {
  /** The checkout (or folder) the run's workspace is made from. */
  checkout: string;
  runDir: string;
  run: string;
  /** The commit to make it at. @default the checkout's HEAD */
  commit?: string | null;
  /** A store whose log may hold that commit (a submit of unpushed work): taken in when the checkout lacks it. */
  carrier?: WorkCarrier | null;
  /** Bring the checkout's uncommitted changes along (a local `--worktree` run). @default false */
  uncommitted?: boolean;
  /** Where the setup command's output goes, line by line (the worker's log). */
  onSetup?: (line: string) => void;
}

/** The folder a run's own working tree is in. */
export function runWorkspacePath(runDir: string, run: string): string {
  return join(runDir, "worktrees", chainKey(run));
}

/** Makes (or finds again) the run's own working tree, and runs the repository's setup command in a new one. */
export function openRunWorkspace(options: OpenRunWorkspace): Promise<RunWorkspace> {
  // One at a time per process: a worker's runs share its checkout's worktree registry.
  const next = opening.then(() => open(options));
  opening = next.catch(() => undefined);
  return next;
}

let opening: Promise<unknown> = Promise.resolve();

async function open(options: OpenRunWorkspace): Promise<RunWorkspace> {
  const path = runWorkspacePath(resolve(options.runDir), options.run);
  const person = await personRepository(options.checkout);
  if (person === null) return copyWorkspace(options, path);
  if (existsSync(join(path, ".git"))) {
    const head = await gitText(["rev-parse", "HEAD"], { cwd: path }).catch(() => null);
    return { path, kind: "worktree", created: false, commit: head, restored: [], leftOut: [] };
  }
  const commit = options.commit ?? person.head;
  if (commit === null)
    throw new WorkError(
      `${person.root} has no commit yet: a run's own worktree starts from one (git commit first)`,
    );
  await ensureCommit(person.root, commit, options);
  mkdirSync(join(resolve(options.runDir), "worktrees"), { recursive: true, mode: 0o700 });
  // A folder left by a worktree whose registration is gone (a crash between the two) is cleared first.
  if (existsSync(path)) rmSync(path, { recursive: true, force: true });
  await git(["worktree", "prune"], { cwd: person.root, ok: [0, 128] });
  await git(["-c", "core.hooksPath=/dev/null", "worktree", "add", "--detach", "--quiet", path, commit], {
    cwd: person.root,
  });
  // The tree's top folder is owner-only like the rest of the run directory (git made it with the umask).
  chmodSync(path, 0o700);
  if (options.uncommitted === true) await carryUncommitted(person.root, path);
  // The files as the run stands (a submit's uncommitted changes, a dead worker's checkpoints) before the
  // setup command sees them; the step itself then goes back past a checkpoint its transcript lacks.
  const { restored, leftOut } = options.carrier
    ? await bringToTip(path, options)
    : { restored: [], leftOut: [] };
  try {
    await runSetup(path, options.onSetup);
  } catch (error) {
    // A tree whose setup failed is not one to work in: the next try makes it afresh and sets it up again.
    await git(["worktree", "remove", "--force", path], { cwd: person.root, ok: [0, 128] });
    rmSync(path, { recursive: true, force: true });
    throw error;
  }
  return { path, kind: "worktree", created: true, commit, restored, leftOut };
}

/**
 * The chain's files (from the store's log) into a new working tree of the run. Returns the files put
 * back when the tip is past the run's beginning (the submit's own changes are not news to anyone), and
 * the secrets its submit left out.
 */
async function bringToTip(
  path: string,
  options: OpenRunWorkspace,
): Promise<{ restored: string[]; leftOut: string[] }> {
  const tracker = await WorkTracker.open({
    workspace: path,
    runDir: options.runDir,
    run: options.run,
    owned: true,
    carrier: options.carrier ?? null,
    maxFileBytes: DEFAULTS.checkpointMaxFileBytes,
    now: () => new Date(),
  });
  try {
    await tracker.catchUp();
    const leftOut = tracker.submitLeftOut.map((entry) => entry.path);
    if (tracker.tip === null) return { restored: [], leftOut };
    const restored = await tracker.shadow.restore(tracker.tip, tracker.key, { base: tracker.base });
    const meta = parseCheckpointMessage(await tracker.shadow.messageOf(tracker.tip));
    // The submit's row is the chain's generation 0: a run that begins here.
    const begins = meta === null || (meta.kind === "start" && meta.generation === 0);
    return { restored: begins ? [] : restored, leftOut };
  } finally {
    await tracker.close();
  }
}

/**
 * Removes a run's own working tree (a worktree is unregistered from its checkout, its HEAD's reflog with
 * it), the shadow repository that recorded it and its setup log; the run's checkpoints stay wherever
 * else they are (a store's log).
 */
export async function removeRunWorkspace(runDir: string, run: string): Promise<boolean> {
  const path = runWorkspacePath(resolve(runDir), run);
  rmSync(`${path}.setup.log`, { force: true });
  if (!existsSync(path)) return false;
  rmSync(shadowDirOf(resolve(runDir), realpathSync(path)), { recursive: true, force: true });
  if (existsSync(join(path, ".git"))) {
    const removed = await git(["worktree", "remove", "--force", path], { cwd: path, ok: [0, 128] });
    if (removed.code === 0) return true;
  }
  rmSync(path, { recursive: true, force: true });
  return true;
}

/**
 * The commit a run begins from must be in the checkout: a submit of unpushed work carried it in the
 * store's log (git bundles), so those are taken in; a pushed one may need a fetch of the checkout.
 */
async function ensureCommit(root: string, commit: string, options: OpenRunWorkspace): Promise<void> {
  const has = async () =>
    (await git(["cat-file", "-e", `${commit}^{commit}`], { cwd: root, ok: [0, 1, 128] })).code === 0;
  if (await has()) return;
  const rows = options.carrier ? await options.carrier.list(options.run) : [];
  const scratch = join(resolve(options.runDir), "worktrees", `.incoming-${process.pid}.bundle`);
  mkdirSync(join(resolve(options.runDir), "worktrees"), { recursive: true, mode: 0o700 });
  let lacking = "";
  for (let fetched = false; ; fetched = true) {
    for (const row of rows) {
      if (row.bundle === null) continue;
      writeFileSync(scratch, row.bundle);
      const taken = await git(["bundle", "unbundle", scratch], { cwd: root, ok: [0, 1, 128] });
      if (taken.code !== 0) lacking = taken.stderr;
    }
    rmSync(scratch, { force: true });
    if (await has()) return;
    if (fetched) break;
    // What the bundles build on is pushed: a checkout that has not fetched it yet does so once.
    await git(["-c", "core.hooksPath=/dev/null", "fetch", "--all", "--quiet"], {
      cwd: root,
      ok: [0, 1, 128],
    });
  }
  throw new WorkError(
    `the run begins from commit ${commit.slice(0, 12)}, which ${root} does not have and could not fetch${lacking ? ` (${lacking.trim().split("\n").at(-1)})` : ""}: is this a checkout of the repository the run was submitted from?`,
  );
}

/** The checkout's uncommitted changes (tracked edits and deletions, untracked files not ignored) into `path`. */
async function carryUncommitted(root: string, path: string): Promise<void> {
  const status = await git(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"], {
    cwd: root,
    env: { GIT_OPTIONAL_LOCKS: "0" },
  });
  const runs = relative(root, path).split(sep)[0];
  for (const entry of nulList(status.stdout)) {
    const file = entry.slice(3);
    // The worktree itself and flower's own folders stay where they are.
    if (file.startsWith(`${runs}/`) || file.startsWith(`${DEFAULTS.workbenchDir}/`)) continue;
    const from = join(root, file);
    const to = join(path, file);
    if (existsSync(from)) {
      mkdirSync(join(to, ".."), { recursive: true });
      cpSync(from, to, { force: true, verbatimSymlinks: true });
    } else rmSync(to, { force: true });
  }
}

/** A copy of a workspace that is not a git repository (flower's own folders and .git folders left out). */
function copyWorkspace(options: OpenRunWorkspace, path: string): RunWorkspace {
  if (existsSync(path))
    return { path, kind: "copy", created: false, commit: null, restored: [], leftOut: [] };
  const source = resolve(options.checkout);
  const runDir = resolve(options.runDir);
  // By hand, not cpSync: the copy goes inside the run directory, which may be inside the workspace.
  const copy = (from: string, to: string) => {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      const inner = join(from, entry.name);
      if (inner === runDir || inner === path || entry.name === ".git") continue;
      if (from === source && entry.name === DEFAULTS.workbenchDir) continue;
      if (entry.isDirectory()) copy(inner, join(to, entry.name));
      else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(inner), join(to, entry.name));
      else if (entry.isFile()) copyFileSync(inner, join(to, entry.name));
    }
  };
  copy(source, path);
  chmodSync(path, 0o700);
  return { path, kind: "copy", created: true, commit: null, restored: [], leftOut: [] };
}

/** The setup command of a repository (`flower.json`'s `setup`), or null. */
export function setupCommand(workspace: string): string | null {
  return readFlowerJson(workspace).setup;
}

/** How long a setup command may run (installing dependencies on a cold cache). */
const SETUP_TIMEOUT_MS = 20 * 60_000;

async function runSetup(path: string, onLine?: (line: string) => void): Promise<void> {
  const command = setupCommand(path);
  if (command === null) return;
  const log = `${path}.setup.log`;
  const output: Buffer[] = [];
  const code = await new Promise<number | null>((done) => {
    const child = spawn("/bin/sh", ["-c", command], {
      cwd: path,
      // Tagged: a setup still running when its driver is killed is ended by the driver's reaper.
      env: withDriverTag(process.env),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Gone already.
      }
    }, SETUP_TIMEOUT_MS);
    const take = (chunk: Buffer) => {
      output.push(chunk);
      for (const line of chunk.toString("utf8").split("\n")) if (line.trim() !== "") onLine?.(line);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", () => done(null));
    child.on("close", (exit) => {
      clearTimeout(timer);
      done(exit);
    });
  });
  writeFileSync(log, Buffer.concat(output));
  if (code !== 0) {
    const tail = Buffer.concat(output).toString("utf8").trim().split("\n").slice(-5).join(" / ");
    throw new WorkError(
      `the setup command of flower.json (${command}) failed in ${path} (exit ${code ?? "?"}): ${tail || "no output"}; the whole output is in ${log}`,
    );
  }
}
