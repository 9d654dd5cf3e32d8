/**
 * Store load (SPEC S4): N runner processes append realistic batches to ONE session store for a fixed
 * time, first against PostgreSQL (a throwaway durable cluster from the offline kit's
 * `startPostgresServer`, or FLOWER_BENCH_POSTGRES_URL), then against SQLite for comparison. Reports
 * entries/s and append latency (p50/p95/p99), and checks afterwards that every entry is there exactly
 * once and in order (counts and uuids per transcript; every 7th batch is sent twice, as an SDK retry
 * would, and must add nothing).
 *
 * Two ways of flushing (`flush`): "batched" sends one turn per append, as the SDK does by default (at the
 * end of a turn); "eager" sends every entry as its own append, as the SDK does with
 * `sessionStoreFlush: "eager"` — what flower asks for on a shared store, so a machine that dies mid-turn
 * leaves its entries in the store (runtime/session/session-options.ts). SQLite runs batched only (flower keeps
 * it batched). Besides the fleet, one writer alone appends the same entries both ways: its time per
 * entry is what eager costs one session (`flushCost`).
 *
 * Part of `npm run bench` (workload "postgres"; `--only postgres`); results go to bench/postgres-load.json.
 * Alone: `node bench/dist/postgres-load.js`. Environment: FLOWER_LOAD_SECONDS (60), FLOWER_LOAD_RUNNERS
 * (20), FLOWER_LOAD_BACKENDS ("postgres,sqlite"), FLOWER_LOAD_FLUSH ("batched,eager"),
 * FLOWER_LOAD_WRITER_ENTRIES (2000), FLOWER_BENCH_POSTGRES_URL. A lost, duplicated or misordered entry
 * fails the run.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionKey, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { PostgresSessionStore, SqliteSessionStore } from "flower-agent/stores";
import { startPostgresServer } from "flower-agent/testing";

const SELF = fileURLToPath(import.meta.url);
const PROJECT = "-bench-repo";

type Backend = "postgres" | "sqlite";
type Which = "main" | "sub";
/** One turn per append (the SDK's default), or one entry per append (`sessionStoreFlush: "eager"`). */
export type Flush = "batched" | "eager";

interface Counter {
  n: number;
  last: string | null;
}

interface RunnerResult {
  index: number;
  entries: number;
  latencies: number[];
  expected: Record<Which, string[]>;
}

export interface StoreLoadResult {
  backend: Backend;
  /** How the runners flushed (absent in results of older runs: batched). */
  flush?: Flush;
  runners: number;
  seconds: number;
  wallSeconds: number;
  /** The 1-minute load average when the runners were started (absent in results of older runs). */
  loadAverageAtStart?: number;
  /** The 1-minute load average when the last runner had finished. */
  loadAverage: number;
  appends: number;
  entries: number;
  entriesPerSecond: number;
  appendMs: { p50: number; p95: number; p99: number; max: number };
  /** A runner's time in append() per entry it stored: what the store costs one writer under this load. */
  writerMsPerEntry?: number;
  /** Entries with a uuid that the runners sent (cost-state entries have none and are not checked). */
  uuidsSent?: number;
  /** Entries with a uuid that the store gave back. */
  stored: number;
  lost: number;
  duplicated: number;
  misorderedTranscripts: number;
}

interface Store {
  append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void>;
  load(key: SessionKey): Promise<SessionStoreEntry[] | null>;
  close(): void | Promise<void>;
  ready?(): Promise<void>;
}

function open(backend: Backend, target: string, runner: boolean): Store {
  return backend === "postgres"
    ? new PostgresSessionStore({ url: target, maxConnections: 1 })
    : new SqliteSessionStore({ path: target, ...(runner ? { busyTimeoutMs: 60_000 } : {}) });
}

