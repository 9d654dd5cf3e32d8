/**
 * The shadow repository at a team's scale, with the real git: a chain's first index comes from the
 * person's own (and still records exactly what `git add -A` would, whatever that index holds), the shadow
 * is packed after a step and every 100 commits with every checkpoint a rewind needs still there and
 * nothing borrowed copied in, and the shell the calls run through passes any path and ends when closed.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GitSession } from "../../../src/checkpoints/git-session.js";
import { gitEnvironment } from "../../../src/checkpoints/git.js";
import { looseObjects, maintainShadow, PACK_EVERY } from "../../../src/checkpoints/shadow-maintenance.js";
import { WorkTracker } from "../../../src/checkpoints/work-tracker.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();

const PERSON = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Person",
  GIT_AUTHOR_EMAIL: "p@example.com",
  GIT_COMMITTER_NAME: "Person",
  GIT_COMMITTER_EMAIL: "p@example.com",
};

function sh(cwd: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...PERSON, ...env } }).trim();
}

/** A person's repository of `files` files in 4 folders, one commit, a .gitignore. */
function personRepo(files = 40): string {
  const root = temp.make("flower-scale-repo-");
  sh(root, ["init", "-q", "-b", "main"]);
  writeFileSync(join(root, ".gitignore"), "build/\n*.log\n");
  for (let index = 0; index < files; index++) {
    const dir = join(root, `d${index % 4}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${index}.txt`), `file ${index}\n`.repeat(20));
  }
  sh(root, ["add", "-A"]);
  sh(root, ["commit", "-q", "-m", "first"]);
  return root;
}

/** The tree `git add -A` makes of the work tree over HEAD (today's first checkpoint), in a scratch index. */
function addAllTree(root: string): string {
  const scratch = join(temp.make("flower-scale-index-"), "index");
  const env = { GIT_INDEX_FILE: scratch };
  sh(root, ["read-tree", "HEAD"], env);
  sh(root, ["add", "-A"], env);
  return sh(root, ["write-tree"], env);
}

function personFiles(root: string): Record<string, string> {
  const gitDir = join(root, ".git");
  const hashOf = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
  return Object.fromEntries(
    readdirSync(gitDir)
      .filter((name) => name !== "objects")
      .flatMap((name) => {
        const path = join(gitDir, name);
        return existsSync(path) && !isDir(path) ? [[name, hashOf(path)]] : [];
      }),
  );
}

function isDir(path: string): boolean {
  try {
    readdirSync(path);
    return true;
  } catch {
    return false;
  }
}

function open(root: string, runDir: string, run = "scale") {
  return WorkTracker.open({
    workspace: root,
    runDir,
    run,
    owned: false,
    carrier: null,
    maxFileBytes: 1024 * 1024,
    now: () => new Date("2026-12-07T10:00:00Z"),
  });
}

let calls = 0;
const call = (work: WorkTracker) =>
  work.checkpoint({ kind: "call", step: "work", generation: 1, session: "s", call: `t${++calls}` });

