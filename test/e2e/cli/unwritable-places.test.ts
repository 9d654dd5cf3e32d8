/**
 * Where flower cannot keep its state, through the built `flower` binary in an empty project, with a
 * credential (the offline kit's environment) so every command gets as far as it can:
 * - an unreachable `--store` (a port nobody listens on) is one line naming the store, exit 1, and the
 *   project stays empty: no `runs/`, no records.db, no .gitignore (the store is reached before the run
 *   directory is made);
 * - a `--run-dir` under a file (`somefile/runs`) is one usage line naming --run-dir and the path, exit 2,
 *   not a raw `ENOTDIR: not a directory, mkdir …`, and nothing is written either.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { text, type FakeModel } from "../../../src/testing/index.js";
import { cleanEnv, runFlower, useCliTest, type Finished } from "./helpers.js";

const { temp, startModel } = useCliTest();
let env: Record<string, string>;
let model: FakeModel;

beforeEach(async () => {
  // Never asked: every command here stops before a session starts (the kit is closed after each test).
  model = await startModel({ policy: () => text("unused") });
  env = cleanEnv(model.env());
});

const STORE = "postgres://nobody@127.0.0.1:1/x";

function oneLine(finished: Finished): string {
  expect(finished.timedOut).toBe(false);
  const lines = finished.stderr.trimEnd().split("\n");
  expect(lines, finished.stderr).toHaveLength(1);
  return lines[0]!;
}

describe("an unreachable --store leaves the project empty", () => {
  it.each([
    ["a workflow run", ["--store", STORE, "task"]],
    ["a --direct run", ["--direct", "--store", STORE, "task"]],
    ["flower continue", ["continue", "--store", STORE]],
    ["flower continue <step>", ["continue", "some-step", "--store", STORE]],
    ["flower worker", ["worker", "--store", STORE]],
    ["flower diff", ["diff", "some-run", "--store", STORE]],
  ])("%s: one line naming the store, exit 1, nothing written", async (_, args) => {
    const root = temp.make("flower-unreachable-");
    const finished = await runFlower(args, { env, cwd: root, timeoutMs: 30_000 });
    expect(oneLine(finished)).toMatch(
      /^flower: Cannot use the store postgres:\/\/nobody@127\.0\.0\.1:1\/x \(schema public\): .*ECONNREFUSED/,
    );
    expect(finished.code).toBe(1);
    expect(finished.stdout).toBe("");
    expect(readdirSync(root)).toEqual([]);
    model.assertNoErrors();
    expect(model.requests).toHaveLength(0);
  });
});

describe("a --run-dir under a file is a usage error", () => {
  it.each([
    ["a workflow run", ["task"]],
    ["a --direct run", ["--direct", "task"]],
    ["flower continue", ["continue"]],
    ["flower worker", ["worker", "--store", STORE]],
    ["flower submit", ["submit", "task", "--store", STORE]],
  ])("%s: one line naming --run-dir and the path, exit 2, nothing written", async (_, args) => {
    const root = temp.make("flower-rundir-file-");
    writeFileSync(join(root, "somefile"), "mine\n");
    const finished = await runFlower([...args, "--run-dir", "somefile/runs"], {
      env,
      cwd: root,
      timeoutMs: 30_000,
    });
    expect(oneLine(finished)).toBe(
      `flower: --run-dir must be a directory, got somefile/runs (${join(root, "somefile")} is not a directory)`,
    );
    expect(finished.code).toBe(2);
    expect(finished.stdout).toBe("");
    expect(readdirSync(root)).toEqual(["somefile"]);
  });

  it("says it in Chinese with --lang zh", async () => {
    const root = temp.make("flower-rundir-file-");
    writeFileSync(join(root, "somefile"), "mine\n");
    const finished = await runFlower(["--lang", "zh", "--run-dir", "somefile/runs", "task"], {
      env,
      cwd: root,
      timeoutMs: 30_000,
    });
    expect(oneLine(finished)).toBe(
      `flower: --run-dir 必须是目录,收到 somefile/runs(${join(root, "somefile")} 不是目录)`,
    );
    expect(finished.code).toBe(2);
    expect(readdirSync(root)).toEqual(["somefile"]);
  });
});
