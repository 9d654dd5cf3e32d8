/**
 * Workload 5's driver: the process a user runs. It holds the SDK's `query()` (modes a and b) or
 * flower's `Runtime` (mode c) and nothing else, so its memory is the driver's own: the offline model
 * kit, which keeps every request body, runs in the parent (horizon-mode.ts).
 *
 * Started by `fork()` with `--expose-gc`; the parent sends its configuration, asks for a memory sample
 * at every 100th sub-task (while the driver waits for the kit's reply, so it is idle), and receives
 * the outcome at the end.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { HandoffPolicy, Runtime, coordinator, subagent, type FlowerEvent } from "flower-agent";
import { drain, sdkOptions, WORKER_DESCRIPTION, WORKER_INSTRUCTIONS, type Switch } from "./economy.js";
import { taskPrompt, type Mode } from "./workload.js";

export interface DriverConfig {
  mode: Mode;
  window: number;
  subtasks: number;
  workspace: string;
  runDir: string;
  env: Record<string, string>;
  /** flower only: the handoff policy's headroom (the line is window − headroom) and its rule. */
  headroom?: number;
  rule?: "line" | "cost";
}

export interface MemorySample {
  /** Resident set of this process after a full GC, MB. */
  rssMb: number;
  heapUsedMb: number;
  /** Memory of C++ objects bound to JS objects, and of ArrayBuffers/Buffers, MB: outside the heap. */
  externalMb?: number;
  arrayBuffersMb?: number;
  /** Resident set of the `claude` processes this driver started, MB (the CLI is a process of its own). */
  cliRssMb: number;
  /** V8's committed heap (used or not), MB: what the heap holds of the RSS. */
  heapTotalMb?: number;
  /** The RSS split by /proc/self/status: anonymous pages (heap, malloc, V8) and mapped files (code). */
  rssAnonMb?: number;
  rssFileMb?: number;
  /** Open file descriptors of this process: a handle that leaks (a database, a pipe) shows here. */
  fds?: number;
  /** With FLOWER_BENCH_SQLITE_COUNT=1: SQLite databases open now, statements prepared so far and still alive after the GC. */
  sqlite?: { open: number; opened: number; prepared: number; alive: number };
}

export interface DriverOutcome {
  ok: boolean;
  error?: string;
  generations: number;
  degraded: number;
  spills: number;
  switches: Switch[];
}

export type DriverMessage =
  | { type: "sample"; id: number; sample: MemorySample }
  | { type: "resume" }
  | { type: "done"; outcome: DriverOutcome };

export type ParentMessage = { type: "start"; config: DriverConfig } | { type: "sample"; id: number };

const WORKER_TOOLS = ["Bash", "Read"];

function send(message: DriverMessage): void {
  process.send?.(message);
}

/** Resident set of every descendant of this process (Linux /proc), in MB; 0 where /proc is missing. */
function descendantsRssMb(): number {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  for (const name of entries) {
    try {
      const stat = readFileSync(join("/proc", name, "stat"), "utf8");
      // The command name may hold spaces and parentheses: the fields after the last ')' are fixed.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const pid = Number(name);
      parents.set(pid, Number(fields[1]));
      rss.set(pid, Number(fields[21]) * 4096);
    } catch {
      // The process ended while we read.
    }
  }
  let total = 0;
  for (const pid of parents.keys()) {
    let parent = parents.get(pid);
    while (parent !== undefined && parent > 1 && parent !== process.pid) parent = parents.get(parent);
    if (parent === process.pid) total += rss.get(pid) ?? 0;
  }
  return Math.round(total / 2 ** 20);
}

/** RssAnon and RssFile of this process in MB, from /proc/self/status; null where /proc is missing. */
function rssSplit(): { rssAnonMb: number; rssFileMb: number } | null {
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { rssAnonMb: Math.round(kb("RssAnon") / 1024), rssFileMb: Math.round(kb("RssFile") / 1024) };
  } catch {
    return null;
  }
}

function openFds(): number | undefined {
  try {
    return readdirSync("/proc/self/fd").length;
  } catch {
    return undefined;
  }
}

/**
 * A diagnostic (FLOWER_BENCH_SQLITE_COUNT=1 or FLOWER_BENCH_SQLITE_CACHE_KIB): counts better-sqlite3 databases opened and closed and
 * statements prepared, and how many statements a GC has not yet collected (each holds a native
 * sqlite3_stmt until its object is collected). It patches the prototype of the one better-sqlite3
 * module the runtime loads, so it is off in the measured runs.
 */
const sqliteCount = { open: new Set<object>(), opened: 0, prepared: 0, alive: 0 };
async function countSqlite(): Promise<void> {
  const { createRequire } = await import("node:module");
  const require = createRequire(import.meta.url);
  const Database = require("better-sqlite3") as {
    prototype: Record<string, (...args: unknown[]) => unknown>;
  };
  const registry = new FinalizationRegistry<void>(() => (sqliteCount.alive -= 1));
  const { prepare, pragma, close } = Database.prototype;
  Database.prototype.prepare = function (this: object, ...args: unknown[]) {
    const statement = prepare!.apply(this, args) as object;
    sqliteCount.prepared += 1;
    sqliteCount.alive += 1;
    registry.register(statement);
    return statement;
  };
  // FLOWER_BENCH_SQLITE_CACHE_KIB: the page cache flower sets (openWal) replaced by this one, to
  // measure what the cache holds of the RSS (16000: better-sqlite3's default, flower's before 2 MB).
  const cacheKib = process.env.FLOWER_BENCH_SQLITE_CACHE_KIB;
  // openWal() sets the journal mode first on every database flower opens.
  Database.prototype.pragma = function (this: object, ...args: unknown[]) {
    if (!sqliteCount.open.has(this)) {
      sqliteCount.open.add(this);
      sqliteCount.opened += 1;
    }
    if (cacheKib !== undefined && typeof args[0] === "string" && args[0].startsWith("cache_size ="))
      return pragma!.apply(this, [`cache_size = -${cacheKib}`]);
    return pragma!.apply(this, args);
  };
  Database.prototype.close = function (this: object, ...args: unknown[]) {
    sqliteCount.open.delete(this);
    return close!.apply(this, args);
  };
}

