import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { PostToolUseHookInput } from "@anthropic-ai/claude-agent-sdk";
import { beforeEach, describe, expect, it } from "vitest";
import { INDEX_GUARD_MATCHER, indexGuard } from "../../../src/guards/index-guard.js";
import { ConfigurationError } from "../../../src/errors.js";
import { Workbench } from "../../../src/workbench/workbench.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();
let workspace: string;
let bench: Workbench;

beforeEach(async () => {
  workspace = temp.make("flower-index-guard-");
  bench = new Workbench({ workspace, locale: "en" });
  await bench.ensure();
  await bench.refresh();
});

function written(tool: string, toolInput: unknown): PostToolUseHookInput {
  return {
    session_id: "s",
    transcript_path: "/tmp/s.jsonl",
    cwd: workspace,
    hook_event_name: "PostToolUse",
    tool_name: tool,
    tool_input: toolInput,
    tool_response: { type: "create" },
    tool_use_id: "toolu_1",
  };
}

async function fire(input: PostToolUseHookInput, guard = indexGuard(bench)): Promise<unknown> {
  return guard.hooks[0]!(input, "toolu_1", { signal: new AbortController().signal });
}

describe("indexGuard", () => {
  it("matches Write|Edit|NotebookEdit", () => {
    expect(indexGuard(bench).matcher).toBe("Write|Edit|NotebookEdit");
    expect(INDEX_GUARD_MATCHER).toBe("Write|Edit|NotebookEdit");
  });

  it("refreshes INDEX.md after a write inside the workbench (absolute or relative path)", async () => {
    await writeFile(path.join(bench.scripts, "count.py"), "# counts lines\n");
    expect(
      await fire(written("Write", { file_path: path.join(bench.scripts, "count.py"), content: "" })),
    ).toEqual({});
    expect(await readFile(bench.indexPath, "utf8")).toContain("- scripts/count.py — counts lines");

    await writeFile(path.join(bench.notes, "plan.md"), "# The plan\n");
    await fire(written("Edit", { file_path: ".flower/notes/plan.md", old_string: "a", new_string: "b" }));
    expect(await readFile(bench.indexPath, "utf8")).toContain("- notes/plan.md — The plan");

    await writeFile(path.join(bench.artifacts, "nb.ipynb"), '{"cells": []}\n');
    await fire(
      written("NotebookEdit", { notebook_path: path.join(bench.artifacts, "nb.ipynb"), new_source: "" }),
    );
    expect(await readFile(bench.indexPath, "utf8")).toContain("- artifacts/nb.ipynb");
  });

  it("leaves the index alone for writes elsewhere", async () => {
    await writeFile(path.join(bench.scripts, "late.sh"), "# late\n");
    await fire(written("Write", { file_path: path.join(workspace, "src.ts"), content: "" }));
    await fire(written("Write", { file_path: path.join(bench.dir, "..", "x.ts"), content: "" }));
    await fire(written("Write", {}));
    expect(await readFile(bench.indexPath, "utf8")).not.toContain("late.sh");
  });

  it("never fails the hook when the refresh fails", async () => {
    const errors: unknown[] = [];
    const broken = new Workbench({ workspace, locale: "en" });
    broken.refresh = () => Promise.reject(new Error("disk gone"));
    const guard = indexGuard(broken, { onError: (error) => errors.push(error) });
    expect(await fire(written("Write", { file_path: path.join(broken.scripts, "a.py") }), guard)).toEqual({});
    expect(errors).toHaveLength(1);
  });

  it("wants a Workbench", () => {
    expect(() => indexGuard({} as Workbench)).toThrow(ConfigurationError);
  });
});
