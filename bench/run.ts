/**
 * `npm run bench`: every workload once, then bench/results.json, the SVG charts and the results block of
 * bench/README.md are regenerated from what was measured.
 *
 *   node bench/dist/run.js [--only economy,long,hooks,store,postgres,horizon,lines,work,fleet] [--subtasks 40] [--long-subtasks 200]
 *                          [--long-window 90000] [--calls 300] [--full | --sequential] [--parallel]
 *                          [--horizon-windows 200000,90000] [--lines-window 90000] [--lines 60k,70k,cost]
 *                          [--work-files 10000] [--work-turns 20] [--work-rounds 2] [--work-checkpoints 1000]
 *                          [--work-samples 20] [--work-no-postgres] [--fleet-records 1000,10000]
 *                          [--import bench/dist/last-run.json]
 *                          [--no-write]
 *
 * Every comparing figure is a ratio of two modes measured in this run; absolute times on a shared
 * machine are noise.
 *
 * `--import <file>`: measure nothing, take the workloads of a `--no-write` run (its bench/dist/last-run.json)
 * as if measured now, and write results.json, the charts and the README from them.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { HandoffPolicy } from "flower-agent";
import * as prettier from "prettier";
import { integerArgument } from "./args.js";
import { lineChart, type Series } from "./chart.js";
import { runMode, type EconomyConfig, type ModeResult } from "./economy.js";
import { runHooks, type HookResult } from "./hooks.js";
import { forkHorizonMode, type HorizonModeConfig, type HorizonModeResult } from "./horizon-mode.js";
import { ratio } from "./metrics.js";
import {
  horizonCharts,
  horizonTargets,
  linesList,
  paysBlock,
  renderPays,
  type HorizonWindow,
  type LinesResults,
} from "./horizon-report.js";
import { measureInChild, type StoreSize } from "./store.js";
import { brokenLoads, brokenLoadsError, storeLoadWorkload, type StoreLoadResult } from "./postgres-load.js";
import {
  renderReadme,
  WORKLOADS,
  type Results,
  type RunInfo,
  type StoredMode,
  type Target,
  type Workload,
} from "./report.js";
import type { Mode } from "./workload.js";
import { runWork, WORK_DEFAULTS } from "./work.js";
import { fleetTargets, workTargets } from "./work-report.js";
import { FLEET_DEFAULTS, runFleetIdle } from "./fleet-idle.js";

const here = dirname(fileURLToPath(import.meta.url));
/** bench/ (this file runs from bench/dist/). */
const benchDir = join(here, "..");
const repo = join(benchDir, "..");

// `--live`: the real-model bench (bench/live/), nothing else of this file; see bench/README.md.
if (process.argv.includes("--live")) {
  const { liveBenchMain } = await import("./live/bench-main.js");
  const code = await liveBenchMain(process.argv.slice(2), { resultsFile: join(benchDir, "results.json") });
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  process.exit(code);
}

function selected(): Set<Workload> {
  // --render: no workload, only results.json → README block and charts again.
  if (process.argv.includes("--render")) return new Set();
  const index = process.argv.indexOf("--only");
  if (index === -1) return new Set(WORKLOADS);
  const names = (process.argv[index + 1] ?? "").split(",");
  for (const name of names)
    if (!(WORKLOADS as readonly string[]).includes(name))
      throw new Error(`--only: unknown workload ${JSON.stringify(name)}; one of ${WORKLOADS.join(", ")}`);
  return new Set(names as Workload[]);
}

