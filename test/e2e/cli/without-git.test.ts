/**
 * A run's work where git is not what flower usually finds, through the built `flower`:
 * - a workspace that is not a git repository: its files are still checkpointed (diff and rewind work),
 *   and the commands that need a repository say so in one line (exit 2) instead of failing; show names
 *   no branch, and a diff with nothing in it says "no changes";
 * - a machine without `git` on PATH: the run works as before and says once that its files are not
 *   checkpointed; `flower diff` says why there is nothing to show.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse, type ModelRequest, type Reply } from "../../../src/testing/index.js";
import { cleanEnv, runFlower, runFlowerOk, useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();

function writerPolicy(request: ModelRequest): Reply | undefined {
  if (request.kind === "title" || request.kind === "compact") return undefined;
  if (request.isSubagent)
    return request.countToolResults("Bash") === 0
      ? toolUse("Bash", { command: "rm old.txt && echo new > new.txt" })
      : text("Replaced old.txt with new.txt.");
  return request.countToolResults("Agent") === 0
    ? toolUse("Agent", {
        subagent_type: "engineer",
        description: "replace",
        prompt: "Replace old.txt with new.txt",
      })
    : text("Done.");
}

/** A PATH with every command of this machine but git. */
function pathWithoutGit(): string {
  const bin = temp.make("flower-no-git-");
  for (const dir of ["/usr/local/bin", "/usr/bin", "/bin"]) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (name.startsWith("git") || existsSync(join(bin, name))) continue;
      symlinkSync(join(dir, name), join(bin, name));
    }
  }
  return bin;
}

describe("a run's work without git where it usually is", () => {
  it("a workspace outside git: checkpoints, diff and rewind work; apply and fetch say it is not a repository", async () => {
    const model = await startModel({ policy: writerPolicy });
    const root = temp.make("flower-plain-");
    writeFileSync(join(root, "old.txt"), "old\n");
    const env = cleanEnv(model.env());
    const run = await runFlower(["--direct", "--step", "replace", "Replace old.txt"], {
      env,
      cwd: root,
      timeoutMs: 90_000,
    });
    expect(run.code).toBe(0);
    expect(existsSync(join(root, "old.txt"))).toBe(false);

    const names = await runFlowerOk(["diff", "replace", "--name-only"], { env, cwd: root });
    expect(names.stdout).toBe("new.txt\nold.txt\n");
    const applied = await runFlower(["apply", "replace"], { env, cwd: root });
    expect(applied.code).toBe(2);
    expect(applied.stderr).toMatch(
      /is not a git repository; the run's changes are in its checkpoints \(flower diff replace\)/,
    );
    const fetched = await runFlowerOk(["fetch", "replace"], { env, cwd: root });
    expect(fetched.stdout).toContain("its workspace is not a git repository");

    const rewound = await runFlowerOk(["rewind", "replace", "--to", "1"], { env, cwd: root });
    expect(rewound.stdout).toContain("2 files put back (new.txt, old.txt)");
    expect(readFileSync(join(root, "old.txt"), "utf8")).toBe("old\n");
    expect(existsSync(join(root, "new.txt"))).toBe(false);

    // Rewound to its start, the run has no changes: diff says so (a patch on stdout stays empty), and
    // show names no branch (there is none outside git).
    const none = await runFlower(["diff", "replace"], { env, cwd: root });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe("");
    expect(none.stderr).toBe('no changes: run "replace" changed no files\n');
    const shown = await runFlowerOk(["show", "replace"], { env, cwd: root });
    expect(shown.stdout).toMatch(/^files {7}\S+ · \d+ checkpoints?$/m);
    expect(shown.stdout).not.toContain("branch flower/");
    model.assertNoErrors();
  }, 180_000);

  it("a machine without git: the run works and says once that its files are not checkpointed", async () => {
    const model = await startModel({ policy: writerPolicy });
    const root = temp.make("flower-no-git-ws-");
    mkdirSync(join(root, "src"));
    writeFileSync(join(root, "old.txt"), "old\n");
    const env = cleanEnv({ ...model.env(), PATH: pathWithoutGit() });
    const run = await runFlower(["--direct", "--step", "replace", "Replace old.txt"], {
      env,
      cwd: root,
      timeoutMs: 90_000,
    });
    expect(run.code).toBe(0);
    expect(existsSync(join(root, "new.txt"))).toBe(true);
    const said = `${run.stdout}${run.stderr}`;
    expect(said.match(/git was not found on PATH/g)).toHaveLength(1);
    expect(said).toContain("the run's files are not checkpointed (no rewind, no branch, no diff)");

    const diff = await runFlower(["diff", "replace"], { env, cwd: root });
    expect(diff.code).toBe(1);
    expect(diff.stderr).toMatch(
      /run "replace" has no recorded work: it ran with checkpoints off, without git/,
    );
    model.assertNoErrors();
  }, 180_000);
});
