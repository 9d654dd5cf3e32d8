/**
 * Workload `work`: what keeping a run's files as checkpoints (src/checkpoints/) costs, on the issue's
 * repository: 10,000 files of ~20 KB in 100 folders (200 MB), one commit, packed as a clone's objects
 * are, its HEAD on a remote-tracking branch (pushed). Every comparing figure is a ratio within this run.
 *
 * 1. **Turns.** The real `claude` binary through the SDK, in a `Runtime`, against the offline kit: one
 *    step whose model makes `turns` Bash calls one after another, each changing 5 files (a line appended
 *    to each, in 5 folders). The same step with `work: true` and `work: false`, in rounds whose order
 *    alternates (on, off; off, on; ...), so load drifting on the machine falls on both. A turn's time is
 *    the gap between two consecutive main-thread requests at the kit (the reply streamed, the CLI, the
 *    command, the hooks — with checkpoints, the PostToolUse checkpoint — and the result written); each
 *    step's first gap is left out (a session's first Bash call is slower). Reported: the median turn of
 *    each mode and their ratio, overall and per round.
 * 2. **The checkpoint alone.** `WorkTracker.checkpoint` timed directly (loaded from the build: it is not
 *    exported), after a 5-file change and on an unchanged tree, taking turns; the first checkpoint of the
 *    repository (a fresh shadow repository: its index is built from HEAD's tree, so every file is hashed
 *    once) and of a new chain in an existing one (each run has its own index); and with a shared store's
 *    bundle (a carrier that keeps only the bundle sizes).
 * 3. **Store bytes per checkpoint.** With a throwaway PostgreSQL server (`startPostgresServer`, as the
 *    `postgres` workload starts one) the same turns run once with `store: <url>`, and the `flower_work`
 *    rows' bundles are measured; without PostgreSQL binaries, the bundles the carrier of (2) received
 *    (`ShadowRepo.bundle(commit, [parent])`) are reported instead, and the results say which. Also the
 *    first row of a run whose HEAD is on no remote: the whole repository.
 * 4. **A thousand sub-tasks.** 1,000 checkpoints in a row on the same repository, each after a sub-task's
 *    change (1–3 files: a new file of 2–6 KB, or 1–4 KB of lines inserted into an existing file), with a
 *    carrier: the shadow repository's size on disk and the summed bundle bytes after 100, 250, 500 and
 *    1,000 (flower packs it every 100 commits), its largest size just before a pack, its size once the
 *    run ended (packed and pruned), and the time per checkpoint of the first 100 against the last 100.
 *
 * CPU, not wall (bench/cpu.ts: this process and every process it started): the checkpoint alone against
 * git's own floor for the same change (`git add -A && git write-tree && git commit-tree && git
 * update-ref`, in a repository of its own that borrows the same objects) and against `git status` on the
 * same unchanged tree; the first checkpoint against an unchanged one; and whole 20-call steps with and
 * without checkpoints, beside the SDK's own `enableFileCheckpointing` on and off (a plain `query()`,
 * the same calls), in the same rounds.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Runtime, type AgentSpec, type FlowerEvent } from "flower-agent";
import { startFakeModel, startPostgresServer, text, toolUse, type ModelRequest } from "flower-agent/testing";
import pg from "pg";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { childrenGone, cpuMs, livingChildren, reapedChildrenMs } from "./cpu.js";
import {
  checkpointMaxFileBytes,
  loadWorkTracker,
  type Carrier,
  type CarriedRow,
  type Tracker,
} from "./work-internals.js";

export interface WorkConfig {
  /** Files of the generated repository (the issue's 10,000). */
  files: number;
  /** Folders they are spread over (100). */
  folders: number;
  /** Bytes per file (~20 KB: 10,000 × 20 KB = 200 MB). */
  fileBytes: number;
  /** Files one turn changes (5). */
  changePerTurn: number;
  /** Bash calls per step (20). */
  turns: number;
  /** Rounds of one step per mode, the order alternating (4: on, off; off, on; on, off; off, on). */
  rounds: number;
  /** Direct checkpoint timings per kind (20). */
  samples: number;
  /** Checkpoints of the sub-task run (1,000). */
  checkpoints: number;
  /** Measure the store's bytes in PostgreSQL (a throwaway server, or this URL); false: computed bundles only. */
  postgres: boolean | string;
}

export const WORK_DEFAULTS: WorkConfig = {
  files: 10_000,
  folders: 100,
  fileBytes: 20 * 1024,
  changePerTurn: 5,
  turns: 20,
  rounds: 4,
  samples: 20,
  checkpoints: 1000,
  postgres: true,
};

export interface WorkTurnRound {
  round: number;
  /** Median turn with checkpoints, without, and their ratio (ms). */
  onMs: number;
  offMs: number;
  ratio: number;
}

/** CPU of whole steps (ms): flower with and without checkpoints, the SDK with and without its own. */
export interface WorkStepCpu {
  /** Steps per mode and calls per step. */
  steps: number;
  calls: number;
  flowerOnMs: number;
  flowerOffMs: number;
  /** flowerOn / flowerOff. */
  flowerRatio: number;
  /** (flowerOn − flowerOff) / calls: what a checkpoint adds to a call, the step's end included. */
  flowerPerCallMs: number;
  sdkOnMs: number;
  sdkOffMs: number;
  sdkRatio: number;
  sdkPerCallMs: number;
  /** Median turn (wall) of the SDK's steps, for beside the flower turns. */
  sdkMedianOnMs: number;
  sdkMedianOffMs: number;
  /** Files the SDK's checkpointing backed up, summed over its steps (it sees Write/Edit, not Bash). */
  sdkBackups: number;
}

/** The checkpoint alone, in CPU (ms, mean over the samples): against git's floor and `git status`. */
export interface WorkCheckpointCpu {
  samples: number;
  /** The repository's first checkpoint (a fresh shadow repository, clean tree). */
  firstMs: number;
  /** A new chain's first in an existing shadow repository, 5 files differing from HEAD. */
  firstNewChainMs: number;
  changedMs: number;
  /** `git add -A && git write-tree && git commit-tree && git update-ref` on the same change. */
  floorMs: number;
  unchangedMs: number;
  /** `git status` on the same unchanged tree. */
  statusMs: number;
  firstOverUnchanged: number;
  changedOverFloor: number;
  unchangedOverStatus: number;
}

/** The shadow repository over 1,000 checkpoints of a 5-file change. */
export interface WorkFiveFileGrowth {
  checkpoints: number;
  /** On disk after 100, 250, 500, 1,000 (a pack that just started let finish). */
  rows: Array<{ checkpoints: number; diskBytes: number; looseObjects: number }>;
  /** The most seen just before one of flower's packs (every 100 commits). */
  peakDiskBytes: number;
  /** Once the run ended (the step's end: packed and pruned), and that end's wall time and CPU. */
  endedDiskBytes: number;
  endMs: number;
  endCpuMs: number;
  /** CPU per checkpoint, flower's packs every 100 included (ms). */
  cpuPerCheckpointMs: number;
  seconds: number;
}

