/**
 * A fleet on one shared store, through the built `flower` binary, the real `claude` binary, the offline
 * kit and a real PostgreSQL server. Each "machine" is a process with its own copy of the workspace (at
 * another path), its own run directory and its own CLAUDE_CONFIG_DIR; they share only the store URL.
 *
 * - continue anywhere: a handoff frozen on machine A starts the successor on machine B, whose checkout
 *   has no `.flower/` and no `runs/`; a session resumed on B finds its spill pointers resolving there;
 * - one driver: two machines racing to continue a step, exactly one drives it, the other exits 2;
 * - a SIGKILLed driver loses its lease: the next machine takes the step at once (same kernel: the pid
 *   is gone; across machines the heartbeat decides, see test/unit/store/shared-store.test.ts);
 * - `flower runs --store` lists the fleet's steps with their holder; bad store values are one line.
 */
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { StepRecord } from "../../../src/public/stores.js";
import { text, toolUse, toolUses, type FakeModel, type ModelRequest } from "../../../src/testing/index.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import {
  cleanEnv,
  killGroup,
  runFlower,
  spawnFlower,
  type Spawned,
  useCliTest,
  writeNotes,
} from "./helpers.js";

const { temp, startModel } = useCliTest();
const server = usePostgresServer();
let model: FakeModel | undefined;

/** The project as it is checked out: notes to read and one big file whose Read gets spilled. */
function project(root: string): void {
  writeNotes(root);
  const big = Array.from(
    { length: 300 },
    (_, i) => `BIG-LINE-${i} ${"lorem ipsum dolor sit amet ".repeat(2)}`,
  );
  writeFileSync(join(root, "big.txt"), `${big.join("\n")}\n`);
}

interface Machine {
  name: string;
  workspace: string;
  runDir: string;
  env: Record<string, string>;
}

/**
 * A machine: a fresh copy of the project (no `.flower/`, no `runs/`), at its own path, with its own
 * claude config dir. `origin` is the project as first checked out.
 */
function machine(name: string, origin: string, store: string): Machine {
  const root = temp.make(`flower-${name}-`);
  const workspace = join(root, "checkout");
  cpSync(origin, workspace, { recursive: true });
  return {
    name,
    workspace,
    runDir: join(root, "runs"),
    env: cleanEnv(
      model!.env({ CLAUDE_CONFIG_DIR: temp.make(`flower-claude-${name}-`), FLOWER_STORE: store }),
    ),
  };
}

function on(machine: Machine, args: string[], timeoutMs = 60_000): Spawned {
  return spawnFlower([...args, "--workspace", machine.workspace, "--run-dir", machine.runDir], {
    env: machine.env,
    cwd: machine.workspace,
    timeoutMs,
  });
}

function origin(): string {
  const dir = temp.make("flower-origin-");
  project(dir);
  return dir;
}

function storeUrl(): string {
  return `${server().url}?schema=${freshSchema("fleet")}`;
}

async function storedRecord(url: string, step: string): Promise<StepRecord> {
  const schema = new URL(url).searchParams.get("schema")!;
  const client = new pg.Client({ connectionString: server().url });
  await client.connect();
  try {
    const { rows } = await client.query<{ record: string }>(
      `SELECT record FROM ${schema}.flower_steps WHERE step = $1`,
      [step],
    );
    return JSON.parse(rows[0]!.record) as StepRecord;
  } finally {
    await client.end();
  }
}

