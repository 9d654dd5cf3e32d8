/**
 * Workload 5, one mode at one window: the offline model kit and the scripted model run here, the
 * driver (horizon-driver.ts) in a child process of its own, so the driver's memory is measured without
 * the kit's record of every request body. run.ts starts one of these processes per mode (`fork`), so
 * the modes run side by side on their own kits and this process's memory dies with it.
 *
 * Every figure is read off the kit's record afterwards; the scripted model only adds a pause at every
 * 100th sub-task, where it asks the driver for a memory sample before it answers.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeModel, type Exchange, type ModelRequest } from "flower-agent/testing";
import type { Switch } from "./economy.js";
import type {
  DriverConfig,
  DriverMessage,
  DriverOutcome,
  MemorySample,
  ParentMessage,
} from "./horizon-driver.js";
import { costWeighted, mainTurns, summarise, type ModeSummary } from "./metrics.js";
import { economyPolicy, subtasksDone, writeData, type Mode } from "./workload.js";

const here = dirname(fileURLToPath(import.meta.url));

export interface HorizonModeConfig {
  /** A name for logs and results: "b", "c", "c-60k", "c-cost", … */
  label: string;
  mode: Mode;
  window: number;
  subtasks: number;
  /** Sub-tasks per bucket of the per-100 table (100; smaller for a small run). */
  bucket: number;
  headroom?: number;
  rule?: "line" | "cost";
  /** Extra environment for the driver process (a diagnostic: e.g. MALLOC_ARENA_MAX). */
  driverEnv?: Record<string, string>;
}

/** What one request cost, split the way the price page splits it. */
export interface Tokens {
  requests: number;
  input: number;
  uncached: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  costWeighted: number;
}

export interface Bucket extends Tokens {
  /** The bucket covers sub-tasks (upTo − bucket, upTo]. */
  upTo: number;
  /** Main-thread context (prompt + output) of the request at which sub-task `upTo` had come back. */
  contextAtBoundary: number | null;
  generationsSoFar: number;
  compactionsSoFar: number;
  memory: MemorySample | null;
}

/** A handoff of (c): the writing turn, the successor's first request and its first turn with a result. */
export interface HandoffCost {
  contextBefore: number;
  writing: Tokens;
  startup: Tokens;
  firstBack: Tokens | null;
  /** The last ordinary main turn before the switch, for comparison. */
  turnBefore: Tokens | null;
}

/** A compaction of (b): the summary request and the first main request after it. */
export interface CompactionCost {
  contextBefore: number;
  contextAfter: number | null;
  summary: Tokens;
  firstAfter: Tokens | null;
  turnBefore: Tokens | null;
}

export interface HorizonModeResult extends Omit<ModeSummary, "breaks"> {
  label: string;
  mode: Mode;
  window: number;
  subtasks: number;
  headroom: number | null;
  rule: string | null;
  ok: boolean;
  error?: string;
  wallMs: number;
  compactions: number;
  generations: number;
  degraded: number;
  spills: number;
  switches: Switch[];
  startupFloors: number[];
  /** Requests the kit answered with an error (a request it rejects: too long, invalid). */
  rejected: number;
  kitErrors: string[];
  totals: Tokens;
  buckets: Bucket[];
  /** Cost-weighted input per sub-task, index 0 = sub-task 1 (the summary turn counts to the last). */
  costWeightedPerSubtask: number[];
  handoffs: HandoffCost[];
  compactionCosts: CompactionCost[];
  contextPerTurn: number[];
  /** Turns after which a handoff (flower) or a compaction (SDK) happened. */
  switchAfterTurns: number[];
  /** The first cache breaks within a session, if any (index, where). */
  breaks: ModeSummary["breaks"];
}

function emptyTokens(): Tokens {
  return { requests: 0, input: 0, uncached: 0, cacheRead: 0, cacheWrite: 0, output: 0, costWeighted: 0 };
}

function add(into: Tokens, exchange: Exchange): Tokens {
  const usage = exchange.usage;
  if (!usage) return into;
  into.requests += 1;
  into.input += exchange.promptTokens;
  into.uncached += usage.input_tokens;
  into.cacheRead += usage.cache_read_input_tokens;
  into.cacheWrite += usage.cache_creation_input_tokens;
  into.output += usage.output_tokens;
  into.costWeighted = Math.round(into.costWeighted + costWeighted(exchange));
  return into;
}

function tokensOf(exchange: Exchange | undefined): Tokens | null {
  return exchange ? add(emptyTokens(), exchange) : null;
}

/** The sub-task a request works on: a worker's brief, or the next one the main thread will send. */
function subtaskOf(request: ModelRequest, last: number): number {
  if (request.kind === "title") return last;
  if (request.isSubagent) {
    const match = /Sub-task (\d+):/.exec(request.firstUserText());
    return match ? Number(match[1]) : last;
  }
  return subtasksDone(request) + 1;
}

