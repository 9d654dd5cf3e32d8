/** One live driver per step, through Runtime with a scripted query() (no binary needed for the rules). */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LeaseHeldError, Runtime, type AgentSpec } from "../../../src/index.js";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { newStepRecord } from "../../../src/records/step-record.js";
import { init, response, result, scriptedQuery, type ScriptedSession } from "../../support/scripted-query.js";

const spec: AgentSpec = { name: "solo", instructions: "Work.", role: "agent" };
const dirs: string[] = [];
const runtimes: Runtime[] = [];
afterEach(() => {
  for (const rt of runtimes.splice(0)) rt.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function place(): { workspace: string; runDir: string } {
  const root = mkdtempSync(join(tmpdir(), "flower-lease-"));
  dirs.push(root);
  const workspace = join(root, "workspace");
  mkdirSync(workspace);
  return { workspace, runDir: join(root, "runs") };
}

function runtime(where: { workspace: string; runDir: string }, sessions: ScriptedSession[]): Runtime {
  const rt = new Runtime({ ...where, locale: "en", _internal: { query: scriptedQuery(sessions).query } });
  runtimes.push(rt);
  return rt;
}

/** A session that answers only when `release` is called: the step stays running until then. */
function held(id: string): { session: ScriptedSession; release: () => void; started: Promise<void> } {
  let release!: () => void;
  let started!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const start = new Promise<void>((resolve) => (started = resolve));
  return {
    release,
    started: start,
    session: async () => {
      started();
      await gate;
      return [init(id), ...response(id, 5_000), result(id, { text: `done by ${id}` })];
    },
  };
}

const quick =
  (id: string): ScriptedSession =>
  () => [init(id), ...response(id, 5_000), result(id, { text: `done by ${id}` })];

describe("step leases", () => {
  it("refuses a second driver with an error naming the holder, in this process too", async () => {
    const where = place();
    const first = held("s1");
    const a = runtime(where, [first.session]);
    const running = a.run("build", spec, "Build it.");
    await first.started;
    const b = runtime(where, [quick("s2")]);
    const error = (await b.run("build", spec, "Build it again.").catch((e: unknown) => e)) as LeaseHeldError;
    expect(error).toBeInstanceOf(LeaseHeldError);
    expect(error.code).toBe("lease");
    expect(error.holder).toMatchObject({ pid: process.pid, host: hostname() });
    expect(error.message).toContain(`pid ${process.pid} on ${hostname()}`);
    first.release();
    expect((await running).result).toBe("done by s1");
    // The holder's record was not touched by the refused driver.
    expect(a.records.get("build")).toMatchObject({ status: "done", sessionId: "s1" });
  });

  it("waits for the holder with `wait`, then continues the step it finished", async () => {
    const where = place();
    const first = held("s1");
    const a = runtime(where, [first.session]);
    const running = a.run("build", spec, "Build it.");
    await first.started;
    const events: string[] = [];
    const b = runtime(where, [quick("s1")]);
    b.on((event) => events.push(event.type));
    const waiting = b.continue("build", spec, { wait: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events).toEqual(["lease-wait"]);
    first.release();
    await running;
    const continued = await waiting;
    expect(continued.result).toBe("done by s1");
    expect(b.records.leases()).toEqual([]);
  });

  it("gives up waiting after the time it was given", async () => {
    const where = place();
    const first = held("s1");
    const a = runtime(where, [first.session]);
    const running = a.run("build", spec, "Build it.");
    await first.started;
    const b = runtime(where, []);
    await expect(b.run("build", spec, "Again.", { wait: 600 })).rejects.toBeInstanceOf(LeaseHeldError);
    first.release();
    await running;
  });

  it("takes over the lease of a dead owner", async () => {
    const where = place();
    // A process that has exited: its pid is free (or reused, with another start time).
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    });
    const deadPid = Number(dead.stdout);
    const records = new SqliteRunRecords(where.runDir);
    records.put({ ...newStepRecord("build", "solo", "Build it."), sessionId: "s0", pid: deadPid });
    records.acquire("build", {
      self: { pid: deadPid, host: hostname(), startTicks: 1 },
      now: new Date(),
      token: "dead-owner",
    });
    records.close();
    const rt = runtime(where, [quick("s0")]);
    const takeovers: unknown[] = [];
    rt.on((event) => event.type === "lease-takeover" && takeovers.push(event));
    const step = await rt.continue("build", spec);
    expect(step.result).toBe("done by s0");
    expect(rt.records.leases()).toEqual([]);
    // Said once, naming the dead owner (telemetry counts takeovers from this event).
    expect(takeovers).toEqual([
      {
        type: "lease-takeover",
        step: "build",
        holder: expect.objectContaining({ pid: deadPid, host: hostname() }),
      },
    ]);
  });

  it("two runtimes racing for a dead owner's step: the loser's error names the live winner", async () => {
    const where = place();
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    });
    const deadPid = Number(dead.stdout);
    const staleBeat = new Date(Date.now() - 5_000);
    const records = new SqliteRunRecords(where.runDir);
    records.put({ ...newStepRecord("build", "solo", "Build it."), sessionId: "s0", pid: deadPid });
    records.acquire("build", {
      self: { pid: deadPid, host: hostname(), startTicks: 1 },
      now: staleBeat,
      token: "dead-owner",
    });
    records.close();
    // Both continue the step at once; whichever takes the dead owner's lease holds its session open.
    const first = held("s0");
    const second = held("s0");
    const a = runtime(where, [first.session]);
    const b = runtime(where, [second.session]);
    const runs = [a.continue("build", spec), b.continue("build", spec)];
    const loser = await Promise.race(
      runs.map((run, index) =>
        run.then(
          () => null,
          (error: unknown) => ({ index, error }),
        ),
      ),
    );
    expect(loser, "one of the two drivers must be refused").not.toBeNull();
    const error = loser!.error as LeaseHeldError;
    expect(error).toBeInstanceOf(LeaseHeldError);
    // The winner is this very process, alive, with a fresh heartbeat; not the dead driver.
    expect(error.holder.pid).toBe(process.pid);
    expect(error.holder.pid).not.toBe(deadPid);
    expect(Date.parse(error.holder.heartbeatAt)).toBeGreaterThan(staleBeat.getTime());
    expect(error.message).toContain(`pid ${process.pid} on ${hostname()}`);
    first.release();
    second.release();
    const winner = await runs[1 - loser!.index]!;
    expect(winner.result).toBe("done by s0");
  });

  it("takes over a lease whose heartbeat went stale on another host", async () => {
    const where = place();
    const records = new SqliteRunRecords(where.runDir);
    records.acquire("build", {
      self: { pid: 1, host: "another-machine", startTicks: null },
      now: new Date(Date.now() - 120_000),
      token: "stale",
    });
    records.close();
    const rt = runtime(where, [quick("s1")]);
    expect((await rt.run("build", spec, "Build it.")).result).toBe("done by s1");
  });
});
