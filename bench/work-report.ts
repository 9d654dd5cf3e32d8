/**
 * Workloads `work` and `fleet` in the README's results block and in the targets table (bench/work.ts and
 * bench/fleet-idle.ts measure them).
 */
import type { FleetIdleResult } from "./fleet-idle.js";
import type { WorkResult } from "./work.js";

interface WorkTarget {
  name: string;
  target: string;
  measured: number | null;
  met: boolean;
}

const number = (value: number) => value.toLocaleString("en-US");
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

function row(cells: Array<string | number>): string {
  return `| ${cells.map(String).join(" | ")} |`;
}

function table(header: string[], rows: Array<Array<string | number>>): string[] {
  return [row(header), row(header.map(() => "---")), ...rows.map(row)];
}

export function workTargets(work: WorkResult | undefined): WorkTarget[] {
  if (!work) return [];
  const cpu = work.cpu;
  const five = work.fiveFile;
  const tenMb = 10 * 2 ** 20;
  const fiveAt = five?.rows.at(-1);
  return [
    ...(cpu === undefined
      ? []
      : [
          {
            name: `W6 first checkpoint over an unchanged one, CPU (${number(work.files)} files)`,
            target: "≤ 2",
            measured: cpu.firstOverUnchanged,
            met: work.ok && cpu.firstOverUnchanged <= 2,
          },
          {
            name: `W6 ${work.changePerTurn}-file checkpoint over git add -A && write-tree && commit-tree && update-ref, CPU`,
            target: "≤ 1.05",
            measured: cpu.changedOverFloor,
            met: work.ok && cpu.changedOverFloor <= 1.05,
          },
          {
            name: "W6 unchanged checkpoint over git status, CPU",
            target: "≤ 1.0",
            measured: cpu.unchangedOverStatus,
            met: work.ok && cpu.unchangedOverStatus <= 1,
          },
        ]),
    ...(five === undefined || fiveAt === undefined
      ? []
      : [
          {
            name: `W6 shadow repository on disk after ${number(five.checkpoints)} checkpoints of a ${work.changePerTurn}-file change (MB)`,
            target: "≤ 10",
            measured: Number((fiveAt.diskBytes / 2 ** 20).toFixed(1)),
            met: fiveAt.diskBytes <= tenMb,
          },
          {
            name: `W6 the same shadow repository once the run ended (MB)`,
            target: "≤ 10",
            measured: Number((five.endedDiskBytes / 2 ** 20).toFixed(1)),
            met: five.endedDiskBytes <= tenMb,
          },
        ]),
    {
      name: `W6 turn with checkpoints over without (${number(work.files)} files, ${work.changePerTurn}-file change)`,
      target: "≤ 1.05",
      measured: work.turns.ratio,
      met: work.ok && work.turns.ratio <= 1.05,
    },
    {
      name: `W6 store bytes per checkpoint over ${number(work.growth.checkpoints)} sub-tasks, last interval over first`,
      target: "≈ 1 (linear, ≤ 1.3)",
      measured: work.growth.bundleGrowth,
      met: work.growth.bundleGrowth <= 1.3,
    },
    {
      name: `W6 time per checkpoint, last 100 over first 100 of ${number(work.growth.checkpoints)} sub-tasks (paired)`,
      target: "≈ 1 (≤ 1.3)",
      measured: work.growth.pairedTimeRatio ?? work.growth.timeRatio,
      met: (work.growth.pairedTimeRatio ?? work.growth.timeRatio) <= 1.3,
    },
  ];
}