describe("a chain's first index, from the person's", () => {
  const cases: Array<[string, (root: string) => void]> = [
    ["a clean checkout", () => undefined],
    [
      "staged changes, edited again after staging, a new file staged, a file removed from the index only",
      (root) => {
        writeFileSync(join(root, "d0", "f0.txt"), "staged\n");
        sh(root, ["add", "d0/f0.txt"]);
        writeFileSync(join(root, "d0", "f0.txt"), "staged, then edited\n");
        writeFileSync(join(root, "d1", "new.txt"), "new and staged\n");
        sh(root, ["add", "d1/new.txt"]);
        sh(root, ["rm", "-q", "--cached", "d2/f2.txt"]);
        writeFileSync(join(root, "d3", "f3.txt"), "edited, not staged\n");
        rmSync(join(root, "d3", "f7.txt"));
        writeFileSync(join(root, "untracked.txt"), "untracked\n");
        writeFileSync(join(root, "ignored.log"), "ignored\n");
      },
    ],
    [
      "a file marked assume-unchanged, then edited",
      (root) => {
        sh(root, ["update-index", "--assume-unchanged", "d1/f1.txt"]);
        writeFileSync(join(root, "d1", "f1.txt"), "edited under assume-unchanged\n");
      },
    ],
    [
      "a split index",
      (root) => {
        sh(root, ["update-index", "--split-index"]);
        writeFileSync(join(root, "d2", "f6.txt"), "edited\n");
        sh(root, ["status", "--porcelain"]);
      },
    ],
    [
      "an index of version 4",
      (root) => {
        sh(root, ["update-index", "--index-version", "4"]);
        writeFileSync(join(root, "d0", "f4.txt"), "edited\n");
      },
    ],
    [
      "a skip-worktree entry whose file is gone",
      (root) => {
        sh(root, ["update-index", "--skip-worktree", "d1/f5.txt"]);
        rmSync(join(root, "d1", "f5.txt"));
        writeFileSync(join(root, "d1", "f9.txt"), "edited\n");
      },
    ],
    [
      "a force-added ignored file staged, not committed",
      (root) => {
        writeFileSync(join(root, "forced.log"), "ignored, force-added\n");
        sh(root, ["add", "-f", "forced.log"]);
      },
    ],
  ];

  for (const [name, prepare] of cases)
    it(`records the work tree as \`git add -A\` over HEAD would, from ${name}, and writes nothing of the person's`, async () => {
      const root = personRepo();
      const runDir = temp.make("flower-scale-runs-");
      prepare(root);
      const head = sh(root, ["rev-parse", "HEAD"]);
      const before = personFiles(root);
      const work = await open(root, runDir);
      const first = await work.checkpoint({ kind: "start", step: "work", generation: 1 });
      expect(first.parent).toBe(head);
      // Nothing of the person's repository but its objects was read, nothing at all written.
      expect(personFiles(root)).toEqual(before);
      const tree = sh(root, ["--git-dir", work.shadow.dir, "rev-parse", `${first.commit}^{tree}`]);
      expect(tree).toBe(addAllTree(root));
      const changed = sh(root, ["diff", "--name-only", "-z", "HEAD", tree]).split("\0").filter(Boolean);
      expect(first.files).toEqual(changed);
      expect(first.changed).toBe(changed.length > 0);

      // And the chain goes on from it like any other.
      writeFileSync(join(root, "d3", "f11.txt"), "the run's edit\n");
      const next = await call(work);
      expect(next).toMatchObject({ changed: true, files: ["d3/f11.txt"] });
      expect(sh(root, ["--git-dir", work.shadow.dir, "rev-parse", `${next.commit}^{tree}`])).toBe(
        addAllTree(root),
      );
      await work.close();
    });

  it("a continue in the person's checkout compares without hashing from scratch, and still finds the person's edit", async () => {
    const root = personRepo();
    const runDir = temp.make("flower-scale-runs-");
    const work = await open(root, runDir);
    await work.checkpoint({ kind: "start", step: "work", generation: 1 });
    writeFileSync(join(root, "d0", "f0.txt"), "the run's\n");
    await call(work);
    await work.close();
    writeFileSync(join(root, "d0", "f0.txt"), "the person's\n");
    rmSync(join(root, ".git", "index"));
    const again = await open(root, runDir);
    rmSync(join(again.shadow.dir, `index-${again.key}`));
    const result = await again.reconcile(async () => true, null);
    expect(result.kept).toEqual(["d0/f0.txt"]);
    expect(readFileSync(join(root, "d0", "f0.txt"), "utf8")).toBe("the person's\n");
    await again.close();
  });
});