function git(...args: string[]): string {
  try {
    return execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/**
 * `--full`: the modes of workloads 1 and 2 one after another (the sizes are the issue's by default), so
 * their wall-time ratios compare too; it takes longer than the default run (see README).
 */
const full = process.argv.includes("--full");
/**
 * The modes of workloads 1 and 2 run at the same time unless --sequential or --full: every token figure
 * is read off each mode's own kit, so it is the same either way; only their wall times share the CPU.
 */
const parallelModes = !full && !process.argv.includes("--sequential");
/** --parallel also runs the workloads at the same time: quickest, and workloads 3 and 4's times roughest. */
const parallel = process.argv.includes("--parallel");

async function modes(config: EconomyConfig): Promise<Record<string, ModeResult>> {
  const results: Record<string, ModeResult> = {};
  const one = async (mode: Mode) => {
    const result = await runMode(mode, config);
    results[mode] = result;
    console.log(
      `  ${mode} (${config.subtasks} sub-tasks, window ${config.window}): ${result.ok ? "ok" : `FAILED: ${result.error}`}; ` +
        `${result.requests} requests, peak ${result.mainPeak}, input ${result.totalInputTokens}, ` +
        `weighted ${result.costWeightedInput}, breaks ${result.cacheBreaks}+${result.cacheBreaksAtResume} at resume, ` +
        `generations ${result.generations}${handoffCalls(result)}, ${Math.round(result.wallMs / 1000)} s`,
    );
  };
  if (parallelModes || parallel) await Promise.all(config.modes.map(one));
  else for (const mode of config.modes) await one(mode);
  return results;
}

/** For flower's handoffs: how many calls of the crossing responses ran before the switch, how many it cut. */
function handoffCalls(result: ModeResult): string {
  if (result.switches.length === 0) return "";
  const sum = (key: "finishedCalls" | "cutCalls") =>
    result.switches.reduce((total, handoff) => total + (handoff[key] ?? 0), 0);
  return ` (calls at the switches: ${sum("finishedCalls")} let finish, ${sum("cutCalls")} cut)`;
}

const COLORS: Record<Mode, string> = { plain: "#d62728", subagents: "#1f77b4", flower: "#2ca02c" };
const LABELS: Record<Mode, string> = {
  plain: "(a) plain SDK agent",
  subagents: "(b) SDK subagents",
  flower: "(c) flower",
};

/** Turns after which the session ended (a handoff) or the conversation was compacted. */
function switches(result: ModeResult): number[] {
  const marks: number[] = [];
  result.turns.forEach((turn, index) => {
    const next = result.turns[index + 1];
    if (next && (next.session !== turn.session || next.afterCompaction)) marks.push(turn.turn);
  });
  return marks;
}

/** The per-turn list is kept as plain numbers (turn n = index n - 1), with the switch turns. */
function stored(result: ModeResult): StoredMode {
  const { turns, ...rest } = result;
  return { ...rest, contextPerTurn: turns.map((turn) => turn.context), switchAfterTurns: switches(result) };
}

function series(mode: StoredMode): Series {
  // Results written before switchAfterTurns existed: a drop of more than a fifth is a switch.
  const marks =
    mode.switchAfterTurns ??
    mode.contextPerTurn.flatMap((value, index) => {
      const next = mode.contextPerTurn[index + 1];
      return next !== undefined && next < value * 0.8 ? [index + 1] : [];
    });
  return {
    label: LABELS[mode.mode],
    color: COLORS[mode.mode],
    points: mode.contextPerTurn.map((value, index) => [index + 1, value]),
    marks,
  };
}

function target(name: string, wanted: string, measured: number | null | undefined, met: boolean): Target {
  return { name, target: wanted, measured: measured ?? null, met };
}

const started = performance.now();
/** `--import <file>`: the results of an earlier `--no-write` run, written out instead of measuring. */
const imported = importedResults();
const only = imported ? new Set(imported.workloads) : selected();

function importedResults(): Results | undefined {
  const index = process.argv.indexOf("--import");
  if (index === -1) return undefined;
  const file = process.argv[index + 1];
  if (!file || !existsSync(file))
    throw new Error(`--import needs a results file, got ${JSON.stringify(file)}`);
  const parsed = JSON.parse(readFileSync(file, "utf8")) as Results;
  if (!Array.isArray(parsed.workloads) || typeof parsed.commit !== "string")
    throw new Error(`--import: ${file} is not a bench results file (no workloads or commit)`);
  return parsed;
}
const write = !process.argv.includes("--no-write");
const results: Results = {
  date: new Date().toISOString(),
  commit: git("rev-parse", "HEAD"),
  // Generated files (results, charts, README) do not make the measured tree dirty.
  dirty: git("status", "--porcelain", "--", "src", "bench/*.ts", "package.json") !== "",
  node: process.version,
  platform: `${process.platform}-${process.arch}`,
  cpu: cpus()[0]?.model ?? "unknown",
  cpus: cpus().length,
  memoryGb: Math.round(totalmem() / 2 ** 30),
  loadAverageAtStart: loadavg().map((value) => Number(value.toFixed(2))),
  loadAverageAtEnd: [],
  parallelModes: parallelModes || parallel,
  workloads: [...only],
  totalSeconds: 0,
  economy: undefined,
  long: undefined,
  hooks: undefined,
  store: undefined,
  postgres: undefined,
  horizon: undefined,
  lines: undefined,
  work: undefined,
  fleet: undefined,
  targets: [],
};

async function storeWorkload(): Promise<void> {
  console.log("store");
  const sizes: StoreSize[] = [];
  for (const entries of [20_000, 100_000]) {
    const size = await measureInChild(entries);
    sizes.push(size);
    console.log(
      `  ${entries} entries: warm load + rewrite ${size.loadRewriteWarmMs} ms, peak ${size.peakRssMb} MB`,
    );
  }
  const [small, large] = sizes as [StoreSize, StoreSize];
  results.store = {
    sizes,
    perEntryGrowth: ratio(large.warmMsPerThousand, small.warmMsPerThousand, 2),
    rawPerEntryGrowth: ratio(large.rawLoadMs / large.entries, small.rawLoadMs / small.entries, 2),
  };
}

async function hooksWorkload(): Promise<void> {
  console.log("hooks");
  // The issue's 300 calls: about 70 s on a quiet machine (a call is ~60 ms); under a load of 5 or more a
  // call takes over a second (the CLI starts a login shell for each Bash call), so pass --calls 100 there.
  const calls = integerArgument("calls", 300);
  const hooks: HookResult = await runHooks(calls);
  console.log(
    `  wall ${hooks.wallRatio}× (empty callbacks ${hooks.wallRatioEmptyOverNone}× of none, flower ${hooks.wallRatioHooksOverEmpty}× of empty), ` +
      `added per call median ${hooks.addedMedianMs} ms, p95 ${hooks.addedP95Ms} ms; inside the callbacks per call ` +
      `${hooks.callbackMsHooks} ms (empty ${hooks.callbackMsEmpty} ms): flower's share ${hooks.ownShareTimed}×; ` +
      `paired in one session: flower ${hooks.pairedMedianFlowerMs} ms, empty ${hooks.pairedMedianEmptyMs} ms, ` +
      `median difference ${hooks.pairedMedianDiffMs} ms (${hooks.pairedRatio}×)`,
  );
  results.hooks = hooks;
}

async function economyWorkload(): Promise<void> {
  console.log("economy");
  const config: EconomyConfig = {
    subtasks: integerArgument("subtasks", 40),
    window: 200_000,
    modes: ["plain", "subagents", "flower"],
  };
  const runs = await modes(config);
  const plain = runs.plain!;
  const subagents = runs.subagents!;
  const flower = runs.flower!;
  results.economy = {
    subtasks: config.subtasks,
    window: config.window,
    modes: { plain: stored(plain), subagents: stored(subagents), flower: stored(flower) },
    ratios: {
      ...flowerOverSubagents(flower, subagents),
      peakFlowerOverPlain: ratio(flower.mainPeak, plain.mainPeak),
      finalFlowerOverPlain: ratio(flower.mainFinal, plain.mainFinal),
      costWeightedSubagentsOverPlain: ratio(subagents.costWeightedInput, plain.costWeightedInput),
      costWeightedFlowerOverPlain: ratio(flower.costWeightedInput, plain.costWeightedInput),
      wallFlowerOverPlain: ratio(flower.wallMs, plain.wallMs, 2),
    },
  };
}

async function longWorkload(): Promise<void> {
  console.log("long horizon");
  const config: EconomyConfig = {
    subtasks: integerArgument("long-subtasks", 200),
    window: integerArgument("long-window", 90_000),
    modes: ["subagents", "flower"],
  };
  const at = new HandoffPolicy({ window: config.window }).at;
  const runs = await modes(config);
  const subagents = runs.subagents!;
  const flower = runs.flower!;
  results.long = {
    subtasks: config.subtasks,
    window: config.window,
    at,
    modes: { subagents: stored(subagents), flower: stored(flower) },
    ratios: flowerOverSubagents(flower, subagents),
  };
}

/** The ratios workloads 1 and 2 both report: (c) flower over (b) the SDK's own subagents. */
function flowerOverSubagents(flower: ModeResult, subagents: ModeResult) {
  return {
    totalInputFlowerOverSubagents: ratio(flower.totalInputTokens, subagents.totalInputTokens),
    costWeightedFlowerOverSubagents: ratio(flower.costWeightedInput, subagents.costWeightedInput),
    sharedCacheCostWeightedFlowerOverSubagents: ratio(
      flower.costWeightedSharedCache,
      subagents.costWeightedSharedCache,
    ),
    peakFlowerOverSubagents: ratio(flower.mainPeak, subagents.mainPeak),
    wallFlowerOverSubagents: ratio(flower.wallMs, subagents.wallMs, 2),
  };
}

/** Sub-tasks per row of the per-100 table: 100 from 200 sub-tasks on, else a tenth of the run. */
function bucketOf(subtasks: number): number {
  return subtasks >= 200 ? 100 : Math.max(1, Math.round(subtasks / 10));
}

function logHorizon(result: HorizonModeResult): void {
  console.log(
    `  ${result.label} (${result.subtasks} sub-tasks, window ${result.window}): ${result.ok ? "ok" : `FAILED: ${result.error}`}; ` +
      `${result.requests} requests (${result.rejected} rejected), peak ${result.mainPeak}, input ${result.totalInputTokens}, ` +
      `weighted ${result.costWeightedInput}, breaks ${result.cacheBreaks}, compactions ${result.compactions}, ` +
      `generations ${result.generations}, degraded ${result.degraded}, ${Math.round(result.wallMs / 1000)} s`,
  );
}

async function horizonRun(config: HorizonModeConfig): Promise<HorizonModeResult> {
  const result = await forkHorizonMode(config);
  logHorizon(result);
  // Each mode as soon as it ends, so a run stopped part-way still leaves what it measured.
  mkdirSync(join(here, "horizon-partial"), { recursive: true });
  writeFileSync(join(here, "horizon-partial", `${config.label}.json`), `${JSON.stringify(result)}\n`);
  return result;
}

/**
 * Workload 5 (issue 26): 1,000 sub-tasks at windows 200k and 90k, (b) the SDK's subagents with
 * auto-compact at that window against (c) flower, each mode in a process of its own with its own kit and
 * all of them at the same time (token figures do not depend on it); (a) the plain agent at a tenth of
 * the size, for the price table only (its cost per sub-task is flat from its first compaction on).
 */
async function horizonWorkload(): Promise<void> {
  console.log("horizon");
  const subtasks = integerArgument("horizon-subtasks", 1000);
  const plainSubtasks = integerArgument("horizon-plain-subtasks", Math.max(1, Math.round(subtasks / 10)));
  const windows = listArgument("horizon-windows", [200_000, 90_000]);
  const bucket = bucketOf(subtasks);
  const runs = await Promise.all(
    windows.flatMap((window) => [
      horizonRun({ label: `b-${window / 1000}k`, mode: "subagents", window, subtasks, bucket }),
      horizonRun({ label: `c-${window / 1000}k`, mode: "flower", window, subtasks, bucket }),
      horizonRun({
        label: `a-${window / 1000}k`,
        mode: "plain",
        window,
        subtasks: plainSubtasks,
        bucket: plainSubtasks,
      }),
    ]),
  );
  results.horizon = {
    subtasks,
    plainSubtasks,
    bucket,
    windows: windows.map((window, index) => ({
      window,
      at: new HandoffPolicy({ window }).at,
      subagents: runs[index * 3]!,
      flower: runs[index * 3 + 1]!,
      plain: runs[index * 3 + 2]!,
    })),
  };
}

/**
 * Workload 6: the run's work as checkpoints, on the issue's repository (10,000 files, 200 MB): a turn
 * with and without checkpoints (ratio), the checkpoint alone, the store's bytes per checkpoint, and
 * 1,000 sub-tasks' checkpoints (bench/work.ts).
 */
async function workWorkload(): Promise<void> {
  console.log("work");
  const files = integerArgument("work-files", WORK_DEFAULTS.files);
  const result = await runWork(
    {
      ...WORK_DEFAULTS,
      files,
      // 100 files a folder, as the issue's 10,000 in 100 folders.
      folders: Math.max(1, Math.round(files / 100)),
      turns: integerArgument("work-turns", WORK_DEFAULTS.turns),
      rounds: integerArgument("work-rounds", WORK_DEFAULTS.rounds),
      samples: integerArgument("work-samples", WORK_DEFAULTS.samples),
      checkpoints: integerArgument("work-checkpoints", WORK_DEFAULTS.checkpoints),
      postgres: process.argv.includes("--work-no-postgres")
        ? false
        : (process.env.FLOWER_BENCH_POSTGRES_URL ?? true),
    },
    (line) => console.log(line),
  );
  if (!result.ok) console.log(`  work: PROBLEM: ${result.error}`);
  console.log(`  work: ${result.seconds} s`);
  results.work = result;
}

/**
 * Workload 7: an idle `flower worker --budget-per-day` over 1,000 and 10,000 step records: its CPU and
 * bytes read per tick, beside what the old tick (every record read, the day summed) cost (bench/fleet-idle.ts).
 */
async function fleetWorkload(): Promise<void> {
  console.log("fleet");
  const sizes = listArgument("fleet-records", FLEET_DEFAULTS.sizes);
  const result = await runFleetIdle(sizes, repo, (line) => console.log(line));
  if (!result.ok) console.log(`  fleet: PROBLEM: ${result.error}`);
  console.log(`  fleet: ${result.seconds} s`);
  results.fleet = result;
}

function linesWindow(): number {
  return integerArgument("lines-window", 90_000);
}

/**
 * Where to hand off: flower at one window (90k) with the seeds' line (window − 50k), lower lines
 * (− 60k, − 70k) and the cost rule, all at the same time. With the horizon workload in the same run
 * (and that window among its windows), its (c) at that window is the seeds' line: `seeds` waits for it.
 */
async function linesWorkload(seeds?: Promise<HorizonModeResult | undefined>): Promise<void> {
  console.log("lines");
  const subtasks = integerArgument("horizon-subtasks", 1000);
  const window = linesWindow();
  const bucket = bucketOf(subtasks);
  const config = (label: string, extra: Partial<HorizonModeConfig>): HorizonModeConfig => ({
    label,
    mode: "flower",
    window,
    subtasks,
    bucket,
    ...extra,
  });
  // --lines 60k,cost: only those beside the seeds' line (a 200k run of all four is long on a shared machine).
  const lines = linesChosen();
  const runs = await Promise.all([
    seeds ?? horizonRun(config("c-50k", {})),
    ...(lines.has("60k") ? [horizonRun(config("c-60k", { headroom: 60_000 }))] : []),
    ...(lines.has("70k") ? [horizonRun(config("c-70k", { headroom: 70_000 }))] : []),
    ...(lines.has("cost") ? [horizonRun(config("c-cost", { rule: "cost" }))] : []),
  ]);
  const first = runs[0] ?? (await horizonRun(config("c-50k", {})));
  results.lines = { window, subtasks, runs: [first, ...(runs.slice(1) as HorizonModeResult[])] };
}

const LINES = ["60k", "70k", "cost"] as const;

function linesChosen(): Set<string> {
  const index = process.argv.indexOf("--lines");
  if (index === -1) return new Set(LINES);
  const names = (process.argv[index + 1] ?? "").split(",");
  for (const name of names)
    if (!(LINES as readonly string[]).includes(name))
      throw new Error(`--lines: unknown line ${JSON.stringify(name)}; one of ${LINES.join(", ")}`);
  return new Set(names);
}

function listArgument(name: string, fallback: number[]): number[] {
  const index = process.argv.indexOf(`--${name}`);
  if (index === -1) return fallback;
  const values = (process.argv[index + 1] ?? "").split(",").map(Number);
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value < 1))
    throw new Error(
      `--${name} must be a comma-separated list of positive integers, got ${JSON.stringify(process.argv[index + 1])}`,
    );
  return values;
}

