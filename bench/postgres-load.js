#!/usr/bin/env node
/**
 * Store load test (SPEC S4): N runner processes append realistic batches to ONE store for a fixed time,
 * first against PostgreSQL, then against SQLite for comparison. Reports entries/s, append latency
 * (p50/p95/p99) and checks afterwards that every entry is there exactly once and in order (counts and
 * uuids per session, with SDK-style retries of some batches, which must add nothing).
 *
 *   npm run build && node bench/postgres-load.js
 *
 * Environment: FLOWER_LOAD_SECONDS (default 60), FLOWER_LOAD_RUNNERS (20), FLOWER_LOAD_BACKENDS
 * ("postgres,sqlite"), FLOWER_BENCH_POSTGRES_URL (an existing server; default: a throwaway cluster from
 * `pg_config --bindir`, run as the postgres user when root), FLOWER_LOAD_OUT (write the JSON result there).
 * Exit code 1 when an entry was lost or duplicated.
 */
import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { PostgresSessionStore } from "../dist/store/postgres/postgres-store.js";
import { SqliteSessionStore } from "../dist/store/sqlite-store.js";

const SELF = fileURLToPath(import.meta.url);
const PROJECT = "-bench-repo";

// ---------------------------------------------------------------------------------------------- batches

/** A turn as the CLI mirrors it: assistant text, 1–3 tool calls, their results (short, medium, long). */
function turnEntries(prefix, turn, counter) {
  const entries = [];
  const base = (type) => {
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
    };
    counter.last = entry.uuid;
    entries.push(entry);
    return entry;
  };
  const message = {
    id: `msg_${turn}`,
    model: "claude-opus-5-5",
    role: "assistant",
    type: "message",
    stop_reason: "tool_use",
    usage: { input_tokens: 100, cache_read_input_tokens: 20000, output_tokens: 80 },
  };
  base("assistant").message = { ...message, content: [{ type: "text", text: "Reading the next file." }] };
  const calls = 1 + (turn % 3);
  for (let i = 0; i < calls; i += 1)
    base("assistant").message = {
      ...message,
      content: [
        { type: "tool_use", id: `toolu_${turn}_${i}`, name: "Read", input: { file_path: `/repo/f${i}` } },
      ],
    };
  for (let i = 0; i < calls; i += 1) {
    const size = turn % 11 === 0 ? 12_000 : turn % 4 === 0 ? 2_500 : 300;
    base("user").message = {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `toolu_${turn}_${i}`, content: "x".repeat(size) }],
    };
  }
  if (turn % 10 === 0) entries.push({ type: "cost-state", totalCostUSD: turn / 100, runner: prefix });
  return entries;
}

// ----------------------------------------------------------------------------------------------- runner

async function runner(backend, target, index, outFile) {
  const store =
    backend === "postgres"
      ? new PostgresSessionStore({ url: target, maxConnections: 1 })
      : new SqliteSessionStore({ path: target, busyTimeoutMs: 60_000 });
  if (store.ready) await store.ready();
  // All runners start together: connect first, say so, then wait for the common deadline.
  process.stdout.write("ready\n");
  const deadline = await new Promise((resolve) => {
    let buffered = "";
    process.stdin.on("data", (chunk) => {
      buffered += chunk;
      const match = /^go (\d+)\n/.exec(buffered);
      if (match) {
        process.stdin.destroy();
        resolve(Number(match[1]));
      }
    });
  });
  const sessionId = `runner-${index}`;
  const main = { projectKey: PROJECT, sessionId };
  const sub = { ...main, subpath: "subagents/agent-a" };
  const counters = { main: { n: 0, last: null }, sub: { n: 0, last: null } };
  const expected = { main: [], sub: [] };
  const latencies = [];
  let entries = 0;
  let turn = 0;
  while (Date.now() < deadline) {
    turn += 1;
    const which = turn % 5 === 0 ? "sub" : "main";
    const key = which === "sub" ? sub : main;
    const batch = turnEntries(`${sessionId}-${which}`, turn, counters[which]);
    const started = performance.now();
    await store.append(key, batch);
    latencies.push(performance.now() - started);
    entries += batch.length;
    for (const entry of batch) if (entry.uuid) expected[which].push(entry.uuid);
    // The SDK retries a batch whose append it could not confirm: every 7th is sent twice.
    if (turn % 7 === 0) await store.append(key, batch);
  }
  await store.close();
  writeFileSync(outFile, JSON.stringify({ index, entries, latencies, expected }));
}