async function until(condition: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const HANDOFF = handoffMarkdown({
  doing: "GEN-1: reading the notes in batches, written on machine A.",
  next: ["Read big.txt, then finish."],
});

describe("continue anywhere", () => {
  it("starts the successor on a fresh checkout from the handoff machine A froze in the store", async () => {
    const a: { spawned?: Spawned } = {};
    model = await startModel({
      policy: (request: ModelRequest) => {
        if (request.isSubagent) return text("unused");
        if (request.isHandoffTurn) {
          // Ctrl-C during the writing turn: the handoff finishes, the successor does not start here.
          a.spawned?.child.kill("SIGINT");
          return { ...text(HANDOFF), delayMs: 300 };
        }
        if (request.firstUserText().includes("GEN-1")) {
          if (request.countToolResults("Read") === 0) return toolUse("Read", { file_path: "big.txt" });
          return text("Successor finished on machine B.");
        }
        const read = request.countToolResults("Read");
        return toolUses(
          Array.from({ length: 6 }, (_, i) => ({
            name: "Read",
            input: { file_path: `note-${read + i + 1}.md` },
          })),
        );
      },
    });
    const url = storeUrl();
    const project = origin();
    const machineA = machine("a", project, url);
    const machineB = machine("b", project, url);

    a.spawned = on(machineA, ["--direct", "--window", "100000", "--step", "long job", "Read all notes."]);
    const stopped = await a.spawned.done;
    expect(stopped.code).toBe(130);
    const pending = await storedRecord(url, "long job");
    expect(pending.status).toBe("stopped");
    const notesA = join(machineA.workspace, ".flower", "notes");
    expect(pending.pendingHandoff!.startsWith(`${notesA}/handoff-`)).toBe(true);

    expect(existsSync(join(machineB.workspace, ".flower"))).toBe(false);
    expect(existsSync(machineB.runDir)).toBe(false);
    const before = model.requests.length;
    const continued = await runFlower(
      ["continue", "--workspace", machineB.workspace, "--run-dir", machineB.runDir],
      {
        env: machineB.env,
        cwd: machineB.workspace,
        timeoutMs: 60_000,
      },
    );
    expect(continued.stderr).toBe("");
    expect(continued.code).toBe(0);
    expect(continued.stdout).toContain("Successor finished on machine B.");
    // The handoff came from the store into B's checkout, and the successor started from it.
    const restored = join(machineB.workspace, ".flower", "notes", basename(pending.pendingHandoff!));
    expect(readFileSync(restored, "utf8")).toContain(
      "GEN-1: reading the notes in batches, written on machine A.",
    );
    const successorFirst = model.requests.slice(before).find((request) => request.kind === "main")!;
    expect(successorFirst.firstUserText()).toContain("written on machine A");
    expect(successorFirst.sessionId).not.toBe(pending.retired[0]);

    const done = await storedRecord(url, "long job");
    expect(done.status).toBe("done");
    expect(done.generations).toBe(2);
    expect(done.handoffs).toEqual([restored]);
    expect(done.pendingHandoff).toBeNull();
    model.assertNoErrors();
  }, 180_000);

  it("resumes a session on a fresh checkout, its spill pointers written back and readable there", async () => {
    model = await startModel({
      policy: (request: ModelRequest) => {
        if (request.isSubagent) return text("unused");
        const last = request.lastToolResult();
        if (last && last.text.includes("BIG-LINE-250") && request.allText().includes("RESUMED"))
          return text(`Read the spill again: ${last.input?.file_path as string}`);
        if (request.lastUserText().includes("RESUMED")) {
          const pointer = /saved to (\S+\.txt);/.exec(request.allText());
          return toolUse("Read", { file_path: pointer ? pointer[1] : "missing-pointer.txt" });
        }
        if (request.countToolResults("Read") === 0) return toolUse("Read", { file_path: "big.txt" });
        return text("Probed on machine A.");
      },
    });
    const url = storeUrl();
    const project = origin();
    const machineA = machine("a", project, url);
    const machineB = machine("b", project, url);

    const first = await on(machineA, ["--direct", "--step", "probe", "Probe the big file."]).done;
    expect(first.code).toBe(0);
    const spillA = readdirSync(join(machineA.workspace, ".flower", "spill"));
    expect(spillA).toHaveLength(1);

    const resumed = await on(machineB, [
      "continue",
      "probe",
      "--prompt",
      "RESUMED: read the spilled file again.",
    ]).done;
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    const spillB = join(machineB.workspace, ".flower", "spill", spillA[0]!);
    // The pointer the model saw names B's checkout, and the file is there with A's content.
    expect(resumed.stdout).toContain(`Read the spill again: ${spillB}`);
    expect(readFileSync(spillB, "utf8")).toBe(
      readFileSync(join(machineA.workspace, ".flower", "spill", spillA[0]!), "utf8"),
    );
    const record = await storedRecord(url, "probe");
    expect(record.status).toBe("done");
    expect(record.generations).toBe(1);
    model.assertNoErrors();
  }, 180_000);
});

describe("one driver per step across machines", () => {
  it("lets exactly one of two racing machines drive, lists the holder, and survives a SIGKILLed driver", async () => {
    // A continued step's answer waits for `gate`: the race's winner keeps the step until the test has
    // seen the loser refused; the doomed driver's answer never comes.
    let gate: Promise<unknown> = Promise.resolve();
    let label = "at once";
    model = await startModel({
      policy: async (request: ModelRequest) => {
        if (request.isSubagent) return text("unused");
        if (request.lastUserText().includes("Continue the task.")) {
          const said = `continued ${label}`;
          await gate;
          return text(said);
        }
        return text("first answer");
      },
    });
    const url = storeUrl();
    const project = origin();
    const [a, b, c, d] = ["a", "b", "c", "d"].map((name) => machine(name, project, url)) as [
      Machine,
      Machine,
      Machine,
      Machine,
    ];
    expect((await on(a, ["--direct", "--step", "race", "Start the race."]).done).code).toBe(0);

    // Two machines continue the same step at once: one drives, the other is refused.
    let release!: () => void;
    gate = new Promise<void>((resolve) => (release = resolve));
    label = "while the loser was refused";
    const requestsBefore = model.requests.length;
    const racers = [on(b, ["continue", "race"]), on(c, ["continue", "race"])];
    await until(() => model!.requests.length > requestsBefore, "the winner's first request");
    // While it drives, any machine lists the step with its holder.
    const listed = await runFlower(["runs", "--store", url, "--json"], { env: d.env, cwd: d.workspace });
    expect(listed.code).toBe(0);
    const [row] = listed.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(row).toMatchObject({ step: "race", status: "running" });
    const holderPid = (row!.heldBy as { pid: number }).pid;
    expect(racers.map((racer) => racer.child.pid)).toContain(holderPid);
    const table = await runFlower(["runs"], { env: d.env, cwd: d.workspace });
    expect(table.stdout).toMatch(new RegExp(`race\\s+running\\s+1\\s.*pid ${holderPid}@`));
    expect(existsSync(join(d.workspace, "runs"))).toBe(false);

    // The loser ends on its own (refused); only then may the winner's answer come.
    await Promise.race(racers.map((racer) => racer.done));
    release();
    const finished = await Promise.all(racers.map((racer) => racer.done));
    expect(finished.map((result) => result.code).sort()).toEqual([0, 2]);
    const loser = finished.find((result) => result.code === 2)!;
    expect(loser.stderr.trim().split("\n")).toHaveLength(1);
    expect(loser.stderr).toContain(`Step "race" is being driven by pid ${holderPid}`);
    expect(finished.find((result) => result.code === 0)!.stdout).toContain(
      "continued while the loser was refused",
    );

    // A driver killed with SIGKILL mid-answer: the next machine takes the step over and finishes it.
    gate = new Promise(() => {});
    label = "by the doomed driver";
    const killedBefore = model.requests.length;
    const doomed = on(b, ["continue", "race"], 150_000);
    await until(() => model!.requests.length > killedBefore, "the doomed driver's request");
    killGroup(doomed.child, "SIGKILL");
    await doomed.done;
    gate = Promise.resolve();
    label = "at once";
    const takeover = await on(c, ["continue", "race"]).done;
    expect(takeover.stderr).toBe("");
    expect(takeover.code).toBe(0);
    // Taken over from the dead driver (its pid is gone on this kernel, so without waiting out the heartbeat
    // window; how soon is not asserted, a busy machine stretches every wait).
    expect(takeover.stdout).toContain("continued at once");
    const after = await runFlower(["runs", "--json"], { env: d.env, cwd: d.workspace });
    expect(JSON.parse(after.stdout.trim())).toMatchObject({ step: "race", status: "done", heldBy: null });
  }, 300_000);
});

describe("store values the CLI refuses", () => {
  it("names a malformed URL (exit 2) and an unreachable server (exit 1) in one line, without the password", async () => {
    const root = temp.make("flower-bad-store-");
    const env = cleanEnv({ ANTHROPIC_API_KEY: "sk-ant-unused" });
    const malformed = await runFlower(
      ["--store", "postgres://ci:secret@:5432/x", "--workspace", root, "Do it."],
      {
        env,
        cwd: root,
      },
    );
    expect(malformed.code).toBe(2);
    expect(malformed.stderr.trim().split("\n")).toHaveLength(1);
    expect(malformed.stderr).toContain('Invalid option --store: got "postgres://ci:***@:5432/x"');

    const unreachable = await runFlower(["runs"], {
      env: { ...env, FLOWER_STORE: "postgres://ci:secret@127.0.0.1:1/flower" },
      cwd: root,
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.trim().split("\n")).toHaveLength(1);
    expect(unreachable.stderr).toMatch(
      /^flower: Cannot use the store postgres:\/\/ci:\*\*\*@127\.0\.0\.1:1\/flower \(schema public\): .*ECONNREFUSED/,
    );
    expect(unreachable.stderr).not.toContain("secret");
    expect(existsSync(join(root, "runs"))).toBe(false);
  }, 60_000);
});