const chosen: Array<() => Promise<void>> = [];
if (only.has("store")) chosen.push(storeWorkload);
if (only.has("hooks")) chosen.push(hooksWorkload);
if (only.has("economy")) chosen.push(economyWorkload);
if (only.has("long")) chosen.push(longWorkload);
// The two run at the same time (every mode is a process of its own); lines reuses horizon's (c) at its
// window when horizon measures that window.
if (only.has("horizon") || only.has("lines"))
  chosen.push(async () => {
    const horizon = only.has("horizon") ? horizonWorkload() : undefined;
    const reuse =
      horizon && listArgument("horizon-windows", [200_000, 90_000]).includes(linesWindow())
        ? horizon.then(() => results.horizon?.windows.find((entry) => entry.window === linesWindow())?.flower)
        : undefined;
    await Promise.all([horizon, only.has("lines") ? linesWorkload(reuse) : undefined]);
  });
// 20 runner processes × 60 s against Postgres, then SQLite; also written alone to bench/postgres-load.json.
if (only.has("postgres"))
  chosen.push(async () => {
    results.postgres = { ...(await storeLoadWorkload(benchDir, write)) };
  });
if (only.has("work")) chosen.push(workWorkload);
if (only.has("fleet")) chosen.push(fleetWorkload);
// --parallel also runs the workloads at the same time: quicker on a loaded machine, rougher wall times.
if (imported) Object.assign(results, imported);
else if (parallel) await Promise.all(chosen.map((workload) => workload()));
else for (const workload of chosen) await workload();