export interface WorkGrowthRow {
  checkpoints: number;
  /** The shadow repository's files: apparent bytes and what they take on disk (4 KiB blocks). */
  shadowBytes: number;
  shadowDiskBytes: number;
  /** Its objects alone (loose objects: git never packs here, gc.auto=0). */
  objectsBytes: number;
  looseObjects: number;
  /** Bundle bytes a shared store would have received so far. */
  bundleBytes: number;
  /** Median time of the checkpoints since the previous row (ms). */
  medianMs: number;
}

export interface WorkResult {
  files: number;
  folders: number;
  repositoryMb: number;
  changePerTurn: number;
  /** Files written and their pack imported; git's index made (every file hashed once). */
  setup: { writeSeconds: number; indexSeconds: number };
  turns: {
    perStep: number;
    rounds: number;
    /** Turns counted per mode (each step's first left out). */
    counted: number;
    medianOnMs: number;
    medianOffMs: number;
    p90OnMs: number;
    p90OffMs: number;
    /** The issue's figure: median turn with checkpoints over without. */
    ratio: number;
    rounds_: WorkTurnRound[];
    /** Median of the rounds' ratios. */
    pairedRatio: number;
    /** Whole steps (start-up, the first checkpoint's index, every turn, the end checkpoint, the branch). */
    stepOnMs: number;
    stepOffMs: number;
    stepRatio: number;
    /** Call checkpoints the runtime reported in the steps with checkpoints (changed, files each). */
    callCheckpoints: number;
    callCheckpointsChanged: number;
  };
  checkpoint: {
    samples: number;
    /** WorkTracker.open on a workspace without a shadow repository yet (creates it). */
    openMs: number;
    /** The first checkpoint of a fresh shadow repository, clean tree (the index built, every file hashed). */
    firstMs: number;
    /** The first checkpoint of a new chain in the same shadow repository, 5 files changed from HEAD. */
    firstNewChainMs: number;
    changedMs: number;
    unchangedMs: number;
    /** The same with a shared store's carrier (the bundle made; the store's write itself not included). */
    changedWithBundleMs: number;
  };
  store: {
    /** "postgres": measured in flower_work; "computed": ShadowRepo.bundle sizes only. */
    source: "postgres" | "computed";
    /** Why PostgreSQL was not used, when it was not. */
    note?: string;
    /** Bytes per 5-file call checkpoint: median, min, max over the rows (or bundles). */
    medianBytes: number;
    minBytes: number;
    maxBytes: number;
    rows: number;
    /** The carrier's bundles of (2), always: the computed figure. */
    computedMedianBytes: number;
    /** The first row of a run whose HEAD is on no remote: the whole repository (bytes, ms to make). */
    wholeRepositoryBytes: number;
    wholeRepositoryMs: number;
    /** The same first row with HEAD pushed (excluded): what the run added. */
    firstRowPushedBytes: number;
    /** Median turn in the PostgreSQL step (unpaired, for information). */
    postgresTurnMs?: number;
    /** The same step without checkpoints, and the turns of each step. */
    postgresTurnOffMs?: number;
    postgresTurns?: number;
  };
  /**
   * 1,000 checkpoints of the turns' 5-file change (a line appended to 5 files each), packing as flower
   * does: the issue's storage figure (absent in results of older runs).
   */
  fiveFile?: WorkFiveFileGrowth;
  growth: {
    checkpoints: number;
    rows: WorkGrowthRow[];
    /** Bundle bytes per checkpoint over the last interval against the first: 1 = linear. */
    bundleGrowth: number;
    /** Shadow bytes on disk per checkpoint over the last interval against the first. */
    diskGrowth: number;
    firstHundredMs: number;
    lastHundredMs: number;
    /** Median checkpoint of the last 100 over the first 100 (as measured: the machine's load moves it). */
    timeRatio: number;
    /**
     * Each of the first and last 100 checkpoints over the same checkpoint in a young chain (a shadow
     * repository of its own, opened just before): medians, and last over first (the figure to read).
     */
    youngFirst?: number;
    youngLast?: number;
    pairedTimeRatio?: number;
    /** The shadow repository on disk after `git repack -adl` at the end, and how long that took (older runs). */
    packedDiskBytes?: number;
    repackMs?: number;
    /** The largest size on disk seen just before one of flower's packs (every 100 commits). */
    peakDiskBytes?: number;
    /** On disk once the run ended (the step's end: packed and pruned), and that end's time and CPU. */
    endedDiskBytes?: number;
    endMs?: number;
    endCpuMs?: number;
    /** CPU per checkpoint of the long chain, its packs every 100 included (ms). */
    cpuPerCheckpointMs?: number;
    /** Files the sub-tasks wrote (new) and edited, in all. */
    created: number;
    edited: number;
    seconds: number;
  };
  /** CPU figures (absent in results of older runs). */
  cpu?: WorkCheckpointCpu;
  steps?: WorkStepCpu;
  loadAverage: { start: number; end: number };
  seconds: number;
  ok: boolean;
  error?: string;
}

const SPEC: AgentSpec = {
  name: "builder",
  instructions: "Make the edits you are asked for, one Bash call each.",
  tools: ["Bash"],
  role: "agent",
};

/** A fixed identity and no global or system config: the person's repository is the same on every machine. */
const PERSON_ENV = {
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    env: { ...process.env, ...PERSON_ENV },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  }).trim();
}

/** A small deterministic generator (mulberry32): the same repository and sub-tasks in every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 400 made-up words: lines of them compress to about 36% with zlib, as source code does (~35%). */
const WORDS = (() => {
  const next = random(7);
  return Array.from({ length: 400 }, () => {
    let word = "";
    for (let length = 3 + Math.floor(next() * 7); word.length < length;)
      word += String.fromCharCode(97 + Math.floor(next() * 26));
    return word;
  });
})();

/** Text of about `bytes` bytes: numbered lines of ten words. */
function textOf(next: () => number, bytes: number, tag: string): string {
  let text = "";
  for (let line = 0; text.length < bytes; line++) {
    text += `${tag}.${line}`;
    for (let word = 0; word < 10; word++) text += ` ${WORDS[Math.floor(next() * WORDS.length)]!}`;
    text += "\n";
  }
  return text;
}

const folderName = (folder: number) => `d${String(folder).padStart(3, "0")}`;
const fileName = (file: number) => `f${String(file).padStart(4, "0")}.txt`;

/**
 * The issue's repository: `files` files of ~`fileBytes` in `folders` folders and one commit whose objects
 * are in a pack, as a clone's are (`git fast-import` writes the pack as the files are written: quicker
 * than `git add` and a repack), HEAD on `refs/remotes/origin/main` (pushed: what flower may assume
 * another machine has), and the index git's own (`git reset` hashes every file once).
 */