function sample(): MemorySample {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const usage = process.memoryUsage();
  const fds = openFds();
  return {
    rssMb: Math.round(usage.rss / 2 ** 20),
    heapUsedMb: Math.round(usage.heapUsed / 2 ** 20),
    externalMb: Math.round(usage.external / 2 ** 20),
    arrayBuffersMb: Math.round(usage.arrayBuffers / 2 ** 20),
    cliRssMb: descendantsRssMb(),
    heapTotalMb: Math.round(usage.heapTotal / 2 ** 20),
    ...(rssSplit() ?? {}),
    ...(fds !== undefined ? { fds } : {}),
    ...(process.env.FLOWER_BENCH_SQLITE_COUNT === "1" || process.env.FLOWER_BENCH_SQLITE_CACHE_KIB
      ? {
          sqlite: {
            open: sqliteCount.open.size,
            opened: sqliteCount.opened,
            prepared: sqliteCount.prepared,
            alive: sqliteCount.alive,
          },
        }
      : {}),
  };
}

async function drive(config: DriverConfig): Promise<DriverOutcome> {
  const prompt = taskPrompt(config.subtasks);
  const none = { generations: 1, degraded: 0, spills: 0, switches: [] };
  if (config.mode === "plain") {
    const outcome = await drain(
      {
        ...sdkOptions(config.workspace, config.env, config.window),
        tools: WORKER_TOOLS,
        allowedTools: WORKER_TOOLS,
      },
      prompt,
    );
    return { ...none, ...outcome };
  }
  if (config.mode === "subagents") {
    const tools = ["Agent", ...WORKER_TOOLS];
    const outcome = await drain(
      {
        ...sdkOptions(config.workspace, config.env, config.window),
        tools,
        allowedTools: tools,
        agents: {
          worker: {
            description: WORKER_DESCRIPTION,
            prompt: WORKER_INSTRUCTIONS,
            tools: WORKER_TOOLS,
            model: "inherit",
            background: false,
          },
        },
      },
      prompt,
    );
    return { ...none, ...outcome };
  }
  // The defaults, as a user runs a night-long job: no generation cap to raise (the loop brake stops only
  // generations that do no work; the cost rule needs dozens for 1,000 sub-tasks).
  const policy = new HandoffPolicy({
    window: config.window,
    ...(config.headroom !== undefined ? { headroom: config.headroom } : {}),
    ...(config.rule !== undefined ? { rule: config.rule } : {}),
  });
  const switches: Switch[] = [];
  const rt = new Runtime({
    workspace: config.workspace,
    runDir: config.runDir,
    env: config.env,
    workbench: true,
    handoff: policy,
    locale: "en",
    onEvent: (event: FlowerEvent) => {
      if (
        (event.type === "handoff" && event.phase === "writing") ||
        (event.type === "step-start" && event.resume)
      )
        send({ type: "resume" });
      if (event.type === "handoff" && event.phase === "writing")
        switches.push({
          generation: event.generation,
          context: event.context,
          at: policy.at,
          degraded: false,
        });
      if (event.type === "handoff" && event.phase === "done") {
        const last = switches.at(-1);
        if (last) {
          last.degraded = event.degraded === true;
          last.cutCalls = event.cutCalls ?? 0;
          last.finishedCalls = event.finishedCalls ?? 0;
        }
      }
    },
  });
  try {
    const lead = coordinator("lead", "Work through the sub-tasks with workers.", {
      worker: subagent(WORKER_DESCRIPTION, WORKER_INSTRUCTIONS, { tools: WORKER_TOOLS }),
    });
    const result = await rt.run("horizon", lead, prompt);
    // A step that ended otherwise (a drift pause, a budget) did not do the workload: not ok, and why.
    if (result.status !== "done")
      return { ...none, switches, ok: false, error: `the step ended ${result.status}, not done` };
    return {
      ok: true,
      generations: result.generations,
      degraded: result.degraded,
      spills: result.spills,
      switches,
    };
  } catch (error) {
    return { ...none, switches, ok: false, error: String(error instanceof Error ? error.message : error) };
  } finally {
    rt.close();
  }
}

process.on("message", (message: ParentMessage) => {
  if (message.type === "sample") send({ type: "sample", id: message.id, sample: sample() });
  else if (message.type === "start")
    void (
      process.env.FLOWER_BENCH_SQLITE_COUNT === "1" || process.env.FLOWER_BENCH_SQLITE_CACHE_KIB
        ? countSqlite()
        : Promise.resolve()
    )
      .then(() => drive(message.config))
      .then((outcome) => {
        send({ type: "done", outcome });
        process.disconnect?.();
      });
});
