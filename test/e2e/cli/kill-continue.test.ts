/**
 * SIGKILL of `flower` at three points the ownership crash test does not reach: in the middle of a spill
 * write, of a workbench index refresh, and of `flower forget`. Each time `flower continue` completes,
 * the record parses, the files being written are the old or the new version (never a partial one),
 * and every transcript entry the `claude` binary wrote locally is in the session store.
 *
 * How the kill lands exactly there: `FLOWER_TEST_PAUSE_AT=<point>[:<n>]` (src/fs/checkpoint.ts) makes
 * the process stop its thread at the n-th time it reaches that named point and write a marker file;
 * the test waits for the marker and kills the process with SIGKILL. Nothing runs between the pause
 * and the kill, so what is on disk is what a crash at that instruction leaves.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ManifestFile, StepRecord } from "../../../src/public/stores.js";
import { Workbench } from "../../../src/workbench/workbench.js";
import { text, toolUse, type FakeModel, type ModelRequest } from "../../../src/testing/index.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { localTranscripts, missingFromStore, storedTranscripts } from "../../support/transcripts.js";
import { cleanEnv, runFlower, spawnFlower, type Finished, useCliTest } from "./helpers.js";
import { delegateOnce } from "../../support/delegate.js";

const { temp, startModel } = useCliTest();
let model: FakeModel | undefined;

const CONTINUED = "Finished after the kill.";

/** `flower --direct --step <step> <task>` in the test's workspace and run directory. */
function directArgs(paths: { root: string; runDir: string }, step: string, task: string): string[] {
  return ["--workspace", paths.root, "--run-dir", paths.runDir, "--direct", "--step", step, task];
}

function setUp() {
  const root = temp.make("flower-kill-");
  return { root, runDir: join(root, "runs"), marker: join(root, "paused") };
}

/** Runs `flower args` until it pauses at `point`, then SIGKILLs it (the process only, as a crash would). */
async function killAt(
  args: string[],
  point: string,
  paths: { root: string; marker: string },
): Promise<Finished> {
  const spawned = spawnFlower(args, {
    env: cleanEnv({ ...model!.env(), FLOWER_TEST_PAUSE_AT: point, FLOWER_TEST_PAUSE_FILE: paths.marker }),
    cwd: paths.root,
    timeoutMs: 45_000,
  });
  const deadline = Date.now() + 40_000;
  while (!existsSync(paths.marker) && Date.now() < deadline && spawned.child.exitCode === null)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(existsSync(paths.marker), `flower never reached ${point}`).toBe(true);
  process.kill(spawned.child.pid!, "SIGKILL");
  const finished = await spawned.done;
  expect(finished.signal).toBe("SIGKILL");
  return finished;
}

function record(runDir: string, step: string): StepRecord {
  const manifest = JSON.parse(readFileSync(join(runDir, "manifest.json"), "utf8")) as ManifestFile;
  return manifest.steps[step]!;
}

async function continueStep(step: string, paths: { root: string; runDir: string }): Promise<Finished> {
  const resumed = await runFlower(["continue", step, "--workspace", paths.root, "--run-dir", paths.runDir], {
    env: cleanEnv(model!.env()),
    cwd: paths.root,
    timeoutMs: 45_000,
  });
  expect(resumed.timedOut).toBe(false);
  expect(resumed.stderr).toBe("");
  expect(resumed.code, resumed.stdout).toBe(0);
  return resumed;
}

/** Every entry of every transcript the CLI wrote locally is in sessions.db (except the ones named). */
function expectNothingLost(runDir: string, forgotten: readonly string[] = []): void {
  const local = localTranscripts(model!.configDir);
  const stored = storedTranscripts(join(runDir, "sessions.db"));
  expect(local.uuids.size).toBeGreaterThan(0);
  const { missing, counts } = missingFromStore(local.uuids, stored, (name) =>
    forgotten.some((session) => name === session || name.startsWith(`${session}/`)),
  );
  expect(missing, JSON.stringify(counts)).toEqual({});
  // The store may hold more: the mirror also carries entries the binary keeps out of its JSONL.
  for (const [name, [inLocal, inStore]] of Object.entries(counts))
    expect(inStore, `${name}: local ${inLocal}, store ${inStore}`).toBeGreaterThanOrEqual(inLocal);
}