// Each workload measured in this process records when, where and under what load (imported ones have it).
const run: RunInfo = {
  date: results.date,
  commit: results.commit,
  dirty: results.dirty,
  loadAverageAtStart: results.loadAverageAtStart,
  loadAverageAtEnd: loadavg().map((value) => Number(value.toFixed(2))),
  parallel,
  parallelModes: parallelModes || parallel,
};
if (!imported)
  for (const name of only) {
    const workload = results[name];
    // The load test has no modes; its backends run one after another.
    if (workload && !Array.isArray(workload))
      workload.run = name === "postgres" ? { ...run, parallelModes: false } : run;
  }

// A partial run (--only) keeps the other workloads' last results, read now rather than at the start,
// so two partial runs at the same time do not undo each other.
const previous = JSON.parse(readFileSync(join(benchDir, "results.json"), "utf8")) as Partial<Results>;
if (!only.has("economy")) results.economy = previous.economy;
if (!only.has("long")) results.long = previous.long;
if (!only.has("hooks")) results.hooks = previous.hooks;
if (!only.has("horizon")) results.horizon = previous.horizon;
else if (results.horizon && previous.horizon)
  results.horizon.windows = keptWindows(results.horizon, previous.horizon);
if (!only.has("work")) results.work = previous.work;
// The real-model bench (--live) is written by whoever ran it with a key; a run of the others keeps it.
if (previous.live !== undefined) results.live = previous.live;
if (!only.has("fleet")) results.fleet = previous.fleet;
if (!only.has("lines")) results.lines = previous.lines;
else results.lines = keptLines(results.lines, previous.lines);

