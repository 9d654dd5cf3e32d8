/**
 * Nothing a step started outlives its driver (issue 40, SPEC K6). An engineer runs
 * `for i in $(seq 1 30); do echo $i >> slow.txt; sleep 1; done`; at line 3 `flower` is SIGKILLed: the
 * process alone, or its whole process group (`docker stop`'s final kill, an OOM kill of a container).
 * The binary runs each Bash command in a session of its own, so neither the death of the `claude` child
 * nor the group kill reaches the loop: before the fix it went on appending, `flower continue` named
 * slow.txt to the model as it was while it still grew, the model wrote it anew, and the orphan's lines
 * landed after that (the run ended done with slow.txt = 1..30,20,21,22).
 *
 * What a person checks: within a few seconds of the kill no process is at work in the checkout, and
 * none carries the killed driver's tag; `flower continue`, the line as a bare `flower` prints it, ends
 * done with slow.txt exactly 1..30; the terminal and the model are told about slow.txt, and it does not
 * change between the note that names it and the model's next call. The same when the reaper was killed
 * with the driver (the successor's sweep before its takeover), and in a fleet: a worker SIGKILLed
 * mid-loop, the run continued by another worker on another checkout.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ManifestFile } from "../../../src/public/stores.js";
import { text, toolUse, type ModelRequest, type Reply } from "../../../src/testing/index.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import {
  carrying,
  processesIn,
  tagOfDriver,
  untilNone,
  type RunProcess,
} from "../../support/run-processes.js";
import { fleetRows, startWorker, submitRun, until, workerOf } from "./fleet-helpers.js";
import { cleanEnv, runFlower, spawnFlower, useCliTest, type Spawned } from "./helpers.js";
import { git } from "../../support/git.js";

const { temp, startModel } = useCliTest();
const server = usePostgresServer();

/** Folders whose processes are killed after each test: a test that failed may have left its loop running. */
const watched: string[] = [];
afterEach(() => {
  for (const dir of watched.splice(0))
    for (const { pid } of processesIn(dir))
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone meanwhile.
      }
});

const LOOP = "for i in $(seq 1 30); do echo $i >> slow.txt; sleep 1; done";
const REDO = "seq 1 30 > slow.txt";
const ONE_TO_THIRTY = Array.from({ length: 30 }, (_, i) => `${i + 1}\n`).join("");
const REWROTE = "Rewrote slow.txt with 1 to 30.";
/** How long the processes of a killed run may take to be gone: a liveness bound, not a speed. */
const GONE_WITHIN_MS = 10_000;

function commit(dir: string): void {
  git(dir, "config", "user.email", "t@example.com");
  git(dir, "config", "user.name", "Team");
  writeFileSync(join(dir, "README.md"), "# Counting\n");
  writeFileSync(join(dir, ".gitignore"), "runs/\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "start");
}

function slowLines(dir: string): number {
  const file = join(dir, "slow.txt");
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0;
}

/** What the model saw when it went on, and what was running then. */
interface Seen {
  /** The text of the first request after the kill (the continue prompt and the note on the files). */
  note: string | null;
  /** The loop's processes (and anything else of the killed driver) alive at that request. */
  aliveAtNote: RunProcess[];
  /** slow.txt at that request, and at the first request of the engineer sent to write it anew. */
  atNote: string | null;
  atRedo: string | null;
}

/**
 * The model: the coordinator sends an engineer to run the loop; after the kill (`killed()`), it sends
 * one to write slow.txt anew, then says it is done. `dirOf` names the folder the run's files are in,
 * `alive` what of the killed driver still runs (both read at the moment the model is asked).
 */
function slowScript(
  killed: () => boolean,
  dirOf: (request: ModelRequest) => string,
  alive: () => RunProcess[],
  seen: Seen,
): (request: ModelRequest) => Reply | undefined {
  const read = (dir: string) =>
    existsSync(join(dir, "slow.txt")) ? readFileSync(join(dir, "slow.txt"), "utf8") : "";
  return (request) => {
    if (request.kind === "title" || request.kind === "compact") return undefined;
    if (request.isSubagent) {
      if (request.firstUserText().includes("REDO-SLOW")) {
        if (request.countToolResults("Bash") > 0) return text(REWROTE);
        seen.atRedo ??= read(dirOf(request));
        return toolUse("Bash", { command: REDO, description: "write slow.txt anew" });
      }
      if (request.countToolResults("Bash") > 0) return text("The loop ended.");
      return toolUse("Bash", { command: LOOP, description: "count slowly into slow.txt" });
    }
    if (!killed())
      return toolUse("Agent", {
        subagent_type: "engineer",
        description: "count slowly",
        prompt: "LOOP-SLOW: append 1 to 30 to slow.txt, one a second.",
      });
    const rewritten = request
      .toolResults()
      .some((result) => result.name === "Agent" && result.text.includes(REWROTE));
    if (rewritten) return text("slow.txt holds 1 to 30.");
    if (seen.note === null) {
      seen.note = request.lastUserText();
      seen.aliveAtNote = alive();
      seen.atNote = read(dirOf(request));
    }
    return toolUse("Agent", {
      subagent_type: "engineer",
      description: "write slow.txt anew",
      prompt: "REDO-SLOW: write 1 to 30 into slow.txt, one number a line, replacing what is there.",
    });
  };
}

function freshSeen(): Seen {
  return { note: null, aliveAtNote: [], atNote: null, atRedo: null };
}

/** The reaper flower started (a child in a session of its own, waiting on its pipe), or undefined. */
function reaperOf(driver: number): number | undefined {
  for (const name of execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" }).split("\n")) {
    const [pid, ppid, ...args] = name.trim().split(/\s+/);
    if (Number(ppid) === driver && args.join(" ").includes("while read")) return Number(pid);
  }
  return undefined;
}

type Kill = "the flower process" | "its process group" | "flower and its reaper";

/**
 * The checkout's own hook (.claude/settings.json, which the binary loads): before each Bash call it
 * leaves a loop running in the background, stamping `stamps` once a second, as a watcher would.
 */
function withHook(root: string, stamps: string): void {
  mkdirSync(join(root, ".claude"));
  const loop = `(for i in $(seq 1 60); do echo $i >> ${stamps}; sleep 1; done) >/dev/null 2>&1 &`;
  const hooks = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: loop }] }] };
  writeFileSync(join(root, ".claude", "settings.json"), JSON.stringify({ hooks }));
}