/** The section of the results block; `measured` is the run line every workload starts with. */
export function workSection(work: WorkResult | undefined, measured: string): string[] {
  if (!work) return [];
  const t = work.turns;
  const c = work.checkpoint;
  const s = work.store;
  const g = work.growth;
  const storeLine =
    s.source === "postgres"
      ? `Measured in PostgreSQL (a throwaway server; \`octet_length(bundle)\` of the \`flower_work\` call rows of one step, its first call row left out).`
      : `Computed, not stored: the sizes of \`ShadowRepo.bundle(commit, [parent])\` the carrier received (${s.note ?? "no PostgreSQL"}).`;
  return [
    "",
    `### Workload 6: work checkpoints, ${number(work.files)} files (${work.repositoryMb} MB), ${work.changePerTurn} files changed per turn`,
    "",
    measured,
    "",
    ...(work.ok ? [] : [`**The run reported a problem**: ${work.error ?? "see the log"}.`, ""]),
    `Turns (the real \`claude\` binary in a \`Runtime\`, ${t.rounds} rounds of one step per mode, ${t.perStep} Bash calls per step, the order alternating; ${t.counted} turns counted per mode):`,
    "",
    ...table(
      ["", "work: false", "work: true", "ratio"],
      [
        ["turn, median (ms)", t.medianOffMs, t.medianOnMs, `**${t.ratio}×**`],
        ["turn, p90 (ms)", t.p90OffMs, t.p90OnMs, `${(t.p90OnMs / t.p90OffMs).toFixed(3)}×`],
        ["whole step, mean (ms)", number(t.stepOffMs), number(t.stepOnMs), `${t.stepRatio}×`],
        ...t.rounds_.map((entry) => [
          `round ${entry.round}, median turn (ms)`,
          entry.offMs,
          entry.onMs,
          `${entry.ratio}×`,
        ]),
      ],
    ),
    "",
    `Median of the rounds' ratios ${t.pairedRatio}×; ${t.callCheckpointsChanged} of ${t.callCheckpoints} call checkpoints changed (one per turn).`,
    "",
    ...stepCpuLines(work),
    ...checkpointCpuLines(work),
    `The checkpoint alone (\`WorkTracker.checkpoint\` timed directly, median of ${c.samples}):`,
    "",
    ...table(
      ["checkpoint", "ms"],
      [
        [`after a ${work.changePerTurn}-file change (a commit)`, c.changedMs],
        ["unchanged tree (one scan, no commit)", c.unchangedMs],
        [`after a ${work.changePerTurn}-file change, with a shared store's bundle`, c.changedWithBundleMs],
        [
          "the repository's first (a fresh shadow repository, clean tree: its index seeded from the person's)",
          c.firstMs,
        ],
        [
          `a new chain's first in that shadow repository (${work.changePerTurn} files differ from HEAD)`,
          c.firstNewChainMs,
        ],
        ["WorkTracker.open, no shadow repository yet", c.openMs],
      ],
    ),
    "",
    `Store bytes per checkpoint (${work.changePerTurn}-file change): median **${number(s.medianBytes)} B** (${number(s.minBytes)}–${number(s.maxBytes)}, ${s.rows} rows). ${storeLine} ` +
      `The bundles computed directly: median ${number(s.computedMedianBytes)} B. A run's first row (its parent is HEAD): ${number(s.firstRowPushedBytes)} B when HEAD is on a remote-tracking branch, ` +
      `**${mb(s.wholeRepositoryBytes)}** when it is on none (the whole repository; ${number(s.wholeRepositoryMs)} ms to make).` +
      (s.postgresTurnMs === undefined
        ? ""
        : ` With the PostgreSQL store (one step of ${s.postgresTurns ?? "—"} turns each way, one pair: indicative), the median turn took ${s.postgresTurnMs} ms with checkpoints and ${s.postgresTurnOffMs ?? "—"} ms without` +
          (s.postgresTurnOffMs ? ` (${(s.postgresTurnMs / s.postgresTurnOffMs).toFixed(2)}×).` : ".")),
    "",
    ...fiveFileLines(work),
    `${number(g.checkpoints)} sub-tasks (each writes a new file of 2–6 KB or inserts 1–4 KB into an existing one, 1–3 files; ${number(g.created)} files written, ${number(g.edited)} edits), one checkpoint each with a carrier (${g.seconds} s):`,
    "",
    ...table(
      [
        "after",
        "shadow repo on disk",
        "apparent",
        "objects",
        "loose objects",
        "bundles (store)",
        "bundle / checkpoint",
        "disk / checkpoint",
        "median checkpoint (ms)",
      ],
      g.rows.map((entry, index) => {
        const before = g.rows[index - 1];
        const span = entry.checkpoints - (before?.checkpoints ?? 0);
        return [
          number(entry.checkpoints),
          mb(entry.shadowDiskBytes),
          mb(entry.shadowBytes),
          mb(entry.objectsBytes),
          number(entry.looseObjects),
          mb(entry.bundleBytes),
          kb((entry.bundleBytes - (before?.bundleBytes ?? 0)) / span),
          kb((entry.shadowDiskBytes - (before?.shadowDiskBytes ?? 0)) / span),
          entry.medianMs,
        ];
      }),
    ),
    "",
    `Per checkpoint, last interval over first: bundles ${g.bundleGrowth}×, shadow on disk ${g.diskGrowth}× (from the second interval: the first also holds the chain's index of every file). ` +
      `Median checkpoint ${g.firstHundredMs} ms over the first 100, ${g.lastHundredMs} ms over the last 100: ${g.timeRatio}× as measured` +
      (g.pairedTimeRatio === undefined
        ? "."
        : `; paired with the same checkpoint in a young chain (a shadow repository of its own, opened just before each window, the two taking turns), the long chain's took ${g.youngFirst}× of the young one's over the first 100 and ${g.youngLast}× over the last 100: **${g.pairedTimeRatio}×**.`) +
      (g.packedDiskBytes === undefined
        ? ""
        : ` flower never packs the shadow repository (\`gc.auto=0\`); packed at the end (\`git repack -adl\`, ${number(g.repackMs ?? 0)} ms) it would take ${mb(g.packedDiskBytes)} on disk.`) +
      (g.endedDiskBytes === undefined
        ? ""
        : ` flower repacks the shadow every 100 commits (beside the chain): at most ${mb(g.peakDiskBytes ?? 0)} on disk just before a pack; ` +
          `when the run ended (the step's end: packed, what no ref reaches pruned; ${number(g.endMs ?? 0)} ms, ${number(g.endCpuMs ?? 0)} ms CPU) **${mb(g.endedDiskBytes)}**. ` +
          `CPU per checkpoint of the long chain, its packs included: ${g.cpuPerCheckpointMs ?? "—"} ms.`),
  ];
}