/** A turn as the CLI mirrors it: assistant text, 1–3 tool calls, their results (short, medium, long). */
function turnEntries(prefix: string, turn: number, counter: Counter): SessionStoreEntry[] {
  const entries: SessionStoreEntry[] = [];
  const add = (type: string, message: unknown) => {
    counter.n += 1;
    const entry = {
      type,
      uuid: `${prefix}-${counter.n}`,
      parentUuid: counter.last,
      isSidechain: false,
      sessionId: prefix,
      timestamp: new Date(1_767_225_600_000 + counter.n * 1000).toISOString(),
      cwd: "/repo",
      version: "2.1.332",
      message,
    };
    counter.last = entry.uuid;
    entries.push(entry);
  };
  const message = {
    id: `msg_${turn}`,
    model: "claude-opus-5-5",
    role: "assistant",
    type: "message",
    stop_reason: "tool_use",
    usage: { input_tokens: 100, cache_read_input_tokens: 20000, output_tokens: 80 },
  };
  add("assistant", { ...message, content: [{ type: "text", text: "Reading the next file." }] });
  const calls = 1 + (turn % 3);
  for (let i = 0; i < calls; i += 1)
    add("assistant", {
      ...message,
      content: [
        { type: "tool_use", id: `toolu_${turn}_${i}`, name: "Read", input: { file_path: `/repo/f${i}` } },
      ],
    });
  for (let i = 0; i < calls; i += 1) {
    const size = turn % 11 === 0 ? 12_000 : turn % 4 === 0 ? 2_500 : 300;
    add("user", {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `toolu_${turn}_${i}`, content: "x".repeat(size) }],
    });
  }
  if (turn % 10 === 0) entries.push({ type: "cost-state", totalCostUSD: turn / 100, runner: prefix });
  return entries;
}

/** A runner's transcript; each flush mode writes its own (the fleets share one database). */
function keyOf(index: number, which: Which, flush: Flush): SessionKey {
  const main = { projectKey: `${PROJECT}-${flush}`, sessionId: `runner-${index}` };
  return which === "sub" ? { ...main, subpath: "subagents/agent-a" } : main;
}

/**
 * Appends one turn the way `flush` says: the whole batch at once, or entry by entry. Returns the time of
 * each append() call. The SDK retries a batch whose append it could not confirm: with `retry` the last
 * append is sent twice (it must add nothing).
 */
async function appendTurn(
  store: Store,
  key: SessionKey,
  batch: SessionStoreEntry[],
  flush: Flush,
  retry: boolean,
): Promise<number[]> {
  const latencies: number[] = [];
  const groups = flush === "batched" ? [batch] : batch.map((entry) => [entry]);
  for (const group of groups) {
    const started = performance.now();
    await store.append(key, group);
    latencies.push(performance.now() - started);
  }
  if (retry) await store.append(key, groups.at(-1)!);
  return latencies;
}

/** One runner process: connect, say "ready", wait for "go <deadline>", append until then. */
async function runner(
  backend: Backend,
  target: string,
  index: number,
  outFile: string,
  flush: Flush,
): Promise<void> {
  const store = open(backend, target, true);
  await store.ready?.();
  process.stdout.write("ready\n");
  const deadline = await new Promise<number>((resolve) => {
    let buffered = "";
    process.stdin.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /^go (\d+)\n/.exec(buffered);
      if (match) {
        process.stdin.destroy();
        resolve(Number(match[1]));
      }
    });
  });
  const counters: Record<Which, Counter> = { main: { n: 0, last: null }, sub: { n: 0, last: null } };
  const expected: Record<Which, string[]> = { main: [], sub: [] };
  const latencies: number[] = [];
  let entries = 0;
  let turn = 0;
  while (Date.now() < deadline) {
    turn += 1;
    const which: Which = turn % 5 === 0 ? "sub" : "main";
    const key = keyOf(index, which, flush);
    const batch = turnEntries(`runner-${index}-${which}`, turn, counters[which]);
    // The SDK retries a batch whose append it could not confirm: every 7th is sent twice.
    latencies.push(...(await appendTurn(store, key, batch, flush, turn % 7 === 0)));
    entries += batch.length;
    for (const entry of batch) if (entry.uuid) expected[which].push(entry.uuid);
  }
  await store.close();
  const result: RunnerResult = { index, entries, latencies, expected };
  writeFileSync(outFile, JSON.stringify(result));
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function verify(backend: Backend, target: string, results: RunnerResult[], flush: Flush) {
  const store = open(backend, target, false);
  let lost = 0;
  let duplicated = 0;
  let misordered = 0;
  let stored = 0;
  let uuidsSent = 0;
  for (const result of results) {
    for (const which of ["main", "sub"] as const) {
      const loaded = ((await store.load(keyOf(result.index, which, flush))) ?? [])
        .map((entry) => entry.uuid)
        .filter((uuid): uuid is string => typeof uuid === "string");
      const want = result.expected[which];
      uuidsSent += want.length;
      stored += loaded.length;
      const have = new Set(loaded);
      duplicated += loaded.length - have.size;
      lost += want.filter((uuid) => !have.has(uuid)).length;
      if (loaded.join("\n") !== want.join("\n")) misordered += 1;
    }
  }
  await store.close();
  return { uuidsSent, stored, lost, duplicated, misorderedTranscripts: misordered };
}

