/**
 * The work belongs to the run, in a fleet: two `flower worker`s on two checkouts of one repository
 * (clones of a bare origin), concurrency 2 each, one PostgreSQL store, the real binary, the kit. The
 * person submits eight runs from a third checkout that has an unpushed commit and uncommitted changes;
 * every run writes files of the same names (result-1.txt, result-2.txt, out.txt) with its own content.
 * Worker A is SIGKILLed at the worst moments: just after an engineer's write reached the main thread
 * (the Agent call's result is in the transcript, the coordinator's next request is at the model), and
 * again (restarted) inside a handoff-writing turn.
 *
 * What must hold: every run ends done; every run saw the person's uncommitted change and unpushed
 * commit; a continuation reads the files written before the kill (whichever checkout it lands in);
 * `flower fetch <run>` in the person's checkout brings a branch with exactly that run's files and
 * content; nothing of one run is in another's; and neither worker's checkout keeps anything of any run
 * (no ref, no reflog entry, no worktree, no shadow repository): the work is in the store.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse, toolUses, type ModelRequest, type Reply } from "../../../src/testing/index.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import { fleetRows, query, startWorker, submitRun, until, workerOf } from "./fleet-helpers.js";
import { cleanEnv, runFlowerOk, useCliTest, writeNotes, type Spawned } from "./helpers.js";
import { git } from "../../support/git.js";

const { temp, startModel } = useCliTest();
const server = usePostgresServer();

const RUNS = 8;

/** origin (bare) with one pushed commit; the person's clone with an unpushed commit and an uncommitted file; two worker clones. */
function repositories(): { person: string; a: string; b: string } {
  const root = temp.make("flower-fleet-work-");
  const origin = join(root, "origin.git");
  git(root, "init", "-q", "--bare", "-b", "main", origin);
  const seed = join(root, "seed");
  git(root, "clone", "-q", origin, seed);
  git(seed, "config", "user.email", "t@example.com");
  git(seed, "config", "user.name", "Team");
  writeNotes(seed);
  writeFileSync(join(seed, ".gitignore"), "runs/\n");
  git(seed, "add", "-A");
  git(seed, "commit", "-q", "-m", "the notes");
  git(seed, "push", "-q", "origin", "main");
  const clone = (name: string) => {
    const dir = join(root, name);
    git(root, "clone", "-q", origin, dir);
    git(dir, "config", "user.email", `${name}@example.com`);
    git(dir, "config", "user.name", name);
    return dir;
  };
  const person = clone("person");
  writeFileSync(join(person, "local.txt"), "LOCAL-COMMIT not pushed\n");
  git(person, "add", "local.txt");
  git(person, "commit", "-q", "-m", "the person's local commit");
  writeFileSync(join(person, "context.txt"), "UNCOMMITTED-CONTEXT for every run\n");
  mkdirSync(join(person, "runs"));
  return { person, a: clone("worker-a"), b: clone("worker-b") };
}

const tagOf = (request: ModelRequest) => Number(/Work task (\d+)\b/.exec(request.allText())?.[1] ?? 0);
const gen2 = (request: ModelRequest) => request.firstUserText().includes("GEN-1 of Work task");

/** The script of every run: write result-1.txt, read notes up to the handoff line, hand off, read it back, write the rest. */
function reply(request: ModelRequest): Reply | undefined {
  if (request.kind === "title" || request.kind === "compact") return undefined;
  const tag = tagOf(request);
  if (request.isSubagent) {
    if (request.countToolResults("Bash") > 0) return text(`Done for Work task ${tag}.`);
    return request.allText().includes("result-2.txt")
      ? toolUse("Bash", {
          command: `printf 'run ${tag} part 2\\n' > result-2.txt && printf 'out of run ${tag}\\n' > out.txt`,
        })
      : toolUse("Bash", {
          command: `printf 'run ${tag} part 1\\n' > result-1.txt && cat context.txt local.txt`,
        });
  }
  if (request.isHandoffTurn)
    return text(
      handoffMarkdown({
        doing: `GEN-1 of Work task ${tag}: wrote result-1.txt, read the notes`,
        next: ["Read result-1.txt back, then have result-2.txt and out.txt written."],
      }),
    );
  const agents = request.countToolResults("Agent");
  if (gen2(request)) {
    if (request.countToolResults("Read") === 0) return toolUse("Read", { file_path: "result-1.txt" });
    if (agents === 0)
      return toolUse("Agent", {
        subagent_type: "engineer",
        description: "write the rest",
        prompt: `Work task ${tag}: write result-2.txt and out.txt`,
      });
    return text(`Work task ${tag} finished.`);
  }
  // A call cut by a kill comes back as an interruption: a real model sends the worker again.
  const delivered = request
    .toolResults()
    .filter((result) => result.name === "Agent" && result.text.includes(`Done for Work task ${tag}`)).length;
  if (delivered === 0)
    return toolUse("Agent", {
      subagent_type: "engineer",
      description: "write result-1",
      prompt: `Work task ${tag}: write result-1.txt`,
    });
  const read = request.countToolResults("Read");
  return toolUses(
    Array.from({ length: 6 }, (_, i) => ({
      name: "Read",
      input: { file_path: `note-${((read + i) % 60) + 1}.md` },
    })),
  );
}

