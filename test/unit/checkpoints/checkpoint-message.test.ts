/**
 * A checkpoint's message says what another machine needs to judge it without the record (its call, its
 * session, where in the run it was taken), and a run's name becomes a ref that git accepts.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  branchOf,
  chainKey,
  checkpointMessage,
  parseCheckpointMessage,
  type CheckpointMeta,
} from "../../../src/checkpoints/checkpoint-message.js";

describe("checkpoint messages", () => {
  it("read back what they were written with, whitespace in a step name included", () => {
    const meta: CheckpointMeta = {
      kind: "call",
      run: "fix the build",
      step: "fix the build/work",
      generation: 3,
      session: "4b1e-22",
      call: "toolu_01",
      tool: "Bash",
    };
    expect(parseCheckpointMessage(checkpointMessage(meta))).toEqual(meta);
    expect(checkpointMessage(meta).split("\n")[0]).toBe(
      "flower checkpoint: fix the build/work, generation 3: Bash toolu_01",
    );
  });

  it("is null for a commit that is not a checkpoint (the person's own)", () => {
    expect(parseCheckpointMessage("Fix the parser\n\nSigned-off-by: someone")).toBeNull();
    expect(parseCheckpointMessage("Flower-Kind: nonsense\nFlower-Run: r\nFlower-Step: s\n")).toBeNull();
  });
});

describe("ref names of runs", () => {
  it("keep a readable run name and make every other one a ref git accepts, unique per name", () => {
    expect(branchOf("fix-the-build")).toBe("flower/fix-the-build");
    const names = ["fix the build", "a/b", "../x", "修复构建", "x..y", "end.lock", "."];
    const refs = names.map((name) => branchOf(name));
    expect(new Set(refs).size).toBe(names.length);
    for (const ref of refs) execFileSync("git", ["check-ref-format", `refs/heads/${ref}`]);
    expect(chainKey("a b")).not.toBe(chainKey("a_b"));
  });
});
