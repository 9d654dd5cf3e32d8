/**
 * The shadow repository with the real git: a checkpoint records what changed (Bash-style edits, deletes,
 * new files), leaves the person's repository exactly as it was (index, HEAD, branches, stash, config,
 * hooks), respects .gitignore and flower's own folders, names what it leaves out, costs nothing when
 * nothing changed, and a restore puts exactly the recorded files back.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STALE_LOCK_MS } from "../../../src/checkpoints/stale-lock.js";
import { WorkTracker } from "../../../src/checkpoints/work-tracker.js";
import { useTempDirs } from "../../support/temp-dir.js";
import { git } from "../../support/git.js";

const temp = useTempDirs();

/** A person's repository: one commit, a hook, a stash, an ignored folder, a dirty file. */
function personRepo(): string {
  const root = temp.make("flower-work-repo-");
  git(root, "init", "-q", "-b", "main");
  git(root, "config", "user.email", "p@example.com");
  git(root, "config", "user.name", "Person");
  writeFileSync(join(root, ".gitignore"), "build/\n");
  writeFileSync(join(root, "a.txt"), "a1\n");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "b.txt"), "b1\n");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "first");
  writeFileSync(join(root, ".git", "hooks", "pre-commit"), "#!/bin/sh\necho HOOK-RAN >> hook.log\n", {
    mode: 0o755,
  });
  writeFileSync(join(root, "a.txt"), "a-stashed\n");
  git(root, "stash", "-q");
  writeFileSync(join(root, "a.txt"), "a-dirty\n");
  mkdirSync(join(root, "build"));
  writeFileSync(join(root, "build", "out.bin"), "ignored\n");
  return root;
}

/** What a person's own git says about their repository: every part flower must leave alone. */
function personState(root: string): Record<string, string> {
  return {
    staged: git(root, "diff", "--cached", "--name-status"),
    head: git(root, "rev-parse", "HEAD"),
    branches: git(root, "for-each-ref", "--format=%(refname) %(objectname)"),
    stash: git(root, "stash", "list"),
    config: readFileSync(join(root, ".git", "config"), "utf8"),
    index: createHash("sha256")
      .update(readFileSync(join(root, ".git", "index")))
      .digest("hex"),
  };
}

function tracker(root: string, runDir: string, owned = false) {
  return WorkTracker.open({
    workspace: root,
    runDir,
    run: "fix-it",
    owned,
    carrier: null,
    maxFileBytes: 1024,
    now: () => new Date("2026-12-04T10:00:00Z"),
  });
}