async function killMidLoop(kill: Kill): Promise<void> {
  const root = temp.make("flower-orphans-");
  watched.push(root);
  const stamps = join(temp.make("flower-orphans-hook-"), "stamps.txt");
  git(root, "init", "-q", "-b", "main");
  withHook(root, stamps);
  commit(root);
  let killed = false;
  let driverTagValue = "";
  const seen = freshSeen();
  // Of the killed driver: anything carrying its tag, and the loop (a `sleep` or the shell running it).
  const alive = () => [
    ...carrying(driverTagValue),
    ...processesIn(root).filter((row) => /seq 1 30|^sleep /.test(row.command)),
  ];
  const model = await startModel({
    policy: slowScript(
      () => killed,
      () => root,
      alive,
      seen,
    ),
  });
  const env = cleanEnv(model.env());
  const first: Spawned = spawnFlower(["--direct", "Count slowly into slow.txt"], {
    env,
    cwd: root,
    timeoutMs: 60_000,
  });
  const driver = first.child.pid!;
  await until(() => slowLines(root) >= 3 || first.child.exitCode !== null, "line 3 of slow.txt", 40_000);
  expect(slowLines(root), "the loop never reached line 3").toBeGreaterThanOrEqual(3);
  driverTagValue = tagOfDriver(driver);
  if (kill === "flower and its reaper") {
    const reaper = reaperOf(driver);
    expect(reaper, "flower started no reaper").toBeDefined();
    process.kill(reaper!, "SIGKILL");
  }
  killed = true;
  process.kill(kill === "its process group" ? -driver : driver, "SIGKILL");
  expect((await first.done).signal).toBe("SIGKILL");

  if (kill !== "flower and its reaper") {
    // Nothing of the run is at work in the checkout any more: not flower, not claude, not the loop.
    expect(await untilNone(() => processesIn(root), GONE_WITHIN_MS)).toEqual([]);
    expect(carrying(driverTagValue)).toEqual([]);
  }
  const stopped = slowLines(root);

  // Go on as a person would: the line a bare `flower` prints, as it prints it.
  const bare = await runFlower([], { env, cwd: root });
  const line = /flower continue \S+/.exec(bare.stdout)?.[0];
  expect(line, bare.stdout + bare.stderr).toBeDefined();
  const resumed = await runFlower(line!.split(" ").slice(1), { env, cwd: root, timeoutMs: 60_000 });
  expect(resumed.stderr).toBe("");
  expect(resumed.code, resumed.stdout).toBe(0);

  // No model request while anything of the killed driver could still write in the checkout.
  expect(seen.aliveAtNote).toEqual([]);
  // The model and the terminal were told about slow.txt as it finally was: the note names it, and it
  // did not change between the note and the engineer's first look at it.
  expect(seen.note).toContain("slow.txt");
  expect(resumed.stdout).toMatch(/kept as they were \(slow\.txt\)/);
  expect(seen.atNote).not.toBeNull();
  expect(seen.atRedo).toBe(seen.atNote);
  if (kill !== "flower and its reaper")
    expect(seen.atNote!.split("\n").filter(Boolean)).toHaveLength(stopped);

  expect(readFileSync(join(root, "slow.txt"), "utf8")).toBe(ONE_TO_THIRTY);
  // The hook ran (for the loop, and again for the rewrite); what it left running ended with the
  // continued driver's normal end, as everything the killed one left ended with the kill.
  expect(existsSync(stamps)).toBe(true);
  expect(await untilNone(() => processesIn(root), GONE_WITHIN_MS)).toEqual([]);
  const manifest = JSON.parse(readFileSync(join(root, "runs", "manifest.json"), "utf8")) as ManifestFile;
  expect(Object.values(manifest.steps).map((step) => step.status)).toEqual(["done"]);
  model.assertNoErrors();
}