/** The shadow repository over 1,000 checkpoints of a 5-file change. */
function fiveFileLines(work: WorkResult): string[] {
  const f = work.fiveFile;
  if (f === undefined) return [];
  return [
    `The shadow repository over ${number(f.checkpoints)} checkpoints of the turns' ${work.changePerTurn}-file change (a line appended to ${work.changePerTurn} files each), a chain of its own packed as flower packs it (every 100 commits, beside the chain; ${f.seconds} s):`,
    "",
    ...table(
      ["after", "on disk", "loose objects"],
      [
        ...f.rows.map((entry) => [
          number(entry.checkpoints),
          mb(entry.diskBytes),
          number(entry.looseObjects),
        ]),
        ["the most, just before a pack", mb(f.peakDiskBytes), ""],
        [
          `the run ended (packed and pruned: ${number(f.endMs)} ms, ${number(f.endCpuMs)} ms CPU)`,
          `**${mb(f.endedDiskBytes)}**`,
          "",
        ],
      ],
    ),
    "",
    `CPU per checkpoint, the packs every 100 included: ${f.cpuPerCheckpointMs} ms.`,
    "",
  ];
}

/** A difference in ms with its sign: +77.3 ms, −5.9 ms. */
function signedMs(value: number): string {
  return `${value < 0 ? "−" : "+"}${Math.abs(value)} ms`;
}

/** Whole steps in CPU: flower with and without checkpoints, the SDK's own checkpointing on and off. */
function stepCpuLines(work: WorkResult): string[] {
  const s = work.steps;
  if (s === undefined) return [];
  return [
    `Whole steps of ${s.calls} Bash calls in CPU (this process and every process it started: the kit, the \`claude\` binary, git; mean of ${s.steps} steps a mode, the modes taking turns in the same rounds):`,
    "",
    ...table(
      ["", "off", "on", "ratio", "per call"],
      [
        [
          "flower, `work: false` / checkpoints (ms CPU)",
          number(s.flowerOffMs),
          number(s.flowerOnMs),
          `**${s.flowerRatio}×**`,
          signedMs(s.flowerPerCallMs),
        ],
        [
          "the SDK's `enableFileCheckpointing` off / on (ms CPU)",
          number(s.sdkOffMs),
          number(s.sdkOnMs),
          `${s.sdkRatio}×`,
          signedMs(s.sdkPerCallMs),
        ],
      ],
    ),
    "",
    `The SDK's checkpointing backed up ${s.sdkBackups} files over its steps: it copies a file before Write or Edit changes it, and no file a Bash call changes (each call here appends to ${work.changePerTurn} files with \`echo >>\`); flower checkpoints every change. The SDK's median turn (wall): ${s.sdkMedianOffMs} ms off, ${s.sdkMedianOnMs} ms on. flower's step with checkpoints also holds its end: the branch handed back and the shadow repository packed.`,
    "",
  ];
}