// ----------------------------------------------------------------------------------------------- server

async function startCluster() {
  const bindir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "flower-pg-load-"));
  chmodSync(dir, 0o700);
  if (root) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }));
    chownSync(dir, uid, gid);
  }
  const as = (program, args) =>
    root ? ["runuser", ["-u", "postgres", "--", program, ...args]] : [program, args];
  const data = join(dir, "data");
  const [initdb, initArgs] = as(join(bindir, "initdb"), [
    "-D",
    data,
    "-U",
    "flower",
    "-A",
    "trust",
    "-E",
    "UTF8",
    "--locale=C",
    "--no-sync",
  ]);
  execFileSync(initdb, initArgs, { stdio: "pipe", cwd: dir });
  const port = await new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.once("error", reject);
  });
  const log = openSync(join(dir, "server.log"), "a");
  const [postgres, args] = as(join(bindir, "postgres"), [
    "-D",
    data,
    "-p",
    String(port),
    "-k",
    dir,
    "-h",
    "127.0.0.1",
    // Durability as a real server has it (fsync on): the numbers should mean something.
    "-c",
    "max_connections=100",
    "-c",
    "shared_buffers=128MB",
  ]);
  const child = spawn(postgres, args, { stdio: ["ignore", log, log], cwd: dir });
  closeSync(log);
  const url = `postgres://flower@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`postgres did not start: ${error}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const pid = () => Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  const stop = async () => {
    try {
      process.kill(pid(), "SIGINT");
    } catch {
      /* already gone */
    }
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", resolve)));
    rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", () => {
    try {
      process.kill(pid(), "SIGQUIT");
    } catch {
      /* already gone */
    }
  });
  return { url, stop };
}

// ------------------------------------------------------------------------------------------------- main

function percentile(sorted, p) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function verify(backend, target, results) {
  const store =
    backend === "postgres"
      ? new PostgresSessionStore({ url: target })
      : new SqliteSessionStore({ path: target });
  let lost = 0;
  let duplicated = 0;
  let misordered = 0;
  let stored = 0;
  for (const result of results) {
    for (const which of ["main", "sub"]) {
      const key = {
        projectKey: PROJECT,
        sessionId: `runner-${result.index}`,
        ...(which === "sub" ? { subpath: "subagents/agent-a" } : {}),
      };
      const loaded = ((await store.load(key)) ?? []).filter((entry) => entry.uuid).map((entry) => entry.uuid);
      const want = result.expected[which];
      stored += loaded.length;
      const have = new Set(loaded);
      duplicated += loaded.length - have.size;
      lost += want.filter((uuid) => !have.has(uuid)).length;
      if (loaded.join("\n") !== want.join("\n")) misordered += 1;
    }
  }
  await store.close();
  return { stored, lost, duplicated, misorderedTranscripts: misordered };
}