describe("the work of fleet runs", () => {
  it("eight runs on two workers, one killed after a write reached the main thread and inside a handoff: every run done, each branch holds exactly its own files", async () => {
    const { person, a, b } = repositories();
    // What each worker's checkout holds before it drives anything: after eight runs it holds the same.
    const refsOf = (checkout: string) => ({
      refs: git(checkout, "for-each-ref", "--format=%(refname) %(objectname)"),
      reflog: git(checkout, "reflog", "--all"),
      worktrees: git(checkout, "worktree", "list", "--porcelain"),
    });
    const untouched = { a: refsOf(a), b: refsOf(b) };
    const schema = freshSchema("work");
    const url = `${server().url}?schema=${schema}`;
    const workers: Record<string, Spawned> = {};
    // Worker A restarts on the same machine: the binary's own transcripts stay where they were.
    const sameMachine = { CLAUDE_CONFIG_DIR: temp.make("flower-claude-a-") };
    const kills: Array<{ at: string; run: number }> = [];
    // Which workers served each run's main thread: the first killed run must go on in B's checkout.
    const servedBy = new Map<number, Set<string>>();
    const kit = await startModel({
      policy: async (request: ModelRequest) => {
        const worker = workerOf(request);
        if (request.kind === "main" && !request.isSubagent) {
          const tag = tagOf(request);
          servedBy.set(tag, (servedBy.get(tag) ?? new Set()).add(worker));
        }
        if (worker === "a" && request.kind === "main" && !request.isSubagent) {
          const first = kills.length === 0 && !gen2(request) && !request.isHandoffTurn;
          // The engineer's write came back to the main thread with this request: once its result is in
          // the store (the transcript another machine resumes), the worker dies.
          const agent = request.toolResults().find((result) => result.name === "Agent");
          if (first && agent !== undefined && request.countToolResults("Read") === 0) {
            kills.push({ at: "after the write reached the main thread", run: tagOf(request) });
            await until(
              async () =>
                (
                  await query(server().url, `SELECT 1 FROM ${schema}.flower_entries WHERE body LIKE $1`, [
                    `%"tool_use_id":"${agent.toolUseId}"%`,
                  ])
                ).length > 0,
              "the Agent result in the store",
              20_000,
            );
            process.kill(workers.a!.child.pid!, "SIGKILL");
          } else if (kills.length === 1 && request.isHandoffTurn && workers.a2 !== undefined) {
            kills.push({ at: "inside the handoff-writing turn", run: tagOf(request) });
            process.kill(workers.a2.child.pid!, "SIGKILL");
          }
        }
        return reply(request);
      },
    });

    const runs: string[] = [];
    for (let tag = 1; tag <= RUNS; tag++)
      runs.push(
        await submitRun(
          url,
          `Work task ${tag}: write the results`,
          ["--direct", "--window", "85000"],
          person,
        ),
      );

    workers.a = startWorker(kit, temp, {
      name: "a",
      url,
      workspace: a,
      concurrency: 2,
      timeoutMs: 400_000,
      env: sameMachine,
    });
    workers.b = startWorker(kit, temp, { name: "b", url, workspace: b, concurrency: 2, timeoutMs: 400_000 });
    await until(() => kills.length === 1, "the first kill", 200_000);
    // B reclaims A's runs and takes them first (the oldest jobs, retried at once) as its own end: A is
    // restarted on the same checkout only once the first killed run goes on in B's, so that run's files
    // must come from the store, not from a worktree left on A's disk.
    await workers.a.done;
    await until(
      () => servedBy.get(kills[0]!.run)?.has("b") === true,
      "B to go on with the killed run",
      200_000,
    );
    workers.a2 = startWorker(kit, temp, {
      name: "a",
      url,
      workspace: a,
      concurrency: 2,
      timeoutMs: 400_000,
      env: sameMachine,
    });
    await until(
      async () =>
        (await fleetRows(server().url, schema)).every((row) => row.status === "done") || kills.length === 2,
      "the second kill (or every run done first)",
      300_000,
    );
    if (kills.length === 2) {
      await workers.a2.done;
      workers.a3 = startWorker(kit, temp, {
        name: "a",
        url,
        workspace: a,
        concurrency: 2,
        timeoutMs: 400_000,
        env: sameMachine,
      });
    }
    await until(
      async () =>
        (await fleetRows(server().url, schema)).every((row) => !["queued", "running"].includes(row.status)),
      "every run to end",
      300_000,
    );
    const rows = await fleetRows(server().url, schema);
    expect(rows.map((row) => row.status)).toEqual(Array(RUNS).fill("done"));
    expect(kills.map((kill) => kill.at)).toEqual([
      "after the write reached the main thread",
      "inside the handoff-writing turn",
    ]);

    // Every run saw the person's uncommitted file and unpushed commit, and its continuation read the
    // file written before the handoff (and before the kill): result-1.txt with its own content.
    for (let tag = 1; tag <= RUNS; tag++) {
      const mine = kit.requests.filter((request) => tagOf(request) === tag);
      const catOutput = mine
        .filter((request) => request.isSubagent)
        .flatMap((request) => request.toolResults().map((result) => result.text))
        .join("\n");
      expect(catOutput).toContain("UNCOMMITTED-CONTEXT for every run");
      expect(catOutput).toContain("LOCAL-COMMIT not pushed");
      const readBack = mine
        .filter((request) => gen2(request) && request.isMainThread)
        .flatMap((request) => request.toolResults().filter((result) => result.name === "Read"))
        .map((result) => result.text);
      expect(readBack.some((read) => read.includes(`run ${tag} part 1`))).toBe(true);
    }

    // Handed back: each run's branch in the person's checkout holds exactly its own files.
    const env = cleanEnv();
    for (const [index, run] of runs.entries()) {
      const tag = index + 1;
      const fetched = await runFlowerOk(["fetch", run, "--store", url], { env, cwd: person });
      expect(fetched.stdout).toContain(`flower/${run}`);
      const names = git(person, "diff", "--name-only", `main...flower/${run}`).split("\n").sort();
      expect(names).toEqual(["context.txt", "out.txt", "result-1.txt", "result-2.txt"]);
      expect(git(person, "show", `flower/${run}:result-1.txt`)).toBe(`run ${tag} part 1`);
      expect(git(person, "show", `flower/${run}:result-2.txt`)).toBe(`run ${tag} part 2`);
      expect(git(person, "show", `flower/${run}:out.txt`)).toBe(`out of run ${tag}`);
    }
    // The person's checkout itself is as it was: their branch, their uncommitted file.
    expect(git(person, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
    expect(git(person, "status", "--porcelain")).toBe("?? context.txt");

    for (const worker of Object.values(workers)) worker.child.kill("SIGTERM");
    const logs = await Promise.all(Object.values(workers).map((worker) => worker.done));
    const said = logs.map((log) => log.stdout).join("\n");
    expect(said).toMatch(/works in runs\/worktrees\//);
    // The run A died in went on in B's new worktree with the files of its last checkpoint, from the store.
    for (const [name, checkout] of [
      ["a", a],
      ["b", b],
    ] as const) {
      expect(refsOf(checkout), `worker ${name}'s checkout`).toEqual(untouched[name]);
      expect(readdirSync(join(checkout, "runs", "worktrees")), `worker ${name}'s worktrees`).toEqual([]);
      expect(readdirSync(join(checkout, "runs", "work")), `worker ${name}'s shadow repositories`).toEqual([]);
    }
    const moved = runs[kills[0]!.run - 1]!;
    expect((await workers.b.done).stdout).toMatch(
      new RegExp(
        `${moved}: works in .*\\n${moved}: its files are as its last checkpoint: \\d+ files? put back`,
      ),
    );
    kit.assertNoErrors();
  }, 600_000);
});
