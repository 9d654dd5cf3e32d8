/**
 * Workload `fleet`: what an idle `flower worker --budget-per-day` costs over a store of many step
 * records. A throwaway PostgreSQL server holds 1,000 and then 10,000 records of ~6.5 KB (four generations
 * with their per-turn series, as a real run's record is), written through flower's own records writer;
 * the built CLI's worker (`flower worker --store … --budget-per-day 1000`, a process of its own) sits idle
 * on it, and its CPU and the bytes it read (/proc/<pid>/stat and io) over IDLE_S seconds, one tick a
 * second, give the figures per tick. Beside them, in this process, what the old tick did: read every
 * record and sum the day (`list()` + `daySpent`), its CPU and the record bytes it read.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgresServer } from "flower-agent/testing";
import pg from "pg";
import { processUse } from "./cpu.js";
import { loadFleetInternals, type BenchStepRecord, type FleetInternals } from "./fleet-internals.js";

/** Seconds the worker is watched idle (it ticks once a second; pg-boss maintains its queue now and then, which a shorter window catches or misses). */
const IDLE_S = 60;
/** Seconds it runs before that (start, migration check, queue start). */
const WARM_S = 5;

export interface FleetIdleRow {
  records: number;
  /** Mean bytes of a record's JSON. */
  recordBytes: number;
  /** The worker, idle: CPU per 1 s tick (over the window), bytes read by the median second, and the mean. */
  tickCpuMs: number;
  tickReadBytes: number;
  meanReadBytes?: number;
  ticks: number;
  /** The old tick, in this process: every record read and the day summed (median of 3). */
  oldTickCpuMs: number;
  oldTickReadBytes: number;
}

export interface FleetIdleResult {
  rows: FleetIdleRow[];
  /** Bytes read per tick (the median second) at the largest size over the smallest: 1 = independent of the records. */
  readGrowth: number;
  loadAverage: { start: number; end: number };
  seconds: number;
  ok: boolean;
  error?: string;
}

export const FLEET_DEFAULTS = { sizes: [1_000, 10_000] };

/** A record as a run of four generations leaves it (~6.5 KB): each generation's per-turn series. */
function record(internals: FleetInternals, index: number, now: Date): BenchStepRecord {
  const day = now.toISOString().slice(0, 10);
  const made = internals.newStepRecord(
    `run-${index}/work`,
    "lead",
    `Task ${index}: ${"fix it ".repeat(20)}`,
    now,
  );
  made.run = `run-${index}`;
  made.history = Array.from({ length: 4 }, (_, generation) => ({
    generation: generation + 1,
    sessionId: `00000000-0000-4000-8000-${String(index * 10 + generation).padStart(12, "0")}`,
    startedAt: `${day}T00:0${generation}:00.000Z`,
    endedAt: `${day}T00:0${generation}:30.000Z`,
    costUsd: 0.01,
    numTurns: 120,
    context: 40_000,
    turns: Array.from(
      { length: 120 },
      (__, turn) => [20_000 + turn * 500, turn % 3, 0] as [number, number, number],
    ),
    handoff: null,
  }));
  made.costUsd = 0.04;
  return made;
}