/**
 * A horizon run of some windows keeps the windows of the run before that it did not measure (same size),
 * each with the run that measured it: a 200k run does not erase the 90k results, nor take their date.
 */
function keptWindows(
  measured: NonNullable<Results["horizon"]>,
  before: NonNullable<Results["horizon"]>,
): HorizonWindow[] {
  if (before.subtasks !== measured.subtasks || before.bucket !== measured.bucket) return measured.windows;
  const kept = before.windows
    .filter((entry) => !measured.windows.some((other) => other.window === entry.window))
    .map((entry) => ({ ...entry, ...((entry.run ?? before.run) ? { run: entry.run ?? before.run } : {}) }));
  if (kept.length === 0) return measured.windows;
  const now = measured.windows.map((entry) => ({
    ...entry,
    ...((entry.run ?? measured.run) ? { run: entry.run ?? measured.run } : {}),
  }));
  return [...now, ...kept].sort((a, b) => b.window - a.window);
}

/** The lines measured now, and those of the other windows from before. */
function keptLines(measured: Results["lines"], before: Results["lines"]): LinesResults[] {
  const now = linesList(measured);
  return [
    ...now,
    ...linesList(before).filter((entry) => !now.some((other) => other.window === entry.window)),
  ];
}
if (!only.has("store") && previous.store) {
  // Results of older runs carry a `postgres: null` placeholder here; the load test has its own key now.
  const { postgres: _placeholder, ...store } = previous.store as typeof previous.store & { postgres?: null };
  results.store = store;
}
if (!only.has("postgres")) results.postgres = previous.postgres ?? standaloneLoad();

