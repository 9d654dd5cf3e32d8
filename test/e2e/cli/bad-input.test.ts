/**
 * Bad input to the `flower` command: a corrupt or foreign manifest.json, a corrupt or locked SQLite
 * file, a read-only run directory, and a full disk under the run directory and the workbench. Each gives
 * one clear line (never a stack trace) or a degraded-but-working run, and whatever record exists parses.
 *
 * The read-only and full disks are real: small tmpfs mounts (CI runs as root, as these tests need).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { text, toolUse, type FakeModel, type ModelRequest } from "../../../src/testing/index.js";
import { cleanEnv, runFlower, type Finished, useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();
let model: FakeModel | undefined;
const mounts: string[] = [];
// Registered after useCliTest(), so it runs before the temp dirs are removed (after hooks run last-first).
afterEach(() => {
  for (const dir of mounts.splice(0).reverse()) execFileSync("umount", ["-l", dir]);
});

function mountTmpfs(dir: string, options: string): void {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir], { stdio: "pipe" });
  } catch (error) {
    throw new Error(`these tests mount a small tmpfs and need root (CAP_SYS_ADMIN): ${String(error)}`, {
      cause: error,
    });
  }
  mounts.push(dir);
}

/** Fills the file system under `dir` until it reports ENOSPC. */
function fill(dir: string): void {
  const chunk = Buffer.alloc(16 * 1024, 1);
  for (let n = 0; ; n++) {
    try {
      writeFileSync(join(dir, `.filler-${n}`), chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOSPC") return;
      throw error;
    }
  }
}

function expectOneClearLine(finished: Finished, mentions: RegExp): void {
  expect(finished.timedOut).toBe(false);
  expect(finished.code).not.toBe(0);
  expect(finished.stderr).toMatch(/^flower: /);
  expect(finished.stderr).toMatch(mentions);
  expect(finished.stderr).not.toMatch(/\n\s+at /);
  expect(finished.stderr.trimEnd().split("\n")).toHaveLength(1);
}

function setUp() {
  const root = temp.make("flower-bad-");
  const workspace = join(root, "ws");
  const runDir = join(root, "runs");
  mkdirSync(workspace);
  return { root, workspace, runDir };
}

const answering = (request: ModelRequest) =>
  request.countToolResults("Read") === 0 ? toolUse("Read", { file_path: "big.txt" }) : text("finished");

async function flower(args: string[], paths: { root: string; workspace: string; runDir: string }) {
  return runFlower([...args, "--workspace", paths.workspace, "--run-dir", paths.runDir], {
    env: cleanEnv(model ? model.env() : {}),
    cwd: paths.root,
    timeoutMs: 45_000,
  });
}

describe("flower with broken files around it", () => {
  it.each([
    ["corrupt", "{ not json", /manifest\.json/],
    ["foreign", '{ "name": "my-app", "version": "1.0.0", "steps": [1, 2] }', /manifest\.json/],
  ])("a %s manifest.json: one clear line for runs, continue and a new task", async (_, content, mentions) => {
    const paths = setUp();
    mkdirSync(paths.runDir);
    writeFileSync(join(paths.runDir, "manifest.json"), content);
    model = await startModel({ policy: () => text("never") });
    for (const args of [["runs"], ["continue"], ["do it"]]) {
      const where = args[0] === "runs" ? ["--run-dir", paths.runDir] : null;
      const finished = where
        ? await runFlower([...args, ...where], { env: cleanEnv(), cwd: paths.root })
        : await flower(args, paths);
      expectOneClearLine(finished, mentions);
    }
    // Never overwritten: it may be somebody else's file.
    expect(readFileSync(join(paths.runDir, "manifest.json"), "utf8")).toBe(content);
    expect(model.requests).toHaveLength(0);
  });

  it.each(["records.db", "sessions.db"])("a corrupt %s: one clear line naming it", async (name) => {
    const paths = setUp();
    mkdirSync(paths.runDir);
    writeFileSync(join(paths.runDir, name), Buffer.alloc(8192, 0x5a));
    model = await startModel({ policy: answering });
    writeFileSync(join(paths.workspace, "big.txt"), "x\n");
    const finished = await flower(["do it"], paths);
    expectOneClearLine(finished, new RegExp(name.replace(".", "\\.")));
    expect(finished.stderr).toMatch(/not a database/);
  });

  it("a locked records.db: waits for the lock, then one clear line", async () => {
    const paths = setUp();
    model = await startModel({ policy: answering });
    writeFileSync(join(paths.workspace, "big.txt"), "x\n");
    expect((await flower(["--step", "first", "do it"], paths)).code).toBe(0);
    const holder = new Database(join(paths.runDir, "records.db"));
    holder.exec("BEGIN EXCLUSIVE");
    try {
      // It gives up on the lock with one clear line (waiting for ever would never return).
      const finished = await flower(["--step", "second", "do it again"], paths);
      expectOneClearLine(finished, /locked/);
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    expect(
      () => JSON.parse(readFileSync(join(paths.runDir, "manifest.json"), "utf8")) as unknown,
    ).not.toThrow();
  }, 60_000);

  it("a read-only run directory: one clear line naming it, nothing sent to the model", async () => {
    const paths = setUp();
    mountTmpfs(paths.runDir, "size=1m,ro");
    model = await startModel({ policy: answering });
    const finished = await flower(["do it"], paths);
    expectOneClearLine(finished, /read-only|EROFS/);
    expect(finished.stderr).toContain(paths.runDir);
    expect(model.requests).toHaveLength(0);
  });

  it("a full disk under the workbench: the spill and the frozen handoff degrade, the step still finishes", async () => {
    const paths = setUp();
    const bench = join(paths.workspace, ".flower");
    mountTmpfs(bench, "size=256k");
    for (const folder of ["scripts", "artifacts", "notes", "spill"]) mkdirSync(join(bench, folder));
    writeFileSync(join(bench, "INDEX.md"), "# Workbench index\n\n(empty)\n");
    fill(bench);
    writeFileSync(join(paths.workspace, "big.txt"), "a long line of text\n".repeat(600));
    model = await startModel({
      policy: (request) => {
        if (request.isHandoffTurn) return text("## Doing\nGEN-1: reading.\n## Next\n- Say it is finished.\n");
        if (request.firstUserText().includes("GEN-1")) return text("finished");
        if (request.countToolResults("Read") === 0) return toolUse("Read", { file_path: "big.txt" });
        // Crosses the handoff line (window 100K, handoff at 50K): the handoff is frozen on the full disk.
        return { ...toolUse("Read", { file_path: "big.txt" }), outputTokens: 70_000 };
      },
    });
    const finished = await flower(
      ["--direct", "--window", "100000", "--step", "full", "Read big.txt"],
      paths,
    );
    expect(finished.stderr).not.toMatch(/\n\s+at /);
    expect(finished.code, finished.stdout + finished.stderr).toBe(0);
    expect(finished.stdout).toContain("finished");
    // The spill could not be written: the model got the whole output instead of a pointer to nothing.
    const second = model.requests.find((request) => request.countToolResults("Read") === 1)!;
    expect(second.lastToolResult()!.text.length).toBeGreaterThan(10_000);
    expect(existsSync(join(paths.runDir, "manifest.json"))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(paths.runDir, "manifest.json"), "utf8"));
    expect(manifest.steps.full.status).toBe("done");
    expect(manifest.steps.full.generations).toBe(2);
    expect(manifest.steps.full.errors.join("\n")).toMatch(/handoff not frozen to a file \(ENOSPC/);
    // The successor got the handoff anyway.
    expect(model.requests.some((request) => request.firstUserText().includes("GEN-1: reading."))).toBe(true);
  });

  it("a full disk under the run directory: one clear line, and the record that exists parses", async () => {
    const paths = setUp();
    mountTmpfs(paths.runDir, "size=512k");
    model = await startModel({ policy: answering });
    writeFileSync(join(paths.workspace, "big.txt"), "a long line of text\n".repeat(600));
    // Room for the databases to be created, not for a session's transcript.
    const filler = join(paths.runDir, "filler");
    mkdirSync(filler);
    fill(filler);
    const finished = await flower(["--direct", "--step", "full", "Read big.txt"], paths);
    expect(finished.stderr).not.toMatch(/\n\s+at /);
    expectOneClearLine(finished, /run records at .*records\.db.*database or disk is full/);
    if (existsSync(join(paths.runDir, "manifest.json")))
      expect(
        () => JSON.parse(readFileSync(join(paths.runDir, "manifest.json"), "utf8")) as unknown,
      ).not.toThrow();
  });
});