class Driver {
  readonly child: ChildProcess;
  readonly resumes: number[] = [];
  #samples = new Map<number, (sample: MemorySample) => void>();
  #next = 0;
  readonly done: Promise<DriverOutcome>;

  constructor(config: DriverConfig, exchangeCount: () => number, env?: Record<string, string>) {
    this.child = fork(join(here, "horizon-driver.js"), [], {
      execArgv: ["--expose-gc"],
      env: { ...process.env, ...env },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.done = new Promise((resolve) => {
      this.child.on("message", (message: DriverMessage) => {
        if (message.type === "resume") this.resumes.push(exchangeCount());
        else if (message.type === "sample") {
          this.#samples.get(message.id)?.(message.sample);
          this.#samples.delete(message.id);
        } else if (message.type === "done") resolve(message.outcome);
      });
      this.child.on("exit", (code) =>
        resolve({
          ok: false,
          error: `driver exited with ${code}`,
          generations: 0,
          degraded: 0,
          spills: 0,
          switches: [],
        }),
      );
    });
    this.child.send({ type: "start", config } satisfies ParentMessage);
  }

  sample(): Promise<MemorySample | null> {
    const id = this.#next++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), 30_000);
      this.#samples.set(id, (sample) => {
        clearTimeout(timer);
        resolve(sample);
      });
      this.child.send({ type: "sample", id } satisfies ParentMessage);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

export async function runHorizonMode(config: HorizonModeConfig): Promise<HorizonModeResult> {
  const root = mkdtempSync(join(tmpdir(), `flower-horizon-${config.label}-`));
  const workspace = join(root, "ws");
  const scripted = economyPolicy(config.mode, config.subtasks);
  const subtaskByRequest = new Map<number, number>();
  /** Boundary k (sub-task k × bucket came back): the request index and the driver's memory then. */
  const boundaries = new Map<number, { index: number; memory: MemorySample | null }>();
  let lastSubtask = 1;
  let driver: Driver | undefined;
  const model = await startFakeModel({
    contextWindow: config.window,
    policy: async (request) => {
      lastSubtask = subtaskOf(request, lastSubtask);
      subtaskByRequest.set(request.index, lastSubtask);
      if (request.kind === "main" && !request.isHandoffTurn) {
        const done = subtasksDone(request);
        for (let k = 1; k * config.bucket <= Math.min(done, config.subtasks); k++) {
          if (boundaries.has(k)) continue;
          boundaries.set(k, { index: request.index, memory: null });
          // The driver waits for this reply: it is idle, and its heap holds the run so far.
          const memory = driver ? await driver.sample() : null;
          boundaries.set(k, { index: request.index, memory });
        }
      }
      return scripted(request);
    },
  });
  let outcome: DriverOutcome | undefined;
  const started = performance.now();
  try {
    writeData(workspace, config.subtasks);
    driver = new Driver(
      {
        mode: config.mode,
        window: config.window,
        subtasks: config.subtasks,
        workspace,
        runDir: join(root, "runs"),
        env: model.env(),
        ...(config.headroom !== undefined ? { headroom: config.headroom } : {}),
        ...(config.rule !== undefined ? { rule: config.rule } : {}),
      },
      () => model.exchanges.length,
      config.driverEnv,
    );
    outcome = await driver.done;
    await driver.stop();
  } finally {
    await model.close();
    rmSync(root, { recursive: true, force: true });
  }
  const wallMs = Math.round(performance.now() - started);
  const exchanges: readonly Exchange[] = model.exchanges;
  const resumes = driver?.resumes ?? [];
  const summary = summarise(exchanges, resumes);
  const ok = exchanges.filter((exchange) => exchange.status === 200 && exchange.usage);

  const totals = emptyTokens();
  const perSubtask = new Array<number>(config.subtasks).fill(0);
  const buckets: Bucket[] = [];
  const bucketCount = Math.ceil(config.subtasks / config.bucket);
  for (let k = 1; k <= bucketCount; k++)
    buckets.push({
      ...emptyTokens(),
      upTo: Math.min(k * config.bucket, config.subtasks),
      contextAtBoundary: null,
      generationsSoFar: 0,
      compactionsSoFar: 0,
      memory: null,
    });
  for (const exchange of ok) {
    add(totals, exchange);
    const subtask = Math.min(config.subtasks, Math.max(1, subtaskByRequest.get(exchange.index) ?? 1));
    perSubtask[subtask - 1] = (perSubtask[subtask - 1] ?? 0) + costWeighted(exchange);
    add(buckets[Math.ceil(subtask / config.bucket) - 1]!, exchange);
  }
  for (const [k, boundary] of boundaries) {
    const bucket = buckets[k - 1];
    if (!bucket) continue;
    const before = exchanges.filter((exchange) => exchange.index <= boundary.index);
    const at = exchanges.find((exchange) => exchange.index === boundary.index);
    bucket.contextAtBoundary = at?.usage ? at.promptTokens + at.usage.output_tokens : null;
    bucket.compactionsSoFar = before.filter((exchange) => exchange.kind === "compact").length;
    bucket.generationsSoFar = new Set(
      before.filter((exchange) => exchange.kind === "main").map((exchange) => exchange.request.sessionId),
    ).size;
    bucket.memory = boundary.memory;
  }

  // Handoffs and compactions, priced request by request.
  const mains = ok.filter((exchange) => exchange.kind === "main");
  const handoffs: HandoffCost[] = [];
  const sessions: string[] = [];
  const floors: number[] = [];
  mains.forEach((exchange, position) => {
    const session = exchange.request.sessionId ?? "";
    if (sessions.includes(session)) return;
    sessions.push(session);
    floors.push(exchange.promptTokens + (exchange.usage?.output_tokens ?? 0));
    if (sessions.length === 1) return;
    // The writing turn(s) of the session before: the handoff-turn requests just before this one.
    const writing = emptyTokens();
    let first = position;
    while (first > 0 && mains[first - 1]!.request.isHandoffTurn) first -= 1;
    for (let i = first; i < position; i++) add(writing, mains[i]!);
    const before = mains[first - 1];
    const next = mains[position + 1];
    handoffs.push({
      contextBefore: before?.usage ? before.promptTokens + before.usage.output_tokens : 0,
      writing,
      startup: add(emptyTokens(), exchange),
      firstBack: next && next.request.sessionId === session ? tokensOf(next) : null,
      turnBefore: tokensOf(before),
    });
  });
  const compactionCosts: CompactionCost[] = [];
  ok.forEach((exchange, position) => {
    if (exchange.kind !== "compact") return;
    const before = [...ok.slice(0, position)].reverse().find((other) => other.kind === "main");
    const after = ok.slice(position + 1).find((other) => other.kind === "main");
    compactionCosts.push({
      contextBefore: before?.usage ? before.promptTokens + before.usage.output_tokens : 0,
      contextAfter: after?.usage ? after.promptTokens + after.usage.output_tokens : null,
      summary: add(emptyTokens(), exchange),
      firstAfter: tokensOf(after),
      turnBefore: tokensOf(before),
    });
  });
  const turns = mainTurns(exchanges);
  const switchAfterTurns: number[] = [];
  turns.forEach((turn, index) => {
    const next = turns[index + 1];
    if (next && (next.session !== turn.session || next.afterCompaction)) switchAfterTurns.push(turn.turn);
  });

  let result: DriverOutcome = outcome ?? {
    ok: false,
    error: "no outcome",
    generations: 0,
    degraded: 0,
    spills: 0,
    switches: [],
  };
  if (model.errors.length > 0 && result.ok)
    result = { ...result, ok: false, error: model.errors[0]!.message };
  const { breaks, ...rest } = summary;
  return {
    label: config.label,
    mode: config.mode,
    window: config.window,
    subtasks: config.subtasks,
    headroom: config.mode === "flower" ? (config.headroom ?? 50_000) : null,
    rule: config.mode === "flower" ? (config.rule ?? "line") : null,
    ...rest,
    breaks: breaks.filter((entry) => !entry.atResume).slice(0, 5),
    ok: result.ok,
    ...(result.error !== undefined ? { error: result.error } : {}),
    wallMs,
    compactions: exchanges.filter((exchange) => exchange.kind === "compact").length,
    generations: config.mode === "flower" ? result.generations : sessions.length,
    degraded: result.degraded,
    spills: result.spills,
    switches: result.switches,
    startupFloors: floors,
    rejected: exchanges.filter((exchange) => exchange.status !== 200).length,
    kitErrors: model.errors.slice(0, 3).map((error) => error.message),
    totals,
    buckets,
    costWeightedPerSubtask: perSubtask.map((value) => Math.round(value)),
    handoffs,
    compactionCosts,
    contextPerTurn: turns.map((turn) => turn.context),
    switchAfterTurns,
  };
}

/** Runs one mode in a process of its own (this file, forked), so its kit's memory dies with it. */
export function forkHorizonMode(config: HorizonModeConfig): Promise<HorizonModeResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ["--horizon-mode"], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      // The kit holds every request body of a 1,000-sub-task run: give it room.
      execArgv: ["--max-old-space-size=6144"],
    });
    let settled = false;
    child.on("message", (message: { result?: HorizonModeResult; error?: string }) => {
      settled = true;
      if (message.result) resolve(message.result);
      else reject(new Error(`${config.label}: ${message.error}`));
    });
    child.on("exit", (code) => {
      if (!settled) reject(new Error(`${config.label}: the mode's process exited with ${code}`));
    });
    child.send(config);
  });
}

if (process.argv.includes("--horizon-mode"))
  process.once("message", (config: HorizonModeConfig) => {
    runHorizonMode(config).then(
      (result) => process.send?.({ result }, () => process.disconnect()),
      (error: unknown) =>
        process.send?.(
          { error: error instanceof Error ? (error.stack ?? error.message) : String(error) },
          () => process.disconnect(),
        ),
    );
  });
