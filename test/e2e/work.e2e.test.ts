/**
 * The run's work through the real binary: checkpoints at the main thread's calls (Bash edits, a failing
 * `rm`), at each generation's start and at the step's end, in a shadow repository that leaves the
 * person's own repository as it was; the record says what each generation changed.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HandoffPolicy, type AgentSpec } from "../../src/index.js";
import { text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { handoffMarkdown } from "../support/handoff-fixture.js";
import { rig } from "./runtime-helpers.js";

const builder: AgentSpec = {
  name: "builder",
  instructions: "Build the files.",
  tools: ["Bash", "Read"],
  role: "agent",
};

function sh(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_OPTIONAL_LOCKS: "0" },
  }).trim();
}

function gitRepo(workspace: string): void {
  sh(workspace, "init", "-q", "-b", "main");
  sh(workspace, "config", "user.email", "p@example.com");
  sh(workspace, "config", "user.name", "Person");
  writeFileSync(join(workspace, "keep.txt"), "keep me\n");
  for (let f = 0; f < 6; f++) {
    const lines = Array.from(
      { length: 400 },
      (_, n) => `FILE-${f}-LINE-${n} ${"lorem ipsum dolor ".repeat(4)}`,
    );
    writeFileSync(join(workspace, `big-${f}.txt`), lines.join("\n"));
  }
  writeFileSync(join(workspace, ".gitignore"), "runs/\n");
  sh(workspace, "add", "-A");
  sh(workspace, "commit", "-q", "-m", "the person's commit");
}

function generationOf(request: ModelRequest): number {
  return request.firstUserText().includes("GEN-1") ? 2 : 1;
}

/** Generation 1 writes one.txt, deletes keep.txt with a failing command, then reads until the line. */
function policy(request: ModelRequest) {
  if (request.isHandoffTurn)
    return text(
      handoffMarkdown({
        doing: "GEN-1: wrote one.txt and removed keep.txt; reading the big files",
        decided: ["keep.txt goes: it is not needed"],
        deadends: [],
        next: ["write two.txt"],
        scene: ["`one.txt` — written"],
      }),
    );
  if (generationOf(request) === 2) {
    return request.countToolResults("Bash") === 0
      ? toolUse("Bash", { command: "echo two > two.txt" })
      : text("Wrote two.txt.");
  }
  const bash = request.countToolResults("Bash");
  if (bash === 0) return toolUse("Bash", { command: "echo one > one.txt" });
  if (bash === 1) return toolUse("Bash", { command: "rm keep.txt; exit 3" });
  return toolUse("Read", { file_path: `big-${request.countToolResults("Read") % 6}.txt` });
}

describe("the run's work through the real binary", () => {
  it("checkpoints every main-thread call and each generation, and records what each generation changed", async () => {
    const current = await rig({ policy });
    gitRepo(current.workspace);
    const head = sh(current.workspace, "rev-parse", "HEAD");
    const rt = current.runtime({
      workbench: true,
      spillThreshold: null,
      handoff: new HandoffPolicy({ window: 80_000, headroom: 30_000 }),
    });
    const result = await rt.run("build", builder, "Build the files.");
    expect(result.status).toBe("done");
    expect(result.generations).toBe(2);

    const record = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8")).steps.build;
    expect(record.work).toMatchObject({ run: "build", isolated: false, base: head });
    expect(record.history[0].work.files.sort()).toEqual(["keep.txt", "one.txt"]);
    expect(record.history[0].work.summary).toBe(
      "GEN-1: wrote one.txt and removed keep.txt; reading the big files",
    );
    expect(record.history[1].work.files).toEqual(["two.txt"]);
    expect(record.history[1].work.start).toBe(record.history[0].work.end);
    expect(record.work.tip).toBe(record.history[1].work.end);

    // The tip holds the run's files; the person's repository is untouched (HEAD, index, branches).
    const shadow = join(current.runDir, "work");
    expect(existsSync(shadow)).toBe(true);
    expect(sh(current.workspace, "rev-parse", "HEAD")).toBe(head);
    expect(sh(current.workspace, "diff", "--cached", "--name-only")).toBe("");
    expect(sh(current.workspace, "branch", "--format=%(refname:short)")).toBe("main");
    // The run's changes are the person's to commit; flower's own folders are ignored by their own .gitignore.
    const status = sh(current.workspace, "status", "--porcelain", "-z").split("\0");
    expect(
      status
        .map((line) => line.trim())
        .filter(Boolean)
        .sort(),
    ).toEqual(["?? one.txt", "?? two.txt", "D keep.txt"]);
    current.model.assertNoErrors();
  });
});