describe("a SIGKILLed flower leaves nothing running, and continue ends with the file as the model left it", () => {
  const rounds = [1, 2, 3, 4, 5];
  it.each(rounds)("the flower process alone (round %i)", () => killMidLoop("the flower process"), 120_000);
  it.each(rounds)("its whole process group (round %i)", () => killMidLoop("its process group"), 120_000);
  it(
    "flower and its reaper: continue's takeover ends the loop before the model is asked",
    () => killMidLoop("flower and its reaper"),
    120_000,
  );
});

describe("a fleet worker SIGKILLed mid-loop", () => {
  it.each(["the worker process", "its process group"])(
    "%s: nothing left running; another worker goes on and the run's branch has slow.txt 1..30",
    async (kill) => {
      const root = temp.make("flower-orphans-fleet-");
      watched.push(root);
      const origin = join(root, "origin.git");
      git(root, "init", "-q", "--bare", "-b", "main", origin);
      const clone = (name: string) => {
        const dir = join(root, name);
        git(root, "clone", "-q", origin, dir);
        return dir;
      };
      const seed = join(root, "seed");
      git(root, "init", "-q", "-b", "main", seed);
      commit(seed);
      git(seed, "push", "-q", origin, "main");
      const [person, a, b] = [clone("person"), clone("worker-a"), clone("worker-b")];
      const schema = freshSchema("orphans");
      const url = `${server().url}?schema=${schema}`;

      let killed = false;
      let victim: { dir: string; tag: string } | undefined = undefined;
      const workers: Record<string, Spawned> = {};
      const dirs: Record<string, string> = { a, b };
      const seen = freshSeen();
      const alive = () => (victim ? [...carrying(victim.tag), ...processesIn(victim.dir)] : []);
      // The run's files are in the worker's worktree of it (runs/worktrees/<run>) in its checkout.
      const worktreeOf = (worker: string): string => {
        const worktrees = join(dirs[worker]!, "runs", "worktrees");
        const runs = existsSync(worktrees) ? readdirSync(worktrees) : [];
        return join(worktrees, runs.find((name) => !name.includes(".")) ?? "none");
      };
      const script = slowScript(
        () => killed,
        (request) => worktreeOf(workerOf(request)),
        alive,
        seen,
      );
      const model = await startModel({ policy: script });

      const run = await submitRun(url, "Count slowly into slow.txt", ["--direct"], person);
      workers.a = startWorker(model, temp, { name: "a", url, workspace: a });
      await until(() => slowLines(worktreeOf("a")) >= 3, "line 3 of slow.txt on worker a", 60_000);
      victim = { dir: a, tag: tagOfDriver(workers.a.child.pid!) };
      killed = true;
      process.kill(kill === "its process group" ? -workers.a.child.pid! : workers.a.child.pid!, "SIGKILL");
      // Another worker, started at once: it takes the run over while the reaper may still be at work.
      workers.b = startWorker(model, temp, { name: "b", url, workspace: b });
      await workers.a.done;
      expect(await untilNone(alive, GONE_WITHIN_MS)).toEqual([]);

      await until(
        async () => (await fleetRows(server().url, schema)).every((row) => row.status === "done"),
        "the run to end done",
        120_000,
      );
      expect(seen.aliveAtNote).toEqual([]);
      expect(seen.note).not.toBeNull();

      const fetched = await runFlower(["fetch", run, "--store", url], { env: cleanEnv(), cwd: person });
      expect(fetched.code, fetched.stdout + fetched.stderr).toBe(0);
      expect(git(person, "show", `flower/${run}:slow.txt`) + "\n").toBe(ONE_TO_THIRTY);
      workers.b.child.kill("SIGTERM");
      await workers.b.done;
      model.assertNoErrors();
    },
    240_000,
  );
});