describe("the shadow repository's storage", () => {
  it(`is packed every ${PACK_EVERY} commits and when a step ends; every checkpoint a rewind needs stays, nothing borrowed is copied in, and what no ref reaches goes once an hour old`, async () => {
    const root = personRepo(12);
    const runDir = temp.make("flower-scale-runs-");
    const git = (...args: string[]) =>
      sh(root, ["--git-dir", join(runDir, "work", readdirSync(join(runDir, "work"))[0]!), ...args]);
    const work = await open(root, runDir);
    await work.checkpoint({ kind: "start", step: "work", generation: 1 });
    const commits: string[] = [];
    for (let index = 0; index < PACK_EVERY + 5; index++) {
      writeFileSync(join(root, `d${index % 4}`, `f${index % 12}.txt`), `version ${index}\n`);
      const taken = await call(work);
      expect(taken.changed).toBe(true);
      commits.push(taken.commit);
    }
    await work.settled();
    // Packed once on the way: only the last 5 checkpoints' objects are loose.
    expect(looseObjects(work.shadow.dir)).toBeLessThanOrEqual(5 * 4);
    expect(Number(/in-pack: (\d+)/.exec(git("count-objects", "-v"))?.[1])).toBeGreaterThan(PACK_EVERY);

    // A new run of the step name keeps the old chain under refs/flower/rewound/; the new one moves back.
    await work.restart();
    writeFileSync(join(root, "d0", "f0.txt"), "the second run\n");
    const second = await call(work);
    writeFileSync(join(root, "d0", "f0.txt"), "the second run, later\n");
    await call(work);
    await work.moveTo(second.commit, "work");
    // Garbage: an object no ref reaches, written two hours ago, and one written just now.
    const gone = execFileSync("git", ["--git-dir", work.shadow.dir, "hash-object", "-w", "--stdin"], {
      input: "unreachable, old\n",
      encoding: "utf8",
      env: PERSON,
    }).trim();
    const young = execFileSync("git", ["--git-dir", work.shadow.dir, "hash-object", "-w", "--stdin"], {
      input: "unreachable, young\n",
      encoding: "utf8",
      env: PERSON,
    }).trim();
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const objectFile = (id: string) => join(work.shadow.dir, "objects", id.slice(0, 2), id.slice(2));
    utimesSync(objectFile(gone), twoHoursAgo, twoHoursAgo);

    await work.close({ maintain: true });
    // Packed: nothing loose but the young garbage.
    expect(looseObjects(work.shadow.dir)).toBe(1);
    expect(existsSync(objectFile(young))).toBe(true);
    expect(existsSync(objectFile(gone))).toBe(false);
    // Every checkpoint of both chains is there, whole.
    for (const commit of [...commits, second.commit]) git("cat-file", "-e", `${commit}^{tree}`);
    git("fsck", "--connectivity-only", "--no-dangling");
    const rewound = git("for-each-ref", "--format=%(objectname)", "refs/flower/rewound/");
    expect(rewound.split("\n")).toContain(commits.at(-1));
    // The person's objects (HEAD's files) are borrowed, not copied: none is in the shadow's packs.
    const packDir = join(work.shadow.dir, "objects", "pack");
    const own = new Set(
      readdirSync(packDir)
        .filter((name) => name.endsWith(".idx"))
        .flatMap((name) =>
          execFileSync("git", ["show-index"], { input: readFileSync(join(packDir, name)), encoding: "utf8" })
            .split("\n")
            .map((line) => line.split(" ")[1])
            .filter((id): id is string => id !== undefined),
        ),
    );
    const headBlobs = sh(root, ["ls-tree", "-r", "--format=%(objectname)", "HEAD"]).split("\n");
    expect(headBlobs.filter((id) => own.has(id))).toEqual([]);

    // A rewind to the oldest checkpoint still puts its files back.
    const reopened = await WorkTracker.open({
      workspace: root,
      runDir,
      run: "scale",
      owned: true,
      carrier: null,
      maxFileBytes: 1024 * 1024,
      now: () => new Date(),
    });
    await reopened.shadow.restore(commits[0]!, reopened.key);
    expect(readFileSync(join(root, "d0", "f0.txt"), "utf8")).toBe("version 0\n");
    await reopened.close();
  }, 120_000);

  it("lets one maintenance through at a time, and takes over a lock a dead process left", async () => {
    const root = personRepo(4);
    const runDir = temp.make("flower-scale-runs-");
    const work = await open(root, runDir);
    writeFileSync(join(root, "d0", "f0.txt"), "changed\n");
    await call(work);
    await work.close();
    const lock = join(work.shadow.dir, "flower-maintenance");
    const shadow = {
      dir: work.shadow.dir,
      run: (args: readonly string[]) =>
        Promise.resolve(execFileSync("git", ["--git-dir", work.shadow.dir, ...args], { env: PERSON })).then(
          (stdout) => ({ stdout, stderr: "", code: 0 }),
        ),
    };
    writeFileSync(lock, `${process.pid} ${(await import("node:os")).hostname()} ${Date.now()}\n`);
    expect(await maintainShadow(shadow, { full: true })).toBeNull();
    expect(looseObjects(work.shadow.dir)).toBeGreaterThan(0);
    // A pid that is not running: its lock is left behind.
    writeFileSync(lock, `999999999 ${(await import("node:os")).hostname()} ${Date.now()}\n`);
    expect(await maintainShadow(shadow, { full: true })).toEqual({ packs: 1, loose: 0 });
    expect(existsSync(lock)).toBe(false);
  });
});

describe("the git session", () => {
  it("passes any path and any output through one shell, says git's own failure, and ends its shell when closed", async () => {
    const root = temp.make("flower-session-");
    execFileSync("git", ["init", "-q", root], { env: PERSON });
    const odd = 'it\'s a "path" with\nnewline, $HOME and `tick`.txt';
    writeFileSync(join(root, odd), "x\n");
    writeFileSync(join(root, "plain.txt"), "y\n");
    const shells = () =>
      execFileSync("ps", ["-o", "args=", "--ppid", String(process.pid)], { encoding: "utf8" })
        .split("\n")
        .filter((line) => line.trim() === "/bin/sh").length;
    const before = shells();
    const session = new GitSession({
      cwd: root,
      env: gitEnvironment({ GIT_DIR: join(root, ".git"), GIT_CONFIG_GLOBAL: "/dev/null" }),
      scratch: temp.make("flower-session-io-"),
    });
    await session.run(["add", "--pathspec-from-file=-", "--pathspec-file-nul"], {
      input: `${odd}\0plain.txt\0`,
    });
    const listed = await session.run(["ls-files", "-z"]);
    expect(listed.stdout.toString("utf8").split("\0").filter(Boolean).sort()).toEqual(
      [odd, "plain.txt"].sort(),
    );
    const blob = await session.run(["hash-object", "--stdin"], { input: Buffer.from([0, 1, 2, 255]) });
    expect(blob.stdout.toString().trim()).toMatch(/^[0-9a-f]{40}$/);
    await expect(session.run(["rev-parse", "--verify", "no-such-ref"])).rejects.toThrow(
      /git rev-parse --verify no-such-ref failed \(exit 128\): fatal: Needed a single revision/,
    );
    const answer = await session.run(["rev-parse", "--verify", "--quiet", "no-such-ref"], { ok: [0, 1] });
    expect(answer.code).toBe(1);
    expect(shells()).toBe(before + 1);
    session.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(shells()).toBe(before);
  });
});