describe("flower killed with SIGKILL, then flower continue", () => {
  it("during a spill write: no partial spill file, continue completes, nothing lost", async () => {
    const paths = setUp();
    const big = Array.from({ length: 300 }, (_, n) => `BIG-LINE-${n} ${"lorem ipsum ".repeat(5)}`).join("\n");
    writeFileSync(join(paths.root, "big.txt"), big);
    model = await startModel({
      policy: (request: ModelRequest) => {
        if (request.lastUserText().includes("Continue the task.")) return text(CONTINUED);
        if (request.countToolResults("Read") === 0) return toolUse("Read", { file_path: "big.txt" });
        return text("Read it.");
      },
    });
    const args = directArgs(paths, "spill", "Read big.txt");
    await killAt(args, "spill-write", paths);

    // The spill's bytes are in a hidden temporary; no visible spill file is partial.
    const spill = join(paths.root, ".flower", "spill");
    const visible = readdirSync(spill).filter((name) => !name.startsWith("."));
    for (const name of visible) expect(big).toContain(readFileSync(join(spill, name), "utf8"));
    expect(readdirSync(spill).some((name) => name.startsWith(".") && name.endsWith(".tmp"))).toBe(true);
    expect(record(paths.runDir, "spill").status).toBe("running");

    const resumed = await continueStep("spill", paths);
    expect(resumed.stdout).toContain(CONTINUED);
    expect(record(paths.runDir, "spill").status).toBe("done");
    expectNothingLost(paths.runDir);
    model.assertNoErrors();
  });

  it("during a workbench index refresh: INDEX.md is the old one, then the new one; nothing lost", async () => {
    const paths = setUp();
    const script = join(paths.root, ".flower", "scripts", "count.sh");
    model = await startModel({
      policy: (request: ModelRequest) => {
        if (request.isSubagent) {
          return request.countToolResults("Write") === 0
            ? toolUse("Write", { file_path: script, content: "# Counts the lines of every file\nwc -l *\n" })
            : text("Wrote .flower/scripts/count.sh.");
        }
        if (request.lastUserText().includes("Continue the task.")) return text(CONTINUED);
        return delegateOnce(
          request,
          {
            subagent_type: "engineer",
            description: "Write the script",
            prompt: "Write .flower/scripts/count.sh.",
          },
          "The engineer wrote the script.",
        );
      },
    });
    const args = directArgs(paths, "index", "Write a script");
    // The first index write is the refresh before the session; the second follows the engineer's Write.
    await killAt(args, "index-write:2", paths);

    const bench = new Workbench({ workspace: paths.root, locale: "en" });
    const index = () => readFileSync(bench.indexPath, "utf8");
    expect(existsSync(script)).toBe(true);
    expect(index()).toBe(bench.renderIndex([], 0));

    const resumed = await continueStep("index", paths);
    expect(resumed.stdout).toContain(CONTINUED);
    // The refresh before the resumed session wrote the new index: the script is listed, and the
    // temporary the killed writer left behind is not.
    expect(index()).toContain("- scripts/count.sh — Counts the lines of every file");
    expect(index()).not.toContain(".tmp");
    expect(
      index()
        .split("\n")
        .filter((line) => line.startsWith("- ")),
    ).toHaveLength(1);
    expect(record(paths.runDir, "index").status).toBe("done");
    expectNothingLost(paths.runDir);
    model.assertNoErrors();
  });

  it("during flower forget: each session is gone whole or kept whole; continue completes", async () => {
    const paths = setUp();
    writeFileSync(join(paths.root, "small.txt"), "small\n");
    const handoff = handoffMarkdown({ doing: "GEN-1: reading.", next: ["Say it is finished."] });
    model = await startModel({
      policy: (request: ModelRequest) => {
        if (request.isHandoffTurn) return text(handoff);
        if (request.lastUserText().includes("Continue the task.")) return text(CONTINUED);
        if (request.firstUserText().includes("GEN-1")) return text("Finished in generation 2.");
        // A response this large crosses the handoff line (window 100K, handoff at 50K).
        return { ...toolUse("Read", { file_path: "small.txt" }), outputTokens: 70_000 };
      },
    });
    const run = await runFlower(
      [
        "--window",
        "100000",
        "--workspace",
        paths.root,
        "--run-dir",
        paths.runDir,
        "--direct",
        "--step",
        "fg",
        "Read",
      ],
      { env: cleanEnv(model.env()), cwd: paths.root, timeoutMs: 45_000 },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const before = record(paths.runDir, "fg");
    expect(before.retired).toHaveLength(1);
    const [burned] = before.retired;
    const current = before.sessionId!;
    expectNothingLost(paths.runDir);

    await killAt(["forget", "fg", "--run-dir", paths.runDir], "forget", paths);
    const stored = storedTranscripts(join(paths.runDir, "sessions.db"));
    const local = localTranscripts(model.configDir);
    const sessionsOf = (map: Map<string, string[]>, id: string) =>
      [...map.keys()].filter((name) => name === id || name.startsWith(`${id}/`));
    // The first session was deleted whole (no subagent transcript left behind), the second not touched.
    expect(sessionsOf(stored, burned!)).toEqual([]);
    expect(sessionsOf(stored, current).length).toBe(sessionsOf(local.uuids, current).length);
    expect(record(paths.runDir, "fg").status).toBe("done");

    const resumed = await continueStep("fg", paths);
    expect(resumed.stdout).toContain(CONTINUED);
    const after = record(paths.runDir, "fg");
    expect(after.status).toBe("done");
    expect(after.sessionId).toBe(current);
    expectNothingLost(paths.runDir, [burned!]);
    model.assertNoErrors();
  });
});