async function loadTest(
  backend: Backend,
  target: string,
  runners: number,
  seconds: number,
  flush: Flush,
): Promise<StoreLoadResult> {
  const dir = mkdtempSync(join(tmpdir(), "flower-load-out-"));
  try {
    // Migrate once up front, so the runners measure appends, not the schema race (tested elsewhere).
    if (backend === "postgres") {
      const store = new PostgresSessionStore({ url: target });
      await store.ready();
      await store.close();
    }
    const children = Array.from({ length: runners }, (_, index) => {
      const out = join(dir, `runner-${index}.json`);
      const child = spawn(process.execPath, [SELF, "--runner", backend, target, String(index), out, flush], {
        stdio: ["pipe", "pipe", "inherit"],
      });
      const exited = new Promise<void>((resolve, reject) =>
        child.once("exit", (code) =>
          code === 0 ? resolve() : reject(new Error(`runner ${index} exited ${code}`)),
        ),
      );
      const ready = new Promise<void>((resolve, reject) => {
        let seen = "";
        child.stdout.on("data", (chunk: Buffer) => {
          seen += chunk.toString();
          if (seen.includes("ready\n")) resolve();
        });
        exited.then(() => reject(new Error(`runner ${index} exited before it was ready`)), reject);
      });
      return { child, exited, ready };
    });
    await Promise.all(children.map((child) => child.ready));
    const loadAtStart = loadavg()[0]!;
    const started = Date.now();
    for (const { child } of children) child.stdin.write(`go ${started + seconds * 1000}\n`);
    await Promise.all(children.map((child) => child.exited));
    const wall = (Date.now() - started) / 1000;
    const results = Array.from(
      { length: runners },
      (_, index) => JSON.parse(readFileSync(join(dir, `runner-${index}.json`), "utf8")) as RunnerResult,
    );
    const latencies = results.flatMap((result) => result.latencies).sort((a, b) => a - b);
    const entries = results.reduce((sum, result) => sum + result.entries, 0);
    const check = await verify(backend, target, results, flush);
    const round = (value: number) => Math.round(value * 10) / 10;
    const appendTime = latencies.reduce((sum, ms) => sum + ms, 0);
    return {
      backend,
      flush,
      runners,
      seconds,
      wallSeconds: round(wall),
      loadAverageAtStart: round(loadAtStart),
      loadAverage: round(loadavg()[0]!),
      appends: latencies.length,
      entries,
      entriesPerSecond: Math.round(entries / seconds),
      appendMs: {
        p50: round(percentile(latencies, 50)),
        p95: round(percentile(latencies, 95)),
        p99: round(percentile(latencies, 99)),
        max: round(latencies.at(-1) ?? 0),
      },
      writerMsPerEntry: Math.round((appendTime / Math.max(1, entries)) * 1000) / 1000,
      ...check,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface StoreLoadOptions {
  seconds: number;
  runners: number;
  backends: Backend[];
  /** Flush modes of the fleet; SQLite runs batched only. */
  flushes: Flush[];
  /** Entries the lone writer appends in each flush mode (`flushCost`). */
  writerEntries: number;
  /** An existing server; default: a throwaway durable cluster. */
  postgresUrl?: string;
}

export function storeLoadOptions(env: NodeJS.ProcessEnv = process.env): StoreLoadOptions {
  const seconds = Number(env.FLOWER_LOAD_SECONDS ?? 60);
  const runners = Number(env.FLOWER_LOAD_RUNNERS ?? 20);
  if (!(seconds > 0) || !Number.isInteger(runners) || runners < 1)
    throw new Error(
      `FLOWER_LOAD_SECONDS must be > 0 and FLOWER_LOAD_RUNNERS a positive integer (got ${env.FLOWER_LOAD_SECONDS}, ${env.FLOWER_LOAD_RUNNERS})`,
    );
  const backends = (env.FLOWER_LOAD_BACKENDS ?? "postgres,sqlite").split(",").map((name) => name.trim());
  for (const backend of backends)
    if (backend !== "postgres" && backend !== "sqlite")
      throw new Error(`FLOWER_LOAD_BACKENDS: unknown backend "${backend}" (postgres, sqlite)`);
  const flushes = (env.FLOWER_LOAD_FLUSH ?? "batched,eager").split(",").map((name) => name.trim());
  for (const flush of flushes)
    if (flush !== "batched" && flush !== "eager")
      throw new Error(`FLOWER_LOAD_FLUSH: unknown flush "${flush}" (batched, eager)`);
  const writerEntries = Number(env.FLOWER_LOAD_WRITER_ENTRIES ?? 2000);
  if (!Number.isInteger(writerEntries) || writerEntries < 1)
    throw new Error(
      `FLOWER_LOAD_WRITER_ENTRIES must be a positive integer (got ${env.FLOWER_LOAD_WRITER_ENTRIES})`,
    );
  return {
    seconds,
    runners,
    backends: backends as Backend[],
    flushes: flushes as Flush[],
    writerEntries,
    ...(env.FLOWER_BENCH_POSTGRES_URL ? { postgresUrl: env.FLOWER_BENCH_POSTGRES_URL } : {}),
  };
}

/** One writer alone, one flush mode: what an entry costs a single session's writer. */
export interface FlushCostResult {
  backend: Backend;
  flush: Flush;
  entries: number;
  appends: number;
  totalMs: number;
  msPerEntry: number;
  lost: number;
  duplicated: number;
}

/**
 * One writer appends `entries` entries of realistic turns to a fresh transcript, in one flush mode, and
 * reads them back. No other writer: the time per entry is the round trip an eager flush adds per frame.
 */
async function flushCost(
  backend: Backend,
  target: string,
  entries: number,
  flush: Flush,
): Promise<FlushCostResult> {
  const store = open(backend, target, false);
  await store.ready?.();
  const key = { projectKey: PROJECT, sessionId: `writer-${flush}-${process.pid}-${Date.now()}` };
  const counter: Counter = { n: 0, last: null };
  const sent: string[] = [];
  let appends = 0;
  let totalMs = 0;
  let turn = 0;
  while (sent.length < entries) {
    turn += 1;
    const batch = turnEntries(key.sessionId, turn, counter);
    const latencies = await appendTurn(store, key, batch, flush, false);
    appends += latencies.length;
    totalMs += latencies.reduce((sum, ms) => sum + ms, 0);
    for (const entry of batch) if (entry.uuid) sent.push(entry.uuid);
  }
  const loaded = ((await store.load(key)) ?? [])
    .map((entry) => entry.uuid)
    .filter((uuid): uuid is string => typeof uuid === "string");
  await store.close();
  const have = new Set(loaded);
  const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
  return {
    backend,
    flush,
    entries: sent.length,
    appends,
    totalMs: round(totalMs, 0),
    msPerEntry: round(totalMs / sent.length, 3),
    lost: sent.filter((uuid) => !have.has(uuid)).length,
    duplicated: loaded.length - have.size,
  };
}

export function describeFlushCost(result: FlushCostResult): string {
  return (
    `${result.backend.padEnd(8)} one writer, ${result.flush.padEnd(7)}: ${result.msPerEntry} ms per entry ` +
    `(${result.entries} entries in ${result.appends} appends, ${result.totalMs} ms); ` +
    `lost ${result.lost}, duplicated ${result.duplicated}`
  );
}

export interface StoreLoadRun {
  loads: StoreLoadResult[];
  flushCosts: FlushCostResult[];
}

/** The fleet flush modes a backend runs: SQLite stays batched (flower never asks it for eager). */
function flushesOf(backend: Backend, flushes: Flush[]): Flush[] {
  return backend === "sqlite" ? flushes.filter((flush) => flush === "batched") : flushes;
}

export async function runStoreLoad(options: StoreLoadOptions): Promise<StoreLoadRun> {
  const results: StoreLoadResult[] = [];
  const flushCosts: FlushCostResult[] = [];
  for (const backend of options.backends) {
    if (backend === "postgres") {
      const server = options.postgresUrl
        ? null
        : await startPostgresServer({
            durable: true,
            maxConnections: options.runners + 20,
            sharedBuffers: "128MB",
          });
      try {
        const url = options.postgresUrl ?? server!.url;
        for (const flush of ["batched", "eager"] as const)
          flushCosts.push(await flushCost("postgres", url, options.writerEntries, flush));
        for (const flush of flushesOf("postgres", options.flushes))
          results.push(await loadTest("postgres", url, options.runners, options.seconds, flush));
      } finally {
        await server?.stop();
      }
    } else {
      const dir = mkdtempSync(join(tmpdir(), "flower-sqlite-load-"));
      try {
        for (const flush of ["batched", "eager"] as const)
          flushCosts.push(await flushCost("sqlite", join(dir, "writer.db"), options.writerEntries, flush));
        for (const flush of flushesOf("sqlite", options.flushes))
          results.push(
            await loadTest("sqlite", join(dir, "sessions.db"), options.runners, options.seconds, flush),
          );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  return { loads: results, flushCosts };
}

export function describeLoad(result: StoreLoadResult): string {
  return (
    `${result.backend.padEnd(8)} ${(result.flush ?? "batched").padEnd(7)} ${result.runners} runners × ${result.seconds}s ` +
    `(load ${result.loadAverageAtStart ?? "?"} → ${result.loadAverage}): ` +
    `${result.entriesPerSecond} entries/s, append p50 ${result.appendMs.p50} ms, p95 ${result.appendMs.p95} ms, ` +
    `p99 ${result.appendMs.p99} ms, ${result.writerMsPerEntry ?? "?"} ms per entry per writer; stored ${result.stored}, lost ${result.lost}, duplicated ${result.duplicated}, ` +
    `misordered transcripts ${result.misorderedTranscripts}`
  );
}

/** The results that lost, duplicated or reordered an entry (the run then fails). */
export function brokenLoads(results: StoreLoadResult[]): StoreLoadResult[] {
  return results.filter((r) => r.lost > 0 || r.duplicated > 0 || r.misorderedTranscripts > 0);
}

/** A lone writer's run that lost or duplicated an entry: as broken as a fleet's. */
export function brokenFlushCosts(results: FlushCostResult[]): FlushCostResult[] {
  return results.filter((r) => r.lost > 0 || r.duplicated > 0);
}

export function brokenLoadsError(broken: StoreLoadResult[]): Error {
  return new Error(
    `store load lost, duplicated or reordered entries: ${broken.map(describeLoad).join("; ")}`,
  );
}

/**
 * The bench's workload: runs, prints, writes `<benchDir>/postgres-load.json`. It does not throw on a lost
 * entry, so the caller can record the failed result first; it must then fail (see `brokenLoads`).
 */
export async function storeLoadWorkload(benchDir: string, write: boolean): Promise<StoreLoadRun> {
  console.log("postgres (store load)");
  const run = await runStoreLoad(storeLoadOptions());
  for (const result of run.flushCosts) console.log(`  ${describeFlushCost(result)}`);
  for (const result of run.loads) console.log(`  ${describeLoad(result)}`);
  if (write)
    writeFileSync(
      join(benchDir, "postgres-load.json"),
      `${JSON.stringify({ date: new Date().toISOString(), storeLoad: run.loads, flushCost: run.flushCosts }, null, 2)}\n`,
    );
  const broken = brokenFlushCosts(run.flushCosts);
  if (broken.length > 0)
    throw new Error(`a lone writer lost or duplicated entries: ${broken.map(describeFlushCost).join("; ")}`);
  return run;
}

if (process.argv[1] === SELF) {
  if (process.argv[2] === "--runner") {
    const [, , , backend, target, index, out, flush] = process.argv;
    await runner(backend as Backend, target!, Number(index), out!, (flush ?? "batched") as Flush);
  } else {
    const benchDir = join(SELF, "..", "..");
    const broken = brokenLoads(
      (await storeLoadWorkload(benchDir, !process.argv.includes("--no-write"))).loads,
    );
    if (broken.length > 0) throw brokenLoadsError(broken);
  }
}
