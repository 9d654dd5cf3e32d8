/**
 * Workload `work` in the README's results block and in the targets table (bench/work.ts measures it).
 */
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
  return [
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
    `The checkpoint alone (\`WorkTracker.checkpoint\` timed directly, median of ${c.samples}):`,
    "",
    ...table(
      ["checkpoint", "ms"],
      [
        [`after a ${work.changePerTurn}-file change (a commit)`, c.changedMs],
        ["unchanged tree (one scan, no commit)", c.unchangedMs],
        [`after a ${work.changePerTurn}-file change, with a shared store's bundle`, c.changedWithBundleMs],
        ["the repository's first (a fresh shadow repository, clean tree: every file hashed)", c.firstMs],
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
        : ` flower never packs the shadow repository (\`gc.auto=0\`); packed at the end (\`git repack -adl\`, ${number(g.repackMs ?? 0)} ms) it would take ${mb(g.packedDiskBytes)} on disk.`),
  ];
}