export async function runFleetIdle(
  sizes: readonly number[],
  repo: string,
  log: (line: string) => void = () => {},
): Promise<FleetIdleResult> {
  const started = performance.now();
  const loadStart = loadavg()[0]!;
  const internals = await loadFleetInternals();
  const server = await startPostgresServer();
  const workspace = mkdtempSync(join(tmpdir(), "flower-bench-fleet-"));
  const rows: FleetIdleRow[] = [];
  const errors: string[] = [];
  try {
    for (const size of sizes) {
      const schema = `fleet_${size}`;
      const pool = new pg.Pool({ connectionString: server.url, max: 8 });
      try {
        const client = await pool.connect();
        try {
          await internals.migrate(client, schema, internals.POSTGRES_MIGRATIONS);
        } finally {
          client.release();
        }
        const records = new internals.PostgresRunRecords(
          async () => pool,
          internals.quoteIdentifier(schema),
          schema,
        );
        const now = new Date();
        let bytes = 0;
        for (let index = 0; index < size; index += 8)
          await Promise.all(
            Array.from({ length: Math.min(8, size - index) }, (_, k) => {
              const made = record(internals, index + k, now);
              bytes += JSON.stringify(made).length;
              return records.put(made as never);
            }),
          );
        // What the old tick did, here: every record read and parsed, the day summed.
        const old: Array<{ cpu: number; bytes: number }> = [];
        for (let round = 0; round < 3; round++) {
          const before = process.cpuUsage();
          const all = await records.list();
          internals.daySpent(all, now.toISOString().slice(0, 10));
          const used = process.cpuUsage(before);
          old.push({
            cpu: (used.user + used.system) / 1000,
            bytes: all.reduce((total, one) => total + JSON.stringify(one).length, 0),
          });
        }
        old.sort((a, b) => a.cpu - b.cpu);
        const idle = await watchWorker(repo, `${server.url}?schema=${schema}`, workspace);
        rows.push({
          records: size,
          recordBytes: Math.round(bytes / size),
          tickCpuMs: Number(idle.tickCpuMs.toFixed(2)),
          tickReadBytes: Math.round(idle.tickReadBytes),
          meanReadBytes: Math.round(idle.meanReadBytes),
          ticks: IDLE_S,
          oldTickCpuMs: Math.round(old[1]!.cpu),
          oldTickReadBytes: old[1]!.bytes,
        });
        log(
          `  ${size} records (${Math.round(bytes / size)} B each): an idle worker's tick ${idle.tickCpuMs.toFixed(2)} ms CPU, ` +
            `${Math.round(idle.tickReadBytes)} B read (the median second; ${Math.round(idle.meanReadBytes)} B on average); the old tick (every record read, the day summed) ` +
            `${Math.round(old[1]!.cpu)} ms CPU, ${(old[1]!.bytes / 2 ** 20).toFixed(1)} MB`,
        );
      } catch (error) {
        errors.push(`${size} records: ${(error as Error).message}`);
      } finally {
        await pool.end();
      }
    }
  } finally {
    await server.stop();
    rmSync(workspace, { recursive: true, force: true });
  }
  const first = rows[0];
  const last = rows.at(-1);
  return {
    rows,
    readGrowth: first && last ? Number((last.tickReadBytes / first.tickReadBytes).toFixed(3)) : Number.NaN,
    loadAverage: { start: loadStart, end: loadavg()[0]! },
    seconds: Math.round((performance.now() - started) / 1000),
    ok: errors.length === 0 && rows.length === sizes.length,
    ...(errors.length > 0 ? { error: errors.join("; ") } : {}),
  };
}

/** The built CLI's worker on the store, idle: its CPU and bytes read per second-long tick. */
async function watchWorker(
  repo: string,
  store: string,
  workspace: string,
): Promise<{ tickCpuMs: number; tickReadBytes: number; meanReadBytes: number }> {
  const child = spawn(
    process.execPath,
    [
      join(repo, "dist", "cli", "main.js"),
      "worker",
      "--store",
      store,
      "--budget-per-day",
      "1000",
      "--workspace",
      workspace,
    ],
    {
      cwd: workspace,
      stdio: ["ignore", "pipe", "pipe"],
      // It never asks the model (no run is queued): a key only gets it past its start-up check.
      env: { ...process.env, FLOWER_LANG: "en", ANTHROPIC_API_KEY: "bench-idle-worker" },
    },
  );
  let said = "";
  child.stdout.on("data", (chunk: Buffer) => (said += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (said += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  try {
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let tries = 0; tries < 600 && !said.includes("takes runs from"); tries++) await wait(100);
    if (!said.includes("takes runs from")) throw new Error(`the worker did not start: ${said.slice(0, 300)}`);
    await wait(WARM_S * 1000);
    // Read every second: the CPU over the whole window (pg-boss's upkeep of its queue in it), the bytes
    // per tick as the median second (a second of that upkeep reads its own rows, whatever the records).
    const samples = [processUse(child.pid!)];
    for (let second = 0; second < IDLE_S; second++) {
      await wait(1000);
      samples.push(processUse(child.pid!));
    }
    const reads = samples.slice(1).map((sample, index) => sample.readBytes - samples[index]!.readBytes);
    reads.sort((a, b) => a - b);
    return {
      tickCpuMs: (samples.at(-1)!.cpuMs - samples[0]!.cpuMs) / IDLE_S,
      tickReadBytes: reads[Math.floor(reads.length / 2)]!,
      meanReadBytes: (samples.at(-1)!.readBytes - samples[0]!.readBytes) / IDLE_S,
    };
  } finally {
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}
