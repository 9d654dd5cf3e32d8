/**
 * A run's work as a person handles it, through the built `flower` and the real binary:
 * - a run whose second generation deletes a file with Bash `rm` (the person's test needs it): their own
 *   edit since the last checkpoint blocks `flower rewind` with a line naming the file; `flower rewind
 *   <step> --to 2` brings the file back and makes the handoff that started generation 2 current; the
 *   person adds a dead end to it; `flower continue` ends done on another path; `flower diff` shows only
 *   what the run did in the end; `flower show` lists the rewound generation, marked;
 * - `flower --worktree` in a repository with its own hooks and a dirty tree works in a worktree of its
 *   own and touches neither; `flower apply` on the dirty checkout refuses and changes nothing, on a
 *   clean one it merges; `flower discard` removes the branch and the worktree.
 */
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse, toolUses, type ModelRequest, type Reply } from "../../../src/testing/index.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { cleanEnv, runFlower, runFlowerOk, useCliTest, writeNotes } from "./helpers.js";
import { git } from "../../support/git.js";

const { temp, startModel } = useCliTest();

/** A repository with notes to read, keep.txt (the person's test needs it), and hooks that log when run. */
function repository(): string {
  const root = temp.make("flower-work-cli-");
  git(root, "init", "-q", "-b", "main");
  git(root, "config", "user.email", "p@example.com");
  git(root, "config", "user.name", "Person");
  writeNotes(root);
  writeFileSync(join(root, "keep.txt"), "keep me\n");
  writeFileSync(join(root, ".gitignore"), "runs/\n");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "base");
  for (const hook of ["pre-commit", "post-checkout", "post-merge", "reference-transaction", "post-commit"])
    writeFileSync(join(root, ".git", "hooks", hook), `#!/bin/sh\necho ${hook} >> "${root}.hooks.log"\n`, {
      mode: 0o755,
    });
  return root;
}

const engineer = (prompt: string): Reply =>
  toolUse("Agent", { subagent_type: "engineer", description: prompt.slice(0, 30), prompt });

/** The engineer runs the one command its brief names (`RUN: <command>`), then reports. */
function engineerReply(request: ModelRequest): Reply {
  if (request.countToolResults("Bash") > 0) return text("Done, as briefed.");
  const command = /RUN: (.+)$/m.exec(request.allText())?.[1] ?? "true";
  return toolUse("Bash", { command });
}