/** The checkpoint alone in CPU, against git's floor and `git status`. */
function checkpointCpuLines(work: WorkResult): string[] {
  const c = work.cpu;
  if (c === undefined) return [];
  return [
    `The checkpoint alone in CPU (mean of ${c.samples}, taking turns with git's own commands on the same change, in a repository of their own that borrows the same objects and starts from the same index):`,
    "",
    ...table(
      ["", "flower (ms CPU)", "git (ms CPU)", "ratio"],
      [
        [
          `a ${work.changePerTurn}-file change / \`git add -A && git write-tree && git commit-tree && git update-ref\``,
          c.changedMs,
          c.floorMs,
          `**${c.changedOverFloor}×**`,
        ],
        ["an unchanged tree / `git status`", c.unchangedMs, c.statusMs, `**${c.unchangedOverStatus}×**`],
        [
          "the repository's first (a fresh shadow repository, clean tree) / an unchanged one",
          c.firstMs,
          c.unchangedMs,
          `**${c.firstOverUnchanged}×**`,
        ],
        [`a new chain's first (${work.changePerTurn} files differ from HEAD)`, c.firstNewChainMs, "", ""],
      ],
    ),
    "",
  ];
}

export function fleetTargets(fleet: FleetIdleResult | undefined): WorkTarget[] {
  const largest = fleet?.rows.at(-1);
  if (!fleet || !largest) return [];
  return [
    {
      name: `W7 idle worker with --budget-per-day, CPU per tick at ${number(largest.records)} records (ms)`,
      target: "≤ 5",
      measured: largest.tickCpuMs,
      met: fleet.ok && largest.tickCpuMs <= 5,
    },
    {
      name: `W7 bytes read per idle tick, ${number(largest.records)} records over ${number(fleet.rows[0]!.records)}`,
      target: "≈ 1, independent of the records (≤ 1.2)",
      measured: fleet.readGrowth,
      met: fleet.ok && fleet.readGrowth <= 1.2,
    },
  ];
}

/** Workload 7's section of the results block. */
export function fleetSection(fleet: FleetIdleResult | undefined, measured: string): string[] {
  if (!fleet) return [];
  return [
    "",
    "### Workload 7: an idle fleet worker with a day budget",
    "",
    measured,
    "",
    ...(fleet.ok ? [] : [`**The run reported a problem**: ${fleet.error ?? "see the log"}.`, ""]),
    "`flower worker --store … --budget-per-day 1000` (the built CLI, a process of its own) idle over a store of step records (four generations with their per-turn series each), one tick a second, its CPU over 60 s and the bytes it read each second (the median second is the tick's own; pg-boss's upkeep of its queue reads its rows now and then); beside it, in the bench's process, what the tick did before (every record read and parsed, the day summed):",
    "",
    ...table(
      [
        "records",
        "bytes a record",
        "idle tick, CPU (ms)",
        "idle tick, bytes read (median second / mean)",
        "old tick, CPU (ms)",
        "old tick, record bytes read",
      ],
      fleet.rows.map((entry) => [
        number(entry.records),
        number(entry.recordBytes),
        `**${entry.tickCpuMs}**`,
        `${number(entry.tickReadBytes)} / ${entry.meanReadBytes === undefined ? "—" : number(entry.meanReadBytes)}`,
        number(entry.oldTickCpuMs),
        mb(entry.oldTickReadBytes),
      ]),
    ),
    "",
    `Bytes read per tick at ${number(fleet.rows.at(-1)?.records ?? 0)} records over ${number(fleet.rows[0]?.records ?? 0)}: **${fleet.readGrowth}×** (the day's spend is one sum the store keeps beside the records).`,
  ];
}
