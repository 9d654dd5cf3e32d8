/**
 * The run's work through the real binary: checkpoints at the main thread's calls (Bash edits, a failing
 * `rm`), at each generation's start and at the step's end, in a shadow repository that leaves the
 * person's own repository as it was; the record says what each generation changed.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HandoffPolicy, WorkRefusedError, type AgentSpec } from "../../src/index.js";
import { text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { handoffMarkdown } from "../support/handoff-fixture.js";
import { rig } from "./runtime-helpers.js";
import { git } from "../support/git.js";

const builder: AgentSpec = {
  name: "builder",
  instructions: "Build the files.",
  tools: ["Bash", "Read"],
  role: "agent",
};

function gitRepo(workspace: string): void {
  git(workspace, "init", "-q", "-b", "main");
  git(workspace, "config", "user.email", "p@example.com");
  git(workspace, "config", "user.name", "Person");
  writeFileSync(join(workspace, "keep.txt"), "keep me\n");
  for (let f = 0; f < 6; f++) {
    const lines = Array.from(
      { length: 400 },
      (_, n) => `FILE-${f}-LINE-${n} ${"lorem ipsum dolor ".repeat(4)}`,
    );
    writeFileSync(join(workspace, `big-${f}.txt`), lines.join("\n"));
  }
  writeFileSync(join(workspace, ".gitignore"), "runs/\n");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "the person's commit");
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
  it("checkpoints every main-thread call and each generation, records what each generation changed, and hands the work back as a branch", async () => {
    const current = await rig({ policy });
    gitRepo(current.workspace);
    const head = git(current.workspace, "rev-parse", "HEAD");
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
    expect(git(current.workspace, "rev-parse", "HEAD")).toBe(head);
    expect(git(current.workspace, "diff", "--cached", "--name-only")).toBe("");
    // The work is handed back as flower/build, one commit per generation; the person's branch stays.
    expect(git(current.workspace, "branch", "--format=%(refname:short)")).toBe("flower/build\nmain");
    expect(git(current.workspace, "log", "--format=%s", "main..flower/build").split("\n")).toEqual([
      "Wrote two.txt.",
      "GEN-1: wrote one.txt and removed keep.txt; reading the big files",
    ]);
    // The run's changes are the person's to commit; flower's own folders are ignored by their own .gitignore.
    const status = git(current.workspace, "status", "--porcelain", "-z").split("\0");
    expect(
      status
        .map((line) => line.trim())
        .filter(Boolean)
        .sort(),
    ).toEqual(["?? one.txt", "?? two.txt", "D keep.txt"]);
    current.model.assertNoErrors();
  });

  it("rewinds a generation that deleted a file: the file comes back, its handoff is current, a person's edit of it steers the fresh session, and the diff shows only what came after", async () => {
    /** Generation 2 deletes keep.txt (the tests need it); after the rewind it must write three.txt instead. */
    const rewindPolicy = (request: ModelRequest) => {
      if (request.isHandoffTurn) return policy(request);
      const first = request.firstUserText();
      if (first.includes("DEAD-END-KEEP")) {
        return request.countToolResults("Bash") === 0
          ? toolUse("Bash", { command: "echo three > three.txt" })
          : text("Wrote three.txt, kept keep.txt.");
      }
      if (generationOf(request) === 2) {
        const bash = request.countToolResults("Bash");
        if (bash === 0) return toolUse("Bash", { command: "rm keep.txt && echo two > two.txt" });
        return text("Removed keep.txt and wrote two.txt.");
      }
      if (request.countToolResults("Bash") === 0) return toolUse("Bash", { command: "echo one > one.txt" });
      return toolUse("Read", { file_path: `big-${request.countToolResults("Read") % 6}.txt` });
    };
    const current = await rig({ policy: rewindPolicy });
    gitRepo(current.workspace);
    const options = {
      workbench: true,
      spillThreshold: null,
      handoff: new HandoffPolicy({ window: 80_000, headroom: 30_000 }),
    };
    const rt = current.runtime(options);
    await rt.run("build", builder, "Build the files.");
    expect(existsSync(join(current.workspace, "keep.txt"))).toBe(false);

    // A person's own edit since the last checkpoint blocks the rewind, named; nothing changes.
    writeFileSync(join(current.workspace, "two.txt"), "my own edit\n");
    const refused = await rt.rewind("build", { generation: 2 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WorkRefusedError);
    expect((refused as Error).message).toContain("two.txt");
    expect(existsSync(join(current.workspace, "keep.txt"))).toBe(false);
    writeFileSync(join(current.workspace, "two.txt"), "two\n");

    const rewound = await rt.rewind("build", { generation: 2 });
    expect(rewound.restored.sort()).toEqual(["keep.txt", "two.txt"]);
    expect(readFileSync(join(current.workspace, "keep.txt"), "utf8")).toBe("keep me\n");
    expect(existsSync(join(current.workspace, "two.txt"))).toBe(false);
    expect(existsSync(join(current.workspace, "one.txt"))).toBe(true);
    const handoff = join(current.workspace, ".flower", "notes", "handoff-build.md");
    expect(rewound.handoff).toBe(handoff);
    expect(readFileSync(handoff, "utf8")).toContain("GEN-1");
    let record = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8")).steps.build;
    expect(record.status).toBe("stopped");
    expect(record.generations).toBe(1);
    expect(record.rewound).toHaveLength(1);
    expect(record.rewound[0].generations[0].work.files.sort()).toEqual(["keep.txt", "two.txt"]);

    // The person adds the dead end; the fresh session reads it and goes another way.
    appendFileSync(handoff, "\n- DEAD-END-KEEP: removing keep.txt broke the tests; keep it.\n");
    const result = await rt.continue("build", builder);
    expect(result.status).toBe("done");
    expect(result.generations).toBe(2);
    expect(existsSync(join(current.workspace, "keep.txt"))).toBe(true);
    record = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8")).steps.build;
    expect(record.history[1].work.files).toEqual(["three.txt"]);

    // What the run did, all told: one.txt and three.txt; the rewound deletion and two.txt are gone from it.
    expect(await rt.diff("build", { format: "names" })).toBe("one.txt\nthree.txt\n");
    expect(await rt.diff("build", { generation: 2, format: "names" })).toBe("three.txt\n");
    const patch = await rt.diff("build");
    expect(patch).toContain("+three");
    expect(patch).not.toContain("keep.txt");
    // The branch holds one commit per generation, the handoff's doing as the first one's message.
    expect(git(current.workspace, "log", "--format=%s", "main..flower/build").split("\n")).toEqual([
      "Wrote three.txt, kept keep.txt.",
      "GEN-1: wrote one.txt and removed keep.txt; reading the big files",
    ]);
    expect(git(current.workspace, "show", "flower/build:keep.txt")).toBe("keep me");
    // It worked in this checkout: apply has nothing to bring.
    await expect(rt.apply("build")).rejects.toThrow(/worked in this checkout/);
    current.model.assertNoErrors();
  });

  it("rewinds by turn: the files as that turn's calls left them, and the conversation resumed from its end", async () => {
    const afterRewind = (request: ModelRequest) => request.lastUserText().includes("took this conversation");
    const current = await rig({
      policy: (request: ModelRequest) => {
        const bash = request.countToolResults("Bash");
        if (request.allText().includes("end of turn 2")) {
          // The resumed session: the turns after 2 are gone from its conversation.
          return bash === 2
            ? toolUse("Bash", { command: "echo other > other.txt" })
            : text("Went another way.");
        }
        return bash < 4
          ? toolUse("Bash", { command: `echo ${bash + 1} > turn-${bash + 1}.txt` })
          : text("Wrote four files.");
      },
    });
    gitRepo(current.workspace);
    const rt = current.runtime({ workbench: true, spillThreshold: null });
    await rt.run("build", builder, "Write the turn files.");
    for (const n of [1, 2, 3, 4]) expect(existsSync(join(current.workspace, `turn-${n}.txt`))).toBe(true);

    const rewound = await rt.rewind("build", { generation: 1, turn: 2 });
    expect(rewound.turn).toBe(2);
    expect(rewound.restored.sort()).toEqual(["turn-3.txt", "turn-4.txt"]);
    expect(existsSync(join(current.workspace, "turn-2.txt"))).toBe(true);
    expect(existsSync(join(current.workspace, "turn-3.txt"))).toBe(false);

    const result = await rt.continue("build", builder);
    expect(result.status).toBe("done");
    expect(result.result).toBe("Went another way.");
    const resumed = current.model.requests.find(afterRewind)!;
    expect(resumed.sessionId).toBe(result.sessionId);
    expect(resumed.toolResults().map((one) => one.text.trim())).toEqual([
      "(Bash completed with no output)",
      "(Bash completed with no output)",
    ]);
    expect(existsSync(join(current.workspace, "other.txt"))).toBe(true);
    expect(await rt.diff("build", { format: "names" })).toBe("other.txt\nturn-1.txt\nturn-2.txt\n");
    const record = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8")).steps.build;
    expect(record.resumeAt).toBeUndefined();
    expect(record.rewound[0]).toMatchObject({ to: 1, turn: 2 });
    current.model.assertNoErrors();
  });
});