describe("a run's work, as a person handles it", () => {
  it("rewinds a generation that deleted a file: the person's edit blocks it, then the file comes back, the handoff is edited, continue takes another path, diff shows what came after", async () => {
    const generationOf = (request: ModelRequest) =>
      request.firstUserText().includes("DEAD-END-KEEP")
        ? 3
        : request.firstUserText().includes("GEN-1")
          ? 2
          : 1;
    const model = await startModel({
      policy: (request: ModelRequest) => {
        if (request.kind === "title" || request.kind === "compact") return undefined;
        if (request.isSubagent) return engineerReply(request);
        if (request.isHandoffTurn)
          return text(
            handoffMarkdown({
              doing: "GEN-1: wrote one.txt; read the notes",
              next: ["Clean up: keep.txt looks unused"],
            }),
          );
        const agents = request.countToolResults("Agent");
        const generation = generationOf(request);
        if (generation === 1) {
          if (agents === 0) return engineer("RUN: echo one > one.txt");
          const read = request.countToolResults("Read");
          return toolUses(
            Array.from({ length: 6 }, (_, i) => ({
              name: "Read",
              input: { file_path: `note-${read + i + 1}.md` },
            })),
          );
        }
        if (generation === 2)
          return agents === 0
            ? engineer("RUN: rm keep.txt && echo two > two.txt")
            : text("Removed keep.txt.");
        return agents === 0
          ? engineer("RUN: echo three > three.txt")
          : text("Kept keep.txt, wrote three.txt.");
      },
    });
    const root = repository();
    const env = cleanEnv(model.env());
    const step = "tidy-up";
    const run = await runFlower(["--direct", "--window", "85000", "--step", step, "Tidy up the repository"], {
      env,
      cwd: root,
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(0);
    expect(existsSync(join(root, "keep.txt"))).toBe(false);

    // The person's own edit since the last checkpoint: the rewind refuses, names it, changes nothing.
    writeFileSync(join(root, "two.txt"), "my own edit\n");
    const refused = await runFlower(["rewind", step, "--to", "2"], { env, cwd: root });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("two.txt");
    expect(refused.stderr).toContain("--force");
    expect(existsSync(join(root, "keep.txt"))).toBe(false);
    expect(readFileSync(join(root, "two.txt"), "utf8")).toBe("my own edit\n");
    writeFileSync(join(root, "two.txt"), "two\n");

    const rewound = await runFlowerOk(["rewind", step, "--to", "2"], { env, cwd: root });
    expect(rewound.stdout).toContain(`rewound "${step}" to the start of generation 2`);
    expect(rewound.stdout).toContain("keep.txt");
    const handoff = join(".flower", "notes", `handoff-${step}.md`);
    expect(rewound.stdout).toContain(handoff);
    expect(rewound.stdout).toContain(`then go on with: flower continue ${step}`);
    expect(readFileSync(join(root, "keep.txt"), "utf8")).toBe("keep me\n");
    expect(existsSync(join(root, "two.txt"))).toBe(false);
    expect(readFileSync(join(root, handoff), "utf8")).toContain("GEN-1");

    // The person adds the dead end and goes on: the fresh session reads it and keeps keep.txt.
    appendFileSync(join(root, handoff), "\n- DEAD-END-KEEP: removing keep.txt broke the tests.\n");
    const continued = await runFlower(["continue", step], { env, cwd: root, timeoutMs: 120_000 });
    expect(continued.code).toBe(0);
    expect(existsSync(join(root, "keep.txt"))).toBe(true);
    expect(readFileSync(join(root, "three.txt"), "utf8")).toBe("three\n");

    const names = await runFlowerOk(["diff", step, "--name-only"], { env, cwd: root });
    expect(names.stdout).toBe("one.txt\nthree.txt\n");
    const patch = await runFlowerOk(["diff", step, "--generation", "2"], { env, cwd: root });
    expect(patch.stdout).toContain("+three");
    expect(patch.stdout).not.toContain("keep.txt");
    const shown = await runFlowerOk(["show", step], { env, cwd: root });
    expect(shown.stdout).toMatch(/rewound at .*back to the start of generation 2/);
    expect(shown.stdout).toMatch(/changed 2 files: keep\.txt, two\.txt/);
    model.assertNoErrors();
  }, 240_000);

  it("--worktree leaves the checkout, its hooks and its dirty tree alone; apply refuses on a dirty checkout and merges on a clean one; discard removes the branch and worktree", async () => {
    const model = await startModel({
      policy: (request: ModelRequest) => {
        if (request.kind === "title" || request.kind === "compact") return undefined;
        if (request.isSubagent) return engineerReply(request);
        return request.countToolResults("Agent") === 0
          ? engineer("RUN: echo hello > hello.txt && cat wip.txt")
          : text("Wrote hello.txt.");
      },
    });
    const root = repository();
    writeFileSync(join(root, "wip.txt"), "the person's work in progress\n");
    appendFileSync(join(root, "keep.txt"), "a dirty line\n");
    const status = git(root, "status", "--porcelain");
    const head = git(root, "rev-parse", "HEAD");
    const env = cleanEnv(model.env());

    const run = await runFlower(["--direct", "--worktree", "--step", "hello", "Write hello"], {
      env,
      cwd: root,
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /working in its own worktree runs\/worktrees\/hello-[0-9a-f]+ \(at [0-9a-f]{10}, with your uncommitted changes\)/,
    );
    // The engineer saw the person's uncommitted file in the worktree; the checkout did not change.
    const engineerSaw = model.requests
      .filter((request) => request.isSubagent)
      .flatMap((request) => request.toolResults().map((result) => result.text))
      .join("\n");
    expect(engineerSaw).toContain("the person's work in progress");
    expect(existsSync(join(root, "hello.txt"))).toBe(false);
    expect(git(root, "status", "--porcelain")).toBe(status);
    expect(git(root, "rev-parse", "HEAD")).toBe(head);
    expect(existsSync(`${root}.hooks.log`)).toBe(false);
    expect(git(root, "branch", "--format=%(refname:short)")).toBe("flower/hello\nmain");

    // A dirty checkout: refused, one line naming the file, nothing changed.
    const refused = await runFlower(["apply", "hello"], { env, cwd: root });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain("uncommitted changes to keep.txt");
    expect(git(root, "status", "--porcelain")).toBe(status);
    expect(git(root, "rev-parse", "HEAD")).toBe(head);

    // Committed, but an untracked file of the person's own stands where the run wrote one: refused,
    // one line naming it, exit 2, nothing changed (git's own message was cut before the names, exit 1).
    git(root, "add", "-A");
    git(root, "commit", "-q", "--no-verify", "-m", "my work in progress");
    writeFileSync(join(root, "hello.txt"), "the person's own hello\n");
    const committed = git(root, "rev-parse", "HEAD");
    const inTheWay = await runFlower(["apply", "hello"], { env, cwd: root });
    expect(inTheWay.code).toBe(2);
    expect(inTheWay.stderr.trim().split("\n")).toEqual([
      "flower apply: refused, nothing changed: untracked files here are in the way of flower/hello: hello.txt. Move them aside (or commit them), then apply again.",
    ]);
    expect(readFileSync(join(root, "hello.txt"), "utf8")).toBe("the person's own hello\n");
    expect(git(root, "rev-parse", "HEAD")).toBe(committed);
    expect(git(root, "status", "--porcelain")).toBe("?? hello.txt");

    // Moved aside: apply merges (the person's hooks run for their merge, as for any merge they make).
    rmSync(join(root, "hello.txt"));
    const applied = await runFlowerOk(["apply", "hello"], { env, cwd: root });
    expect(applied.stdout).toMatch(/^merged flower\/hello into main: 1 file changed/);
    expect(readFileSync(join(root, "hello.txt"), "utf8")).toBe("hello\n");
    expect(git(root, "log", "-1", "--format=%s")).toBe("Merge flower/hello: Write hello");

    const discarded = await runFlowerOk(["discard", "hello"], { env, cwd: root });
    expect(discarded.stdout).toContain(
      "discarded the branch flower/hello and the worktree runs/worktrees/hello-",
    );
    expect(git(root, "branch", "--format=%(refname:short)")).toBe("main");
    expect(git(root, "worktree", "list").split("\n")).toHaveLength(1);
    model.assertNoErrors();
  }, 240_000);

  it("runs the repository's setup command in a new worktree, and a failing one stops the run before any model request", async () => {
    const model = await startModel({
      policy: (request: ModelRequest) => {
        if (request.kind === "title" || request.kind === "compact") return undefined;
        if (request.isSubagent) return engineerReply(request);
        return request.countToolResults("Agent") === 0
          ? engineer("RUN: cat .installed")
          : text("The setup had run.");
      },
    });
    const root = repository();
    writeFileSync(
      join(root, "flower.json"),
      JSON.stringify({ setup: "echo deps > .installed && echo installed the deps" }),
    );
    writeFileSync(join(root, ".gitignore"), "runs/\n.installed\n");
    git(root, "add", "-A");
    git(root, "commit", "-q", "--no-verify", "-m", "a setup command");
    const env = cleanEnv(model.env());
    const run = await runFlower(["--direct", "--worktree", "--step", "with-setup", "Use the deps"], {
      env,
      cwd: root,
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("  setup: installed the deps");
    const engineerSaw = model.requests
      .filter((request) => request.isSubagent)
      .flatMap((request) => request.toolResults().map((result) => result.text));
    expect(engineerSaw.join("\n")).toContain("deps");

    writeFileSync(join(root, "flower.json"), JSON.stringify({ setup: "echo missing a tool >&2; exit 7" }));
    git(root, "commit", "-q", "--no-verify", "-am", "a broken setup");
    const asked = model.requests.length;
    const failed = await runFlower(["--direct", "--worktree", "--step", "broken-setup", "Use the deps"], {
      env,
      cwd: root,
      timeoutMs: 120_000,
    });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      /the setup command of flower.json \(echo missing a tool >&2; exit 7\) failed in .* \(exit 7\): missing a tool; the whole output is in .*broken-setup-[0-9a-f]+\.setup\.log/,
    );
    expect(model.requests.length).toBe(asked);
    // The broken tree is gone: a second try makes it afresh and runs the setup again.
    expect(git(root, "worktree", "list").split("\n")).toHaveLength(2);
    const again = await runFlower(["--direct", "--worktree", "--step", "broken-setup", "Use the deps"], {
      env,
      cwd: root,
      timeoutMs: 120_000,
    });
    expect(again.stderr).toContain("failed in");
    expect(again.stderr).toContain("(exit 7)");
    model.assertNoErrors();
  }, 240_000);
});