async function generateRepository(
  workspace: string,
  config: WorkConfig,
): Promise<{ writeMs: number; indexMs: number }> {
  const next = random(1);
  const started = performance.now();
  git(workspace, "init", "--quiet", "--initial-branch=main");
  const importer = spawn("git", ["fast-import", "--quiet"], {
    cwd: workspace,
    env: { ...process.env, ...PERSON_ENV },
    stdio: ["pipe", "ignore", "pipe"],
  });
  let stderr = "";
  importer.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => importer.on("close", resolve));
  const send = async (chunk: string) => {
    if (!importer.stdin.write(chunk)) await new Promise((resolve) => importer.stdin.once("drain", resolve));
  };
  const perFolder = Math.ceil(config.files / config.folders);
  const paths: string[] = [];
  for (let folder = 0; folder < config.folders; folder++) {
    mkdirSync(join(workspace, folderName(folder)), { recursive: true });
    for (let file = 0; file < perFolder && folder * perFolder + file < config.files; file++) {
      const path = `${folderName(folder)}/${fileName(file)}`;
      const content = textOf(next, config.fileBytes, `${folder}.${file}`);
      writeFileSync(join(workspace, path), content);
      paths.push(path);
      // The generated text is ASCII: its length is its byte count.
      await send(`blob\nmark :${paths.length}\ndata ${content.length}\n${content}\n`);
    }
  }
  const message = "the repository\n";
  await send(
    "commit refs/heads/main\n" +
      "author Bench <bench@example.com> 1700000000 +0000\n" +
      "committer Bench <bench@example.com> 1700000000 +0000\n" +
      `data ${message.length}\n${message}` +
      paths.map((path, index) => `M 100644 :${index + 1} ${path}\n`).join("") +
      "\n",
  );
  importer.stdin.end();
  const code = await exited;
  if (code !== 0) throw new Error(`git fast-import failed (exit ${code}): ${stderr.trim()}`);
  const written = performance.now();
  git(workspace, "reset", "--quiet");
  // The index as a clone, a checkout, a commit or `git worktree add` leaves it: with its cache tree
  // (`git reset` alone leaves none; then a run's first checkpoint reads HEAD's tree over it once more).
  git(workspace, "write-tree");
  git(workspace, "update-ref", "refs/remotes/origin/main", "HEAD");
  const status = git(workspace, "status", "--porcelain");
  if (status !== "") throw new Error(`the generated repository is not clean: ${status.slice(0, 200)}`);
  return { writeMs: written - started, indexMs: performance.now() - written };
}

/** git's own floor for a checkpoint, as a person would type it. */
const FLOOR =
  'git add -A && T=$(git write-tree) && C=$(echo floor | git commit-tree "$T" -p refs/floor) && git update-ref refs/floor "$C"';

/**
 * A repository that records the workspace the way git's own commands do, beside the shadow: bare, its
 * work tree the workspace, borrowing the person's objects, its first index the person's (so it starts
 * where flower's chains start), HEAD on the ref it commits to. `commit()` and `status()` return the CPU
 * of git's processes (ms).
 */