/** A load test run alone (`node bench/dist/postgres-load.js`) before results.json had a place for it. */
function standaloneLoad(): Results["postgres"] {
  const file = join(benchDir, "postgres-load.json");
  if (!existsSync(file)) return undefined;
  const { storeLoad } = JSON.parse(readFileSync(file, "utf8")) as { storeLoad: StoreLoadResult[] };
  return { loads: storeLoad };
}

const charts: Record<string, string> = {};
if (results.economy) {
  const { modes, subtasks, window } = results.economy;
  charts["economy-context.svg"] = lineChart({
    title: `Workload 1: main-thread context per turn, ${subtasks} sub-tasks, window ${window / 1000}k`,
    series: [series(modes.plain), series(modes.subagents), series(modes.flower)],
    lines: [{ label: `window ${window / 1000}k`, value: window }],
  });
}
if (results.long) {
  const { modes, subtasks, window, at } = results.long;
  charts["long-context.svg"] = lineChart({
    title: `Workload 2: main-thread context per turn, ${subtasks} sub-tasks, window ${window / 1000}k`,
    series: [series(modes.subagents), series(modes.flower)],
    lines: [
      { label: `window ${window / 1000}k`, value: window },
      { label: `handoff line at ${at / 1000}k`, value: at },
    ],
  });
}