describe("the shadow repository", () => {
  it("records every change of the workspace and leaves the person's repository as it was", async () => {
    const root = personRepo();
    const runDir = join(root, "runs");
    mkdirSync(runDir);
    writeFileSync(join(runDir, "records.db"), "not recorded");
    mkdirSync(join(root, ".flower", "spill"), { recursive: true });
    writeFileSync(join(root, ".flower", "spill", "x.txt"), "not recorded");
    const before = personState(root);
    const work = await tracker(root, runDir);

    const start = await work.checkpoint({ kind: "start", step: "work", generation: 1 });
    expect(start.changed).toBe(true);
    expect(start.parent).toBe(before.head);
    expect(start.files).toEqual(["a.txt"]);

    // What Bash does: a new file, a delete, an edit; then a file too large, and one ignored.
    writeFileSync(join(root, "c.txt"), "c1\n");
    rmSync(join(root, "src", "b.txt"));
    writeFileSync(join(root, "a.txt"), "a2\n");
    writeFileSync(join(root, "big.bin"), Buffer.alloc(4096, 1));
    writeFileSync(join(root, "build", "more.bin"), "ignored too\n");
    const call = await work.checkpoint({
      kind: "call",
      step: "work",
      generation: 1,
      session: "s1",
      call: "toolu_1",
    });
    expect(call.changed).toBe(true);
    expect(call.files.sort()).toEqual(["a.txt", "c.txt", "src/b.txt"]);
    expect(call.leftOut).toEqual([{ path: "big.bin", why: "too-large", bytes: 4096 }]);
    expect(work.tip).toBe(call.commit);

    // Nothing changed: no commit.
    const again = await work.checkpoint({
      kind: "call",
      step: "work",
      generation: 1,
      session: "s1",
      call: "toolu_2",
    });
    expect(again.changed).toBe(false);
    expect(again.commit).toBe(call.commit);

    // The shadow saw neither runs/ nor .flower/ nor build/.
    const files = git(root, "--git-dir", work.shadow.dir, "ls-tree", "-r", "--name-only", call.commit).split(
      "\n",
    );
    expect(files.sort()).toEqual([".gitignore", "a.txt", "c.txt"]);
    expect(personState(root)).toEqual(before);
    expect(existsSync(join(root, "hook.log"))).toBe(false);
  });

  it("goes past the locks a killed git left in it once they are stale, and leaves a fresh one alone", async () => {
    const root = personRepo();
    const runDir = join(root, "runs");
    const work = await tracker(root, runDir, true);
    await work.checkpoint({ kind: "start", step: "work", generation: 1 });
    // What a git killed with its driver (docker stop, the OOM killer) leaves: the chain's index lock and
    // its ref's lock, taken and never renamed into place.
    const locks = [
      join(work.shadow.dir, `index-${work.key}.lock`),
      join(work.shadow.dir, `${work.ref}.lock`),
    ];
    const leave = (ageMs: number) => {
      const at = new Date(Date.now() - ageMs);
      for (const lock of locks) {
        writeFileSync(lock, "");
        utimesSync(lock, at, at);
      }
    };
    const edit = async (text: string, call: string) => {
      writeFileSync(join(root, "c.txt"), text);
      return (await tracker(root, runDir, true)).checkpoint({
        kind: "call",
        step: "work",
        generation: 1,
        session: "s1",
        call,
      });
    };

    // Young: a git of a driver that just died may still be finishing; the checkpoint fails and says why.
    leave(5_000);
    await expect(edit("c1\n", "t1")).rejects.toThrow(/index-.*\.lock': File exists/);
    expect(locks.every((lock) => existsSync(lock))).toBe(true);

    leave(STALE_LOCK_MS + 5_000);
    const taken = await edit("c2\n", "t2");
    expect(taken).toMatchObject({ changed: true, files: ["c.txt"] });
    expect(locks.some((lock) => existsSync(lock))).toBe(false);
    expect(git(root, "--git-dir", work.shadow.dir, "show", `${taken.commit}:c.txt`)).toBe("c2");
    expect((await tracker(root, runDir, true)).tip).toBe(taken.commit);
  });

  it("restores a checkpoint exactly in a working tree of its own, and only then", async () => {
    const root = personRepo();
    const runDir = join(root, "runs");
    const work = await tracker(root, runDir, true);
    await work.checkpoint({ kind: "start", step: "work", generation: 1 });
    writeFileSync(join(root, "c.txt"), "c1\n");
    const first = await work.checkpoint({
      kind: "call",
      step: "work",
      generation: 1,
      session: "s1",
      call: "t1",
    });
    // A call whose result never reached the transcript: a delete and an edit.
    rmSync(join(root, "c.txt"));
    writeFileSync(join(root, "src", "b.txt"), "cut\n");
    writeFileSync(join(root, "d.txt"), "from the cut call\n");
    const cut = await work.checkpoint({
      kind: "call",
      step: "work",
      generation: 1,
      session: "s1",
      call: "t2",
    });
    expect(cut.changed).toBe(true);

    const reopened = await tracker(root, runDir, true);
    const result = await reopened.reconcile(async (_session, call) => call === "t1", null);
    expect(result.target).toBe(first.commit);
    expect(result.dropped).toBe(1);
    expect(result.restored.sort()).toEqual(["c.txt", "d.txt", "src/b.txt"]);
    expect(readFileSync(join(root, "c.txt"), "utf8")).toBe("c1\n");
    expect(readFileSync(join(root, "src", "b.txt"), "utf8")).toBe("b1\n");
    expect(existsSync(join(root, "d.txt"))).toBe(false);
    expect(existsSync(join(root, "build", "out.bin"))).toBe(true);
    expect(reopened.tip).toBe(first.commit);
  });

  it("in the person's checkout keeps what differs from the checkpoint and names it", async () => {
    const root = personRepo();
    const runDir = join(root, "runs");
    const work = await tracker(root, runDir, false);
    await work.checkpoint({ kind: "start", step: "work", generation: 1 });
    writeFileSync(join(root, "c.txt"), "c1\n");
    await work.checkpoint({ kind: "call", step: "work", generation: 1, session: "s1", call: "t1" });
    writeFileSync(join(root, "c.txt"), "the person's edit\n");
    const result = await (await tracker(root, runDir, false)).reconcile(async () => true, null);
    expect(result.kept).toEqual(["c.txt"]);
    expect(result.restored).toEqual([]);
    expect(readFileSync(join(root, "c.txt"), "utf8")).toBe("the person's edit\n");
  });

  it("in a checkout outside git, a file the person made meanwhile is kept, not deleted (a new step of the run goes on)", async () => {
    const root = temp.make("flower-plain-");
    const runDir = join(root, "runs");
    writeFileSync(join(root, "a.txt"), "a\n");
    const work = await tracker(root, runDir, false);
    await work.checkpoint({ kind: "start", step: "requirements", generation: 1 });
    writeFileSync(join(root, "notes.txt"), "the run's\n");
    await work.checkpoint({ kind: "end", step: "requirements", generation: 1 });
    // The person, during the pause: a file of their own, and an edit.
    writeFileSync(join(root, "mine.txt"), "the person's\n");
    writeFileSync(join(root, "a.txt"), "the person's edit\n");
    // The next step begins: no start of its own yet, and no HEAD to compare with.
    const result = await (await tracker(root, runDir, false)).reconcile(async () => true, null);
    expect(result.restored).toEqual([]);
    expect([...result.kept].sort()).toEqual(["a.txt", "mine.txt"]);
    expect(readFileSync(join(root, "mine.txt"), "utf8")).toBe("the person's\n");
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("the person's edit\n");
  });
});