function floorRepository(root: string, workspace: string): { commit(): number; status(): number } {
  const dir = join(root, "floor.git");
  git(root, "init", "--quiet", "--bare", dir);
  const env = {
    ...process.env,
    ...PERSON_ENV,
    GIT_DIR: dir,
    GIT_WORK_TREE: workspace,
    GIT_INDEX_FILE: join(dir, "index"),
  };
  const run = (args: string[]) => execFileSync("git", args, { cwd: workspace, env, encoding: "utf8" });
  run(["config", "core.bare", "false"]);
  writeFileSync(join(dir, "objects", "info", "alternates"), `${join(workspace, ".git", "objects")}\n`);
  copyFileSync(join(workspace, ".git", "index"), join(dir, "index"));
  run(["update-ref", "refs/floor", git(workspace, "rev-parse", "HEAD")]);
  run(["symbolic-ref", "HEAD", "refs/floor"]);
  const measured = (command: string, args: string[]) => {
    const before = reapedChildrenMs();
    const done = spawnSync(command, args, { cwd: workspace, env, stdio: "ignore" });
    if (done.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (exit ${done.status})`);
    return reapedChildrenMs() - before;
  };
  return { commit: () => measured("sh", ["-c", FLOOR]), status: () => measured("git", ["status"]) };
}

/** The files turn `turn` changes: `perTurn` existing files in different folders, a line appended to each. */
function turnFiles(config: WorkConfig, turn: number): string[] {
  const perFolder = Math.ceil(config.files / config.folders);
  return Array.from({ length: config.changePerTurn }, (_, k) => {
    const folder =
      (turn * 7 + k * Math.max(1, Math.floor(config.folders / config.changePerTurn))) % config.folders;
    const file = (turn * 13 + k * 3) % perFolder;
    return `${folderName(folder)}/${fileName(file)}`;
  });
}

function changeFiles(workspace: string, paths: readonly string[], tag: string): void {
  for (const path of paths) appendFileSync(join(workspace, path), `edit ${tag}\n`);
}

/** The workspace as HEAD has it again (between the parts, so each starts from the same tree). */
function resetWorkspace(workspace: string): void {
  git(workspace, "checkout", "--quiet", "--", ".");
  git(workspace, "clean", "-fdq");
}

function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round3 = (value: number) => Number(value.toFixed(3));

/** A shared store's carrier that keeps nothing but the size of each bundle it is given. */
class CountingCarrier implements Carrier {
  readonly rows: Array<{ kind: CarriedRow["kind"]; bytes: number }> = [];

  async append(_run: string, row: CarriedRow): Promise<number> {
    this.rows.push({ kind: row.kind, bytes: row.bundle?.length ?? 0 });
    return this.rows.length;
  }

  async last(): Promise<number> {
    return this.rows.length;
  }

  async list(): Promise<never[]> {
    return [];
  }

  async sizes(): Promise<Map<string, { rows: number; bytes: number }>> {
    return new Map();
  }

  get bytes(): number {
    return this.rows.reduce((sum, row) => sum + row.bytes, 0);
  }
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

/** Apparent bytes and bytes on disk of every file under `dir`. */
function sizeOf(dir: string): { bytes: number; disk: number } {
  let bytes = 0;
  let disk = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = sizeOf(path);
      bytes += inner.bytes;
      disk += inner.disk;
    } else {
      const stat = lstatSync(path);
      bytes += stat.size;
      disk += stat.blocks * 512;
    }
  }
  return { bytes, disk };
}

interface TurnRun {
  gaps: number[];
  wallMs: number;
  /** CPU of the whole step: this process and its children (the kit, the binary, git), until they ended. */
  cpuMs: number;
  events: FlowerEvent[];
  /** Files the SDK's own checkpointing backed up (its `file-history-snapshot` entries), SDK steps only. */
  backups?: number;
  error?: string;
}

/** The edit a turn's Bash call makes: a line appended to each of its files. */
function editCommand(
  label: string,
  turn: number,
  config: WorkConfig,
): { command: string; description: string } {
  const paths = turnFiles(config, turn);
  return {
    command: `for f in ${paths.join(" ")}; do echo "edit ${label} ${turn}" >> "$f"; done`,
    description: `Edit ${paths.length} files`,
  };
}

/**
 * Runs one step of `turns` Bash calls, each changing `changePerTurn` files: through flower's Runtime with
 * checkpoints on or off, or (`sdk`) through a plain `query()` with the SDK's own `enableFileCheckpointing`
 * on or off. The gaps between its main-thread requests are the turns.
 */
async function runTurns(input: {
  label: string;
  workspace: string;
  runDir: string;
  work: boolean;
  /** A plain SDK `query()` instead of flower; `work` is then `enableFileCheckpointing`. */
  sdk?: boolean;
  store?: string;
  turns: number;
  config: WorkConfig;
  /** The number of the step's first turn among all turns of the workload (so each turn edits other files). */
  firstTurn: number;
}): Promise<TurnRun> {
  const arrivals: number[] = [];
  const marker = `[work bench ${input.label}]`;
  // Children this process had before the step (a git shell of an earlier tracker): not the step's to wait for.
  const before = livingChildren();
  const startedCpu = cpuMs();
  const model = await startFakeModel({
    policy: (request: ModelRequest) => {
      if (request.kind !== "main" || !request.firstUserText().includes(marker)) return undefined;
      arrivals.push(performance.now());
      const done = request.countToolResults("Bash");
      if (done >= input.turns) return text(`Made ${done} edits.`);
      return toolUse("Bash", editCommand(input.label, input.firstTurn + done, input.config));
    },
  });
  const events: FlowerEvent[] = [];
  const prompt = `${marker} Make ${input.turns} edits, one Bash call each.`;
  const started = performance.now();
  let error: string | undefined;
  let backups: number | undefined;
  if (input.sdk === true) {
    try {
      const session = query({
        prompt,
        options: {
          cwd: input.workspace,
          env: { ...process.env, ...model.env() },
          tools: ["Bash"],
          permissionMode: "bypassPermissions",
          allowDangerouslySkipPermissions: true,
          enableFileCheckpointing: input.work,
        },
      });
      let sessionId: string | undefined;
      try {
        for await (const message of session) {
          if (message.type === "system" && message.subtype === "init") sessionId = message.session_id;
          if (message.type === "result" && message.subtype !== "success")
            error = `sdk step ${input.label}: ${message.subtype}`;
        }
      } finally {
        session.close();
      }
      // Read before the kit goes: its config folder goes with it.
      if (input.work && sessionId !== undefined) backups = sdkBackups(model.configDir, sessionId);
    } catch (caught) {
      error = `sdk step ${input.label}: ${(caught as Error).message}`;
    } finally {
      await model.close();
    }
  } else {
    const rt = new Runtime({
      workspace: input.workspace,
      runDir: input.runDir,
      env: model.env(),
      locale: "en",
      work: input.work,
      ...(input.store ? { store: input.store } : {}),
      onEvent: (event) => {
        if (event.type.startsWith("work-")) events.push(event);
      },
    });
    try {
      await rt.ready();
      const result = await rt.run(input.label, SPEC, prompt);
      if (result.status !== "done") error = `step ${input.label} ended ${result.status}`;
    } catch (caught) {
      error = `step ${input.label}: ${(caught as Error).message}`;
    } finally {
      rt.close();
      await model.close();
    }
  }
  const wallMs = performance.now() - started;
  // The binary (and any git) has ended and been reaped: its CPU is in this process's children's now.
  await childrenGone(before);
  const stepCpuMs = cpuMs() - startedCpu;
  if (model.errors.length > 0) error ??= model.errors[0]!.message;
  if (arrivals.length !== input.turns + 1)
    error ??= `step ${input.label}: ${arrivals.length} main requests, expected ${input.turns + 1}`;
  // The first gap (the session's first Bash call) is slower in every mode: left out.
  const gaps = arrivals.slice(2).map((time, index) => time - arrivals[index + 1]!);
  return {
    gaps,
    wallMs,
    cpuMs: stepCpuMs,
    events,
    ...(backups !== undefined ? { backups } : {}),
    ...(error ? { error } : {}),
  };
}

/**
 * Files the SDK's checkpointing backed up in a session: the copies the binary keeps under its config
 * folder's `file-history/<session>/` (one per file and version it saved before a change).
 */
function sdkBackups(configDir: string, sessionId: string): number {
  try {
    return readdirSync(join(configDir, "file-history", sessionId)).length;
  } catch {
    return 0;
  }
}

function callCheckpoints(events: readonly FlowerEvent[]): { calls: number; changed: number } {
  let calls = 0;
  let changed = 0;
  for (const event of events)
    if (event.type === "work-checkpoint" && event.kind === "call") {
      calls += 1;
      if (event.changed) changed += 1;
    }
  return { calls, changed };
}

function warnings(events: readonly FlowerEvent[]): string[] {
  return events.flatMap((event) => (event.type === "work-warning" ? [event.message] : []));
}

export async function runWork(
  config: WorkConfig,
  log: (line: string) => void = () => {},
): Promise<WorkResult> {
  const started = performance.now();
  const loadStart = loadavg()[0]!;
  const root = mkdtempSync(join(tmpdir(), "flower-bench-work-"));
  const workspace = join(root, "workspace");
  mkdirSync(workspace);
  const errors: string[] = [];
  try {
    // ---- The repository.
    const setup = await generateRepository(workspace, config);
    const repositoryMb = Math.round(
      (sizeOf(workspace).bytes - sizeOf(join(workspace, ".git")).bytes) / 2 ** 20,
    );
    log(
      `  repository: ${config.files} files, ${repositoryMb} MB; written and imported in ` +
        `${(setup.writeMs / 1000).toFixed(1)} s, indexed in ${(setup.indexMs / 1000).toFixed(1)} s`,
    );
    const WorkTracker = await loadWorkTracker();
    const maxFileBytes = await checkpointMaxFileBytes();
    const open = (runDir: string, run: string, carrier: Carrier | null) =>
      WorkTracker.open({
        workspace,
        runDir,
        run,
        owned: false,
        carrier,
        maxFileBytes,
        now: () => new Date(),
      });
    let checkpointCall = 0;
    const call = (tracker: Tracker) =>
      tracker.checkpoint({
        kind: "call",
        step: "bench",
        generation: 1,
        session: "bench-session",
        call: `toolu_${++checkpointCall}`,
        tool: "Bash",
      });
    const start = (tracker: Tracker) => tracker.checkpoint({ kind: "start", step: "bench", generation: 1 });

    // ---- The checkpoint alone.
    let turn = 0;
    const microDir = join(root, "runs-direct");
    const [local, openMs] = await timed(() => open(microDir, "direct-local", null));
    const [, firstMs] = await timed(() => start(local));
    // The first checkpoint again in fresh shadow repositories (its CPU is too short for one sample: the
    // children's times come in 10 ms ticks), the shadows made beforehand (`open`, not counted).
    const firsts = Math.max(5, Math.ceil(config.samples / 2));
    let firstCpuTotal = 0;
    for (let index = 0; index < firsts; index++) {
      const fresh = await open(join(root, `runs-first-${index}`), "direct-first", null);
      const before = cpuMs();
      await start(fresh);
      firstCpuTotal += cpuMs() - before;
      await fresh.close();
    }
    const firstCpuMs = firstCpuTotal / firsts;
    changeFiles(workspace, turnFiles(config, turn++), "first");
    let firstNewChainMs = 0;
    let firstNewTotal = 0;
    for (let index = 0; index < firsts; index++) {
      const chain = await open(microDir, `direct-chain-${index}`, null);
      const before = cpuMs();
      const [firstNew, ms] = await timed(() => start(chain));
      firstNewTotal += cpuMs() - before;
      if (index === 0) firstNewChainMs = ms;
      await chain.close();
      if (!firstNew.changed || firstNew.files.length !== config.changePerTurn)
        errors.push(
          `first checkpoint of a new chain: ${firstNew.files.length} files, expected ${config.changePerTurn}`,
        );
    }
    const firstNewChainCpuMs = firstNewTotal / firsts;
    // A chain with a shared store's carrier: its first row (its parent is HEAD) is bundled against what
    // the remotes have; every later one against its parent.
    const carrier = new CountingCarrier();
    const carried = await open(microDir, "direct-carried", carrier);
    const firstCarried = (await start(carried)).commit;
    await call(local);
    // git's own floor for the same change, in a repository of its own that borrows the same objects and
    // starts from the person's index, as the shadow does: what `git add -A && git write-tree && git
    // commit-tree && git update-ref` costs, and `git status` on the same tree once nothing changed.
    const floor = floorRepository(root, workspace);
    floor.commit();
    // The kinds take turns on the same changes (each chain and the floor see the 5 files since their last
    // checkpoint), which goes first alternating: load falls on all.
    const changed: number[] = [];
    const unchanged: number[] = [];
    const withBundle: number[] = [];
    const cpu = { changed: 0, floor: 0, unchanged: 0, status: 0 };
    for (let sample = 0; sample < config.samples; sample++) {
      changeFiles(workspace, turnFiles(config, turn++), `direct ${sample}`);
      const kinds: Array<"local" | "carried" | "floor"> =
        sample % 2 === 0 ? ["local", "floor", "carried"] : ["carried", "floor", "local"];
      for (const kind of kinds) {
        if (kind === "floor") {
          cpu.floor += floor.commit();
          continue;
        }
        const chain = kind === "local" ? local : carried;
        const before = cpuMs();
        const [taken, ms] = await timed(() => call(chain));
        if (kind === "local") cpu.changed += cpuMs() - before;
        if (!taken.changed || taken.files.length !== config.changePerTurn)
          errors.push(`direct checkpoint ${sample}: changed ${taken.changed}, ${taken.files.length} files`);
        (chain === local ? changed : withBundle).push(ms);
      }
      const status = () => (cpu.status += floor.status());
      if (sample % 2 === 1) status();
      const before = cpuMs();
      const [again, unchangedMs] = await timed(() => call(local));
      cpu.unchanged += cpuMs() - before;
      if (sample % 2 === 0) status();
      if (again.changed) errors.push(`direct checkpoint ${sample}: an unchanged tree made a commit`);
      unchanged.push(unchangedMs);
    }
    const mean = (total: number) => round1(total / config.samples);
    const checkpointCpu: WorkCheckpointCpu = {
      samples: config.samples,
      firstMs: round1(firstCpuMs),
      firstNewChainMs: round1(firstNewChainCpuMs),
      changedMs: mean(cpu.changed),
      floorMs: mean(cpu.floor),
      unchangedMs: mean(cpu.unchanged),
      statusMs: mean(cpu.status),
      firstOverUnchanged: round3(firstCpuMs / (cpu.unchanged / config.samples)),
      changedOverFloor: round3(cpu.changed / cpu.floor),
      unchangedOverStatus: round3(cpu.unchanged / cpu.status),
    };
    log(
      `  checkpoint CPU (mean of ${config.samples}): ${checkpointCpu.changedMs} ms for a ${config.changePerTurn}-file change against git's floor ` +
        `${checkpointCpu.floorMs} ms (${checkpointCpu.changedOverFloor}×); unchanged ${checkpointCpu.unchangedMs} ms against git status ` +
        `${checkpointCpu.statusMs} ms (${checkpointCpu.unchangedOverStatus}×); the first ${checkpointCpu.firstMs} ms ` +
        `(${checkpointCpu.firstOverUnchanged}× an unchanged one), a new chain's first ${checkpointCpu.firstNewChainMs} ms`,
    );
    await local.close();
    const callBundles = carrier.rows.slice(1).map((row) => row.bytes);
    const firstRowPushedBytes = carrier.rows[0]?.bytes ?? 0;
    const [whole, wholeRepositoryMs] = await timed(() => carried.shadow.bundle(firstCarried, []));
    await carried.close();
    const checkpoint = {
      samples: config.samples,
      openMs: round1(openMs),
      firstMs: round1(firstMs),
      firstNewChainMs: round1(firstNewChainMs),
      changedMs: round1(median(changed)),
      unchangedMs: round1(median(unchanged)),
      changedWithBundleMs: round1(median(withBundle)),
    };
    log(
      `  checkpoint alone: first ${checkpoint.firstMs} ms (open ${checkpoint.openMs} ms), a new chain's first ` +
        `${checkpoint.firstNewChainMs} ms, changed ${checkpoint.changedMs} ms, unchanged ${checkpoint.unchangedMs} ms, ` +
        `changed with its bundle ${checkpoint.changedWithBundleMs} ms; bundles of a ${config.changePerTurn}-file change ` +
        `${median(callBundles)} B (${Math.min(...callBundles)}–${Math.max(...callBundles)}), first row ` +
        `${firstRowPushedBytes} B with HEAD pushed, ${whole?.length ?? 0} B without a remote (${Math.round(wholeRepositoryMs)} ms)`,
    );
    resetWorkspace(workspace);

    // ---- Turns, with and without checkpoints, in alternating rounds; the SDK's own checkpointing on and
    // off in the same rounds (a plain query(), the same calls).
    const gaps = { on: [] as number[], off: [] as number[] };
    const walls = { on: 0, off: 0 };
    const stepCpu = { on: 0, off: 0, sdkOn: 0, sdkOff: 0 };
    const sdkGaps = { sdkOn: [] as number[], sdkOff: [] as number[] };
    let sdkBackupsSeen = 0;
    const rounds: WorkTurnRound[] = [];
    const turnEvents: FlowerEvent[] = [];
    type TurnMode = "on" | "off" | "sdkOn" | "sdkOff";
    for (let index = 0; index < config.rounds; index++) {
      const order: TurnMode[] =
        index % 2 === 0 ? ["on", "off", "sdkOn", "sdkOff"] : ["sdkOff", "sdkOn", "off", "on"];
      const medians = { on: Number.NaN, off: Number.NaN };
      for (const mode of order) {
        const sdk = mode === "sdkOn" || mode === "sdkOff";
        const run = await runTurns({
          label: `${mode}-${index + 1}`,
          workspace,
          runDir: join(root, `runs-${mode}`),
          work: mode === "on" || mode === "sdkOn",
          sdk,
          turns: config.turns,
          config,
          firstTurn: turn,
        });
        turn += config.turns;
        if (run.error) errors.push(run.error);
        stepCpu[mode] += run.cpuMs;
        if (sdk) {
          sdkGaps[mode].push(...run.gaps);
          sdkBackupsSeen += run.backups ?? 0;
        } else {
          gaps[mode].push(...run.gaps);
          walls[mode] += run.wallMs;
          medians[mode] = median(run.gaps);
          if (mode === "on") turnEvents.push(...run.events);
          else if (run.events.length > 0)
            errors.push(`step off-${index + 1} took checkpoints with work: false`);
        }
        log(
          `  ${mode}-${index + 1}: median turn ${round1(median(run.gaps))} ms over ${run.gaps.length}, step ${Math.round(run.wallMs)} ms, ` +
            `CPU ${Math.round(run.cpuMs)} ms${run.backups !== undefined ? `, ${run.backups} files backed up by the SDK` : ""}` +
            `${run.error ? `; ${run.error}` : ""}`,
        );
      }
      rounds.push({
        round: index + 1,
        onMs: round1(medians.on),
        offMs: round1(medians.off),
        ratio: round3(medians.on / medians.off),
      });
    }
    const calls = config.turns * config.rounds;
    const steps: WorkStepCpu = {
      steps: config.rounds,
      calls: config.turns,
      flowerOnMs: Math.round(stepCpu.on / config.rounds),
      flowerOffMs: Math.round(stepCpu.off / config.rounds),
      flowerRatio: round3(stepCpu.on / stepCpu.off),
      flowerPerCallMs: round1((stepCpu.on - stepCpu.off) / calls),
      sdkOnMs: Math.round(stepCpu.sdkOn / config.rounds),
      sdkOffMs: Math.round(stepCpu.sdkOff / config.rounds),
      sdkRatio: round3(stepCpu.sdkOn / stepCpu.sdkOff),
      sdkPerCallMs: round1((stepCpu.sdkOn - stepCpu.sdkOff) / calls),
      sdkMedianOnMs: round1(median(sdkGaps.sdkOn)),
      sdkMedianOffMs: round1(median(sdkGaps.sdkOff)),
      sdkBackups: sdkBackupsSeen,
    };
    log(
      `  steps of ${config.turns} calls, CPU: flower ${steps.flowerOnMs} ms with checkpoints, ${steps.flowerOffMs} ms without ` +
        `(${steps.flowerRatio}×, ${steps.flowerPerCallMs} ms a call); the SDK's enableFileCheckpointing ${steps.sdkOnMs} ms on, ` +
        `${steps.sdkOffMs} ms off (${steps.sdkRatio}×, ${steps.sdkPerCallMs} ms a call; it backed up ${steps.sdkBackups} files)`,
    );
    for (const message of warnings(turnEvents)) errors.push(`work-warning: ${message}`);
    const counted = callCheckpoints(turnEvents);
    if (counted.changed !== config.turns * config.rounds)
      errors.push(
        `${counted.changed} changed call checkpoints in the steps with checkpoints, expected ${config.turns * config.rounds}`,
      );
    const medianOnMs = median(gaps.on);
    const medianOffMs = median(gaps.off);
    const turns: WorkResult["turns"] = {
      perStep: config.turns,
      rounds: config.rounds,
      counted: Math.min(gaps.on.length, gaps.off.length),
      medianOnMs: round1(medianOnMs),
      medianOffMs: round1(medianOffMs),
      p90OnMs: round1(quantile(gaps.on, 0.9)),
      p90OffMs: round1(quantile(gaps.off, 0.9)),
      ratio: round3(medianOnMs / medianOffMs),
      rounds_: rounds,
      pairedRatio: round3(median(rounds.map((entry) => entry.ratio))),
      stepOnMs: Math.round(walls.on / config.rounds),
      stepOffMs: Math.round(walls.off / config.rounds),
      stepRatio: round3(walls.on / walls.off),
      callCheckpoints: counted.calls,
      callCheckpointsChanged: counted.changed,
    };
    log(
      `  turns: median ${turns.medianOnMs} ms with checkpoints, ${turns.medianOffMs} ms without: ${turns.ratio}× ` +
        `(rounds ${rounds.map((entry) => `${entry.ratio}×`).join(", ")}); steps ${turns.stepRatio}×`,
    );
    resetWorkspace(workspace);

    // ---- The store's bytes per checkpoint: PostgreSQL when it can be started.
    const store = await measureStore({ config, workspace, root, firstTurn: turn, errors, log });
    turn += config.turns;
    const storeResult: WorkResult["store"] = {
      ...store,
      computedMedianBytes: median(callBundles),
      wholeRepositoryBytes: whole?.length ?? 0,
      wholeRepositoryMs: Math.round(wholeRepositoryMs),
      firstRowPushedBytes,
      ...(store.source === "computed"
        ? {
            medianBytes: median(callBundles),
            minBytes: Math.min(...callBundles),
            maxBytes: Math.max(...callBundles),
            rows: callBundles.length,
          }
        : {}),
    };
    resetWorkspace(workspace);

    // ---- A thousand checkpoints of a 5-file change: the storage flower keeps.
    const fiveFile = await measureFiveFile({
      config,
      workspace,
      root,
      open,
      start,
      call,
      firstTurn: turn,
      log,
    });
    turn += config.checkpoints;
    resetWorkspace(workspace);

    // ---- A thousand sub-tasks.
    const growth = await measureGrowth({ config, workspace, root, open, start, call, errors, log });

    return {
      files: config.files,
      folders: config.folders,
      repositoryMb,
      changePerTurn: config.changePerTurn,
      setup: { writeSeconds: round1(setup.writeMs / 1000), indexSeconds: round1(setup.indexMs / 1000) },
      turns,
      checkpoint,
      cpu: checkpointCpu,
      steps,
      store: storeResult,
      fiveFile,
      growth,
      loadAverage: { start: loadStart, end: loadavg()[0]! },
      seconds: Math.round((performance.now() - started) / 1000),
      ok: errors.length === 0,
      ...(errors.length > 0 ? { error: errors.slice(0, 5).join("; ") } : {}),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * One step of turns with a PostgreSQL store (a throwaway server, as the `postgres` workload starts one),
 * then the sizes of the `flower_work` rows its checkpoints wrote. Without PostgreSQL binaries: "computed".
 */
async function measureStore(input: {
  config: WorkConfig;
  workspace: string;
  root: string;
  firstTurn: number;
  errors: string[];
  log: (line: string) => void;
}): Promise<
  Omit<
    WorkResult["store"],
    "computedMedianBytes" | "wholeRepositoryBytes" | "wholeRepositoryMs" | "firstRowPushedBytes"
  >
> {
  const { config } = input;
  const computed = (note: string) => ({
    source: "computed" as const,
    note,
    medianBytes: 0,
    minBytes: 0,
    maxBytes: 0,
    rows: 0,
  });
  if (config.postgres === false) return computed("PostgreSQL not asked for (--work-no-postgres)");
  const given = typeof config.postgres === "string" ? config.postgres : undefined;
  let server: Awaited<ReturnType<typeof startPostgresServer>> | null;
  try {
    server = given ? null : await startPostgresServer();
  } catch (error) {
    input.log(
      `  PostgreSQL could not be started (${(error as Error).message.split("\n")[0]}): bundle sizes computed`,
    );
    return computed(`PostgreSQL could not be started: ${(error as Error).message.split("\n")[0]}`);
  }
  const url = given ?? server!.url;
  try {
    const label = "pg-on";
    // Ten rows are enough to size them; a turn with a PostgreSQL store is slower than a local one.
    const turns = Math.min(config.turns, 10);
    const step = (name: string, work: boolean, firstTurn: number) =>
      runTurns({
        label: name,
        workspace: input.workspace,
        runDir: join(input.root, `runs-${name}`),
        work,
        store: url,
        turns,
        config,
        firstTurn,
      });
    const run = await step(label, true, input.firstTurn);
    // The same step without checkpoints, once (one pair: for information, not the target).
    const without = await step("pg-off", false, input.firstTurn + turns);
    for (const one of [run, without]) if (one.error) input.errors.push(one.error);
    for (const message of warnings(run.events)) input.errors.push(`work-warning (PostgreSQL): ${message}`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ kind: string; bytes: number | null }>(
        "SELECT kind, octet_length(bundle) AS bytes FROM flower_work WHERE run = $1 ORDER BY seq",
        [label],
      );
      // The step's first call row is bundled against what the remotes have (its parent is HEAD): the
      // per-checkpoint figure is the calls after it.
      const calls = rows.filter((row) => row.kind === "call").slice(1);
      const sizes = calls.map((row) => row.bytes ?? 0);
      if (sizes.length === 0)
        throw new Error(`no call rows in flower_work for ${label} (${rows.length} rows)`);
      input.log(
        `  PostgreSQL: ${rows.length} rows (${rows
          .map((row) => row.kind)
          .join(", ")
          .slice(0, 80)}…); call rows ` +
          `median ${median(sizes)} B; median turn ${round1(median(run.gaps))} ms with checkpoints, ` +
          `${round1(median(without.gaps))} ms without`,
      );
      return {
        source: "postgres",
        medianBytes: median(sizes),
        minBytes: Math.min(...sizes),
        maxBytes: Math.max(...sizes),
        rows: sizes.length,
        postgresTurnMs: round1(median(run.gaps)),
        postgresTurnOffMs: round1(median(without.gaps)),
        postgresTurns: turns,
      };
    } finally {
      await client.end();
    }
  } catch (error) {
    input.errors.push(`PostgreSQL: ${(error as Error).message}`);
    return computed(`the PostgreSQL step failed: ${(error as Error).message}`);
  } finally {
    // The runtime closes its pool in the background: give it a moment before the server goes.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await server?.stop();
  }
}

/** What the storage measures (1,000 checkpoints in one chain) are given: the repository and how to drive a tracker. */
interface ChainMeasure {
  config: WorkConfig;
  workspace: string;
  root: string;
  open: (runDir: string, run: string, carrier: Carrier | null) => Promise<Tracker>;
  start: (tracker: Tracker) => Promise<unknown>;
  call: (tracker: Tracker) => Promise<{ changed: boolean; files: string[] }>;
  log: (line: string) => void;
}

/**
 * 1,000 checkpoints of the turns' 5-file change in one chain of a shadow repository of its own, as a
 * long run takes them: its size on disk (flower packs it every 100 commits, beside the chain), the most it
 * takes just before a pack, its size once the run ended (the step's end packs and prunes), and the CPU
 * per checkpoint with the packs in it.
 */
async function measureFiveFile(input: ChainMeasure & { firstTurn: number }): Promise<WorkFiveFileGrowth> {
  const { config, workspace } = input;
  const started = performance.now();
  const tracker = await input.open(join(input.root, "runs-five"), "five-files", null);
  await input.start(tracker);
  const marks = new Set([100, 250, 500, 1000, config.checkpoints]);
  const rows: WorkFiveFileGrowth["rows"] = [];
  let peak = 0;
  let cpu = 0;
  for (let index = 1; index <= config.checkpoints; index++) {
    changeFiles(workspace, turnFiles(config, input.firstTurn + index), `five ${index}`);
    const before = cpuMs();
    await input.call(tracker);
    cpu += cpuMs() - before;
    if (index % 100 === 99) peak = Math.max(peak, sizeOf(tracker.shadow.dir).disk);
    if (marks.has(index)) {
      // A pack that started with this checkpoint, let finish (its CPU is the chain's too).
      const waited = cpuMs();
      await tracker.settled();
      cpu += cpuMs() - waited;
      const shadow = tracker.shadow.dir;
      rows.push({ checkpoints: index, diskBytes: sizeOf(shadow).disk, looseObjects: looseIn(shadow) });
    }
  }
  const waited = cpuMs();
  await tracker.settled();
  cpu += cpuMs() - waited;
  const endStarted = cpuMs();
  const [, endMs] = await timed(() => tracker.close({ maintain: true }));
  const endCpuMs = cpuMs() - endStarted;
  const ended = sizeOf(tracker.shadow.dir).disk;
  const result: WorkFiveFileGrowth = {
    checkpoints: config.checkpoints,
    rows,
    peakDiskBytes: peak,
    endedDiskBytes: ended,
    endMs: Math.round(endMs),
    endCpuMs: Math.round(endCpuMs),
    cpuPerCheckpointMs: round1(cpu / config.checkpoints),
    seconds: Math.round((performance.now() - started) / 1000),
  };
  const mbOf = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  input.log(
    `  ${config.checkpoints} checkpoints of a ${config.changePerTurn}-file change: ${rows.map((row) => `${mbOf(row.diskBytes)} MB after ${row.checkpoints}`).join(", ")}; ` +
      `at most ${mbOf(peak)} MB before a pack; ${mbOf(ended)} MB once the run ended (${result.endMs} ms); CPU per checkpoint ${result.cpuPerCheckpointMs} ms, packs included`,
  );
  return result;
}

/** Loose objects in a git directory's objects/. */
function looseIn(dir: string): number {
  let count = 0;
  for (const name of readdirSync(join(dir, "objects")))
    if (/^[0-9a-f]{2}$/.test(name)) count += readdirSync(join(dir, "objects", name)).length;
  return count;
}

/** 1,000 sub-tasks' checkpoints in one chain, with a carrier: what the store and the shadow grow by. */
async function measureGrowth(input: ChainMeasure & { errors: string[] }): Promise<WorkResult["growth"]> {
  const { config, workspace } = input;
  const started = performance.now();
  const carrier = new CountingCarrier();
  const tracker = await input.open(join(input.root, "runs-growth"), "subtasks", carrier);
  await input.start(tracker);
  const next = random(42);
  const perFolder = Math.ceil(config.files / config.folders);
  const createdFiles: string[] = [];
  let created = 0;
  let edited = 0;
  const marks = [100, 250, 500, 1000].filter((mark) => mark < config.checkpoints);
  marks.push(config.checkpoints);
  const rows: WorkGrowthRow[] = [];
  const times: number[] = [];
  let since = 0;
  // The first and the last `window` checkpoints are paired with the same checkpoint in a young chain
  // (a shadow repository of its own, opened just before the window), taking turns which goes first:
  // the machine's load falls on both, and their ratio says what the long chain adds.
  const window = Math.min(100, Math.floor(config.checkpoints / 2));
  const paired = { first: [] as number[], last: [] as number[] };
  const young = async (index: number) => {
    const reference = await input.open(
      join(input.root, `runs-young-${index}`),
      "young",
      new CountingCarrier(),
    );
    await input.start(reference);
    return reference;
  };
  let reference = await young(1);
  // CPU of the long chain alone: the loop's, less the young chains' checkpoints and the edits' own.
  const loopCpu = cpuMs();
  let otherCpu = 0;
  let peakDisk = 0;
  const other = async <T>(work: () => Promise<T> | T): Promise<T> => {
    const before = cpuMs();
    try {
      return await work();
    } finally {
      otherCpu += cpuMs() - before;
    }
  };
  for (let subtask = 1; subtask <= config.checkpoints; subtask++) {
    const side = subtask <= window ? "first" : subtask > config.checkpoints - window ? "last" : null;
    if (subtask === config.checkpoints - window + 1) reference = await other(() => young(2));
    const editCpu = cpuMs();
    const count = 1 + Math.floor(next() * 3);
    const touched = new Set<string>();
    for (let k = 0; k < count; k++) {
      const folder = folderName(Math.floor(next() * config.folders));
      if (next() < 1 / 3) {
        const path = `${folder}/subtask-${String(subtask).padStart(4, "0")}-${k}.txt`;
        writeFileSync(join(workspace, path), textOf(next, 2048 + Math.floor(next() * 4096), `s${subtask}`));
        createdFiles.push(path);
        touched.add(path);
        created += 1;
      } else {
        const path =
          createdFiles.length > 0 && next() < 0.2
            ? createdFiles[Math.floor(next() * createdFiles.length)]!
            : `${folder}/${fileName(Math.floor(next() * perFolder))}`;
        if (touched.has(path)) continue;
        const lines = readFileSync(join(workspace, path), "utf8").split("\n");
        const at = Math.floor(next() * lines.length);
        lines.splice(at, 0, textOf(next, 1024 + Math.floor(next() * 3072), `e${subtask}`).trimEnd());
        writeFileSync(join(workspace, path), lines.join("\n"));
        touched.add(path);
        edited += 1;
      }
    }
    otherCpu += cpuMs() - editCpu;
    const youngFirst = side !== null && subtask % 2 === 0;
    const [, youngMs] = youngFirst ? await other(() => timed(() => input.call(reference))) : [null, 0];
    const [taken, ms] = await timed(() => input.call(tracker));
    if (!taken.changed) input.errors.push(`sub-task ${subtask}: its checkpoint saw no change`);
    times.push(ms);
    if (side !== null) {
      const [, laterMs] = youngFirst
        ? [null, youngMs]
        : await other(() => timed(() => input.call(reference)));
      paired[side].push(ms / laterMs);
    }
    // The most the shadow takes: its loose objects just before the next pack (every 100 commits).
    if (subtask % 100 === 99)
      peakDisk = Math.max(peakDisk, await other(() => sizeOf(tracker.shadow.dir).disk));
    if (subtask === marks[rows.length]) {
      // As the run sees it once a pack that just started has ended.
      await tracker.settled();
      const shadow = sizeOf(tracker.shadow.dir);
      const objects = sizeOf(join(tracker.shadow.dir, "objects"));
      const counts = await tracker.shadow.text(["count-objects", "-v"]);
      const loose = Number(/^count: (\d+)/m.exec(counts)?.[1] ?? Number.NaN);
      rows.push({
        checkpoints: subtask,
        shadowBytes: shadow.bytes,
        shadowDiskBytes: shadow.disk,
        objectsBytes: objects.bytes,
        looseObjects: loose,
        bundleBytes: carrier.bytes,
        medianMs: round1(median(times.slice(since))),
      });
      since = times.length;
      input.log(
        `  after ${subtask} sub-tasks: shadow ${(shadow.disk / 2 ** 20).toFixed(1)} MB on disk ` +
          `(${(shadow.bytes / 2 ** 20).toFixed(1)} MB apparent, ${loose} loose objects), bundles ` +
          `${(carrier.bytes / 2 ** 20).toFixed(2)} MB, median checkpoint ${rows.at(-1)!.medianMs} ms`,
      );
    }
  }
  const perCheckpoint = (key: "bundleBytes" | "shadowDiskBytes", index: number) => {
    const row = rows[index]!;
    const before =
      index === 0
        ? { checkpoints: 0, value: 0 }
        : { checkpoints: rows[index - 1]!.checkpoints, value: rows[index - 1]![key] };
    return (row[key] - before.value) / (row.checkpoints - before.checkpoints);
  };
  // The shadow's first interval also holds its fixed part (config, the chain's index of every file):
  // growth compares the second interval on, when there are three or more.
  const from = rows.length >= 3 ? 1 : 0;
  const last = rows.length - 1;
  const firstHundredMs = median(times.slice(0, window));
  const lastHundredMs = median(times.slice(times.length - window));
  const seconds = Math.round((performance.now() - started) / 1000);
  await tracker.settled();
  const cpuPerCheckpointMs = (cpuMs() - loopCpu - otherCpu) / config.checkpoints;
  // The run ends: the step's end packs the shadow and prunes what no checkpoint reaches.
  const endStarted = cpuMs();
  const [, endMs] = await timed(() => tracker.close({ maintain: true }));
  const endCpuMs = cpuMs() - endStarted;
  const ended = sizeOf(tracker.shadow.dir);
  input.log(
    `  CPU per checkpoint ${round1(cpuPerCheckpointMs)} ms (packs every 100 included); at most ${(peakDisk / 2 ** 20).toFixed(1)} MB ` +
      `on disk before a pack; the run's end (pack and prune, ${Math.round(endMs)} ms, CPU ${Math.round(endCpuMs)} ms): ` +
      `${(ended.disk / 2 ** 20).toFixed(1)} MB on disk`,
  );
  return {
    checkpoints: config.checkpoints,
    rows,
    bundleGrowth: round3(perCheckpoint("bundleBytes", last) / perCheckpoint("bundleBytes", 0)),
    diskGrowth: round3(perCheckpoint("shadowDiskBytes", last) / perCheckpoint("shadowDiskBytes", from)),
    firstHundredMs: round1(firstHundredMs),
    lastHundredMs: round1(lastHundredMs),
    timeRatio: round3(lastHundredMs / firstHundredMs),
    youngFirst: round3(median(paired.first)),
    youngLast: round3(median(paired.last)),
    pairedTimeRatio: round3(median(paired.last) / median(paired.first)),
    created,
    edited,
    seconds,
    peakDiskBytes: peakDisk,
    endedDiskBytes: ended.disk,
    endMs: Math.round(endMs),
    endCpuMs: Math.round(endCpuMs),
    cpuPerCheckpointMs: round1(cpuPerCheckpointMs),
  };
}