Object.assign(charts, horizonCharts(results.horizon));

const targets: Target[] = [];
const economy = results.economy;
if (economy) {
  const flower = economy.modes.flower;
  targets.push(
    target(
      "W1 total input (c)/(b)",
      "≤ 0.5",
      economy.ratios.totalInputFlowerOverSubagents,
      (economy.ratios.totalInputFlowerOverSubagents ?? 9) <= 0.5,
    ),
    target(
      "W1 cost-weighted input (c)/(b)",
      "≤ 0.25",
      economy.ratios.costWeightedFlowerOverSubagents,
      (economy.ratios.costWeightedFlowerOverSubagents ?? 9) <= 0.25,
    ),
    target(
      "W1 main-thread peak (c)/(b)",
      "≤ 1.0",
      economy.ratios.peakFlowerOverSubagents,
      (economy.ratios.peakFlowerOverSubagents ?? 9) <= 1,
    ),
    target(
      "W1 main-thread peak (c)/(a)",
      "≤ 0.05",
      economy.ratios.peakFlowerOverPlain,
      (economy.ratios.peakFlowerOverPlain ?? 9) <= 0.05,
    ),
    target("W1 cache breaks within a session (c)", "0", flower.cacheBreaks, flower.cacheBreaks === 0),
    target(
      "W1 slope per main turn (c), tokens",
      "≤ 1500",
      flower.slopePerMainTurn,
      flower.slopePerMainTurn <= 1500,
    ),
  );
}
const long = results.long;
if (long) {
  const flower = long.modes.flower;
  targets.push(
    target("W2 degraded handoffs (c)", "0", flower.degraded, flower.degraded === 0 && flower.ok),
    target("W2 cache breaks within a session (c)", "0", flower.cacheBreaks, flower.cacheBreaks === 0),
    target(
      "W2 slope per main turn (c), tokens",
      "≤ 1500",
      flower.slopePerMainTurn,
      flower.slopePerMainTurn <= 1500,
    ),
    target(
      "W2 total input (c)/(b)",
      "≤ 0.5",
      long.ratios.totalInputFlowerOverSubagents,
      (long.ratios.totalInputFlowerOverSubagents ?? 9) <= 0.5,
    ),
    target(
      "W2 cost-weighted input (c)/(b)",
      "≤ 0.25",
      long.ratios.costWeightedFlowerOverSubagents,
      (long.ratios.costWeightedFlowerOverSubagents ?? 9) <= 0.25,
    ),
  );
}
if (results.hooks)
  targets.push(
    target(
      "W3 hook overhead, wall ratio",
      "≤ 1.03",
      results.hooks.wallRatio,
      results.hooks.wallRatio <= 1.03,
    ),
    ...(results.hooks.ownShareTimed === undefined
      ? []
      : [
          target(
            "W3 flower's own callback code over empty callbacks, timed in the callbacks",
            "≤ 1.02",
            results.hooks.ownShareTimed,
            results.hooks.ownShareTimed <= 1.02,
          ),
        ]),
  );