async function loadTest(backend, target, runners, seconds) {
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
      const child = spawn(process.execPath, [SELF, "--runner", backend, target, String(index), out], {
        stdio: ["pipe", "pipe", "inherit"],
      });
      const exited = new Promise((resolve, reject) =>
        child.once("exit", (code) =>
          code === 0 ? resolve() : reject(new Error(`runner ${index} exited ${code}`)),
        ),
      );
      const ready = new Promise((resolve, reject) => {
        let seen = "";
        child.stdout.on("data", (chunk) => {
          seen += chunk;
          if (seen.includes("ready\n")) resolve();
        });
        exited.then(() => reject(new Error(`runner ${index} exited before it was ready`)), reject);
      });
      return { child, exited, ready };
    });
    await Promise.all(children.map((runner) => runner.ready));
    const started = Date.now();
    for (const { child } of children) child.stdin.write(`go ${started + seconds * 1000}\n`);
    await Promise.all(children.map((runner) => runner.exited));
    const wall = (Date.now() - started) / 1000;
    const results = Array.from({ length: runners }, (_, index) =>
      JSON.parse(readFileSync(join(dir, `runner-${index}.json`), "utf8")),
    );
    const latencies = results.flatMap((result) => result.latencies).sort((a, b) => a - b);
    const entries = results.reduce((sum, result) => sum + result.entries, 0);
    const check = await verify(backend, target, results);
    const round = (value) => Math.round(value * 10) / 10;
    return {
      backend,
      runners,
      seconds,
      wallSeconds: round(wall),
      loadAverage: round(loadavg()[0]),
      appends: latencies.length,
      entries,
      entriesPerSecond: Math.round(entries / seconds),
      appendMs: {
        p50: round(percentile(latencies, 50)),
        p95: round(percentile(latencies, 95)),
        p99: round(percentile(latencies, 99)),
        max: round(latencies.at(-1) ?? 0),
      },
      ...check,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const seconds = Number(process.env.FLOWER_LOAD_SECONDS ?? 60);
  const runners = Number(process.env.FLOWER_LOAD_RUNNERS ?? 20);
  const backends = (process.env.FLOWER_LOAD_BACKENDS ?? "postgres,sqlite")
    .split(",")
    .map((name) => name.trim());
  if (!(seconds > 0) || !Number.isInteger(runners) || runners < 1)
    throw new Error(
      `FLOWER_LOAD_SECONDS must be > 0 and FLOWER_LOAD_RUNNERS a positive integer (got ${seconds}, ${runners})`,
    );
  const results = [];
  for (const backend of backends) {
    if (backend === "postgres") {
      const external = process.env.FLOWER_BENCH_POSTGRES_URL;
      const cluster = external ? null : await startCluster();
      try {
        results.push(await loadTest("postgres", external ?? cluster.url, runners, seconds));
      } finally {
        await cluster?.stop();
      }
    } else if (backend === "sqlite") {
      const dir = mkdtempSync(join(tmpdir(), "flower-sqlite-load-"));
      try {
        results.push(await loadTest("sqlite", join(dir, "sessions.db"), runners, seconds));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } else throw new Error(`FLOWER_LOAD_BACKENDS: unknown backend "${backend}" (postgres, sqlite)`);
  }
  for (const r of results)
    console.log(
      `${r.backend.padEnd(8)} ${r.runners} runners × ${r.seconds}s (load ${r.loadAverage}): ${r.entriesPerSecond} entries/s, append p50 ${r.appendMs.p50} ms, p95 ${r.appendMs.p95} ms, p99 ${r.appendMs.p99} ms; stored ${r.stored}, lost ${r.lost}, duplicated ${r.duplicated}, misordered transcripts ${r.misorderedTranscripts}`,
    );
  console.log(JSON.stringify({ storeLoad: results }));
  if (process.env.FLOWER_LOAD_OUT)
    writeFileSync(process.env.FLOWER_LOAD_OUT, `${JSON.stringify({ storeLoad: results }, null, 2)}\n`);
  if (results.some((r) => r.lost > 0 || r.duplicated > 0 || r.misorderedTranscripts > 0))
    process.exitCode = 1;
}

if (process.argv[2] === "--runner") {
  const [, , , backend, target, index, out] = process.argv;
  await runner(backend, target, Number(index), out);
} else {
  await main();
}