if (results.store) {
  const small = results.store.sizes[0]!;
  targets.push(
    target(
      "W4 load + rewrite of 20k entries, warm (ms)",
      "< 300",
      small.loadRewriteWarmMs,
      small.loadRewriteWarmMs < 300,
    ),
    target(
      "W4 time per entry, 100k over 20k",
      "≈ 1 (linear, ≤ 1.3)",
      results.store.perEntryGrowth,
      (results.store.perEntryGrowth ?? 9) <= 1.3,
    ),
  );
}
const loads = results.postgres?.loads ?? [];
for (const load of loads)
  targets.push(
    target(
      `W4 ${load.backend === "postgres" ? "PostgreSQL" : "SQLite"} ${load.flush ?? "batched"}, ${load.runners} runners: lost + duplicated + out-of-order transcripts`,
      "0",
      load.lost + load.duplicated + load.misorderedTranscripts,
      load.lost === 0 && load.duplicated === 0 && load.misorderedTranscripts === 0,
    ),
  );
targets.push(...horizonTargets(results.horizon, results.lines));
targets.push(...workTargets(results.work));
targets.push(...fleetTargets(results.fleet));
results.targets = targets;
if (only.size === 0) {
  // --render measured nothing: the header stays that of the run that did.
  for (const key of [
    "date",
    "commit",
    "dirty",
    "loadAverageAtStart",
    "loadAverageAtEnd",
    "totalSeconds",
    "parallelModes",
    "workloads",
  ] as const)
    if (previous[key] !== undefined) Object.assign(results, { [key]: previous[key] });
} else if (!imported) {
  results.loadAverageAtEnd = loadavg().map((value) => Number(value.toFixed(2)));
  results.totalSeconds = Math.round((performance.now() - started) / 1000);
}

// Always kept, so a --no-write run can still be read.
writeFileSync(join(here, "last-run.json"), `${JSON.stringify(results, null, 2)}\n`);
if (write) {
  writeFileSync(join(benchDir, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  for (const [name, svg] of Object.entries(charts)) writeFileSync(join(benchDir, name), svg);
  const readmePath = join(benchDir, "README.md");
  // Formatted like every other file, so `prettier --check` passes on the regenerated README.
  const readme = renderPays(
    renderReadme(readFileSync(readmePath, "utf8"), results),
    paysBlock(results.horizon, results.horizon?.run?.commit, results.horizon?.run?.date),
  );
  const config = (await prettier.resolveConfig(readmePath)) ?? {};
  writeFileSync(readmePath, await prettier.format(readme, { ...config, filepath: readmePath }));
  console.log(`wrote bench/results.json, ${Object.keys(charts).join(", ") || "no charts"}, bench/README.md`);
}
for (const entry of targets)
  console.log(`${entry.met ? "met   " : "MISSED"} ${entry.name}: ${entry.measured} (target ${entry.target})`);
console.log(`total ${results.totalSeconds} s`);
// Recorded and written first, so a failed load test can be read; then the run fails.
const broken = brokenLoads(only.has("postgres") ? loads : []);
if (broken.length > 0) throw brokenLoadsError(broken);
