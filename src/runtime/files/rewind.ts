/**
 * `flower rewind <step> --to <generation>` (`rt.rewind`): a step goes back to the start of one of its
 * generations.
 * - Files: those the step changed since that generation's start go back to how they were then; nothing
 *   else is touched. A file among them that a person changed since the last checkpoint refuses the rewind,
 *   named, unless `force` (then the files as they were are kept in a checkpoint first: nothing is lost).
 * - Generations: that one and the later ones leave the step's history for `rewound` (archived: show and
 *   the report still list them), with their handoffs and sessions. Their cost stays in the step's cost.
 * - The handoff that started that generation becomes the current one, where a person opens it, adds the
 *   dead end, and saves; `continue` starts a fresh session from it (the task itself for generation 1).
 * - The chain of checkpoints moves back with the files (a shared store's log too), and `flower/<run>`
 *   is built again without the archived generations.
 * Under the step's lease: a step that a live driver holds is refused, naming the holder.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULTS } from "../../defaults.js";
import { freezeFile } from "../../documents/freeze-file.js";
import { ConfigurationError, WorkError, WorkRefusedError } from "../../errors.js";
import { handoffArchiveDir, handoffPath } from "../../handoff/freeze-handoff.js";
import { DEFAULT_LEASE_TIMING } from "../../records/lease.js";
import { recordedStep } from "../../records/recorded-step.js";
import type { StepRecord } from "../../records/step-record.js";
import { WorkTracker } from "../../checkpoints/work-tracker.js";
import type { RunWorkParts } from "./run-work.js";
import { handBack, openChain, type HandedBack } from "./run-work.js";
import { StepLease } from "../drive/step-lease.js";
import { turnPoint, type TurnPoint } from "./turn-point.js";
import type { SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";

export interface RewindOptions {
  /** The generation whose start the step goes back to (1 = the step's start). */
  generation: number;
  /**
   * A turn of that generation (1 = its first, as `flower show` counts them): the step goes back to the
   * end of that turn instead — its files to the checkpoint after that turn's calls, its conversation
   * resumed from there on the next continue (the turns after it taken back).
   */
  turn?: number;
  /** Put files back even where a person changed them since the last checkpoint (kept in a checkpoint first). */
  force?: boolean;
}

export interface Rewound {
  step: string;
  generation: number;
  /** The turn of `generation` it went back to the end of; absent for a rewind to the generation's start. */
  turn?: number;
  /** Files put back, relative to the workspace. */
  restored: string[];
  /** Generations archived. */
  archived: number;
  /** The handoff now current, to edit before `continue`; null when the step goes back to its task. */
  handoff: string | null;
  /** The branch built again without the archived generations; null outside a git repository. */
  branch: HandedBack | null;
  /** Files a person had changed that a forced rewind put back (their version is in the shadow repository). */
  overwritten: string[];
}

export async function rewindStep(
  parts: RunWorkParts & {
    saveNotes?: (step: string) => Promise<void>;
    /** A session's main transcript as stored (its local tail recovered first), for a rewind by turn. */
    transcript: (sessionId: string) => Promise<SessionStoreEntry[]>;
  },
  step: string,
  options: RewindOptions,
): Promise<Rewound> {
  const { records } = parts;
  const o = parts.options;
  await records.pull?.(step);
  const before = recordedStep(records, step);
  const generation = options.generation;
  if (!Number.isInteger(generation) || generation < 1 || generation > before.history.length)
    throw new ConfigurationError(
      "generation",
      generation,
      `a generation of step "${step}" (1 to ${before.history.length})`,
    );
  const work = before.work;
  const turn = options.turn;
  if (turn !== undefined && (!Number.isInteger(turn) || turn < 1))
    throw new ConfigurationError("turn", turn, "a turn number (1, 2, …)");
  const generationStart = before.history[generation - 1]?.work?.start ?? null;
  if (!work || generationStart === null)
    throw new WorkError(
      `step "${step}" has no checkpoint of generation ${generation}'s start: it ran without checkpoints`,
    );
  const run = before.run ?? step;
  const later = records
    .list()
    .filter((record) => (record.run ?? record.step) === run && record.startedAt > before.startedAt);
  if (later.length > 0)
    throw new WorkRefusedError(
      `flower rewind: step "${step}" is followed by ${later.map((record) => `"${record.step}"`).join(", ")} in run "${run}"; rewind the run's last step`,
    );

  const lease = await StepLease.acquire({
    records,
    step,
    timing: { ...DEFAULT_LEASE_TIMING, ...o.internal.leaseTiming },
    now: o.internal.now,
    wait: false,
  });
  try {
    const workspace = existsSync(work.workspace) ? work.workspace : o.workspace;
    const tracker = await WorkTracker.open({
      workspace,
      runDir: o.runDir,
      run,
      owned: work.isolated,
      carrier: parts.carrier,
      fence: () => ({ step, lease: lease.token }),
      maxFileBytes: o.work.maxFileBytes,
      now: o.internal.now,
    });
    await tracker.catchUp();
    const tip = tracker.tip ?? work.tip;
    if (tip === null) throw new WorkError(`step "${step}" has no checkpoint to rewind from`);
    const point = turn === undefined ? null : await pointOf(before, generation, turn, parts.transcript);
    // By turn: the newest checkpoint of a call made up to that turn (or of an earlier generation or step).
    const start =
      point === null
        ? generationStart
        : ((await tracker.findCheckpoint(
            (meta) =>
              meta.step !== step ||
              meta.generation < generation ||
              (meta.generation === generation &&
                (meta.kind === "start" || (meta.kind === "call" && point.kept.has(meta.call ?? "")))),
          )) ?? generationStart);
    const back = await tracker.shadow.changedBetween(start, tip);
    const persons = new Set(await tracker.shadow.changedSince(tip, tracker.key));
    const inTheWay = back.filter((path) => persons.has(path));
    if (inTheWay.length > 0 && options.force !== true)
      throw new WorkRefusedError(
        `flower rewind: refused, nothing changed: ${listed(inTheWay)} changed since the run's last checkpoint (your edit, or a call that was cut). Save what you want to keep, then rewind with --force`,
        inTheWay,
      );
    if (inTheWay.length > 0)
      await tracker.checkpoint({
        kind: "rewind",
        step,
        generation: before.history.length,
        session: before.sessionId,
      });
    const restored = await tracker.shadow.restore(start, tracker.key, { only: back });
    await tracker.moveTo(start, step);

    const at = { start, tip, now: o.internal.now() };
    const record =
      point === null ? rewoundRecord(before, generation, at) : rewoundToTurn(before, generation, point, at);
    const books = point === null ? undefined : record.history[generation - 1]?.work;
    if (books) books.files = await tracker.shadow.changedBetween(books.start ?? start, start);
    const handoff =
      point === null ? currentHandoff(record, before, generation, workspace, o.internal.now()) : null;
    records.put(record, { lease: lease.token });
    await records.flush?.(step);
    await parts.saveNotes?.(step);
    await tracker.close();
    const chain = await openChain({ ...parts, carrier: null }, run).catch(() => null);
    const branch =
      chain === null
        ? null
        : await handBack(chain)
            .catch(() => null)
            .finally(() => chain.tracker.close());
    return {
      step,
      generation,
      ...(turn !== undefined ? { turn } : {}),
      restored,
      archived: before.history.length - generation + (point === null ? 1 : 0),
      handoff,
      branch,
      overwritten: inTheWay,
    };
  } finally {
    await lease.release();
  }
}

/**
 * The record after a rewind to the end of `point`'s turn of `generation`: the later generations archived,
 * that generation current again and resumed from the turn's last entry on the next continue.
 */
function rewoundToTurn(
  before: StepRecord,
  generation: number,
  point: TurnPoint & { sessionId: string; turn: number },
  at: { start: string; tip: string; now: Date },
): StepRecord {
  const record = structuredClone(before);
  record.rewound = [
    ...(record.rewound ?? []),
    {
      at: at.now.toISOString(),
      to: generation,
      turn: point.turn,
      commit: at.start,
      from: at.tip,
      generations: record.history.slice(generation),
      handoffs: record.handoffs.slice(generation - 1),
      retired: record.retired.slice(generation - 1),
    },
  ];
  record.history = record.history.slice(0, generation);
  const current = record.history[generation - 1]!;
  current.handoff = null;
  current.endedAt = null;
  if (current.turns) current.turns = current.turns.slice(0, point.turn);
  if (current.work) current.work.end = at.start;
  record.generations = generation;
  record.handoffs = record.handoffs.slice(0, generation - 1);
  record.retired = record.retired.slice(0, generation - 1);
  record.sessionId = point.sessionId;
  record.resumeAt = { sessionId: point.sessionId, uuid: point.uuid, generation, turn: point.turn };
  record.status = "stopped";
  record.result = null;
  record.pendingHandoff = null;
  record.pendingPrompt = null;
  record.updatedAt = at.now.toISOString();
  if (record.work) record.work.tip = at.start;
  return record;
}

/** Where turn `turn` of generation `generation` ends in its session's transcript; a clear error when it has none. */
async function pointOf(
  before: StepRecord,
  generation: number,
  turn: number,
  transcript: (sessionId: string) => Promise<SessionStoreEntry[]>,
): Promise<TurnPoint & { sessionId: string; turn: number }> {
  const sessionId = before.history[generation - 1]?.sessionId ?? null;
  if (sessionId === null)
    throw new WorkError(`generation ${generation} of step "${before.step}" has no session to go back into`);
  const entries = await transcript(sessionId);
  const point = turnPoint(entries, turn);
  if (point === null)
    throw new ConfigurationError(
      "turn",
      turn,
      `a turn of generation ${generation} (1 to ${turnPoint(entries, 1)?.turns ?? 0})`,
    );
  return { ...point, sessionId, turn };
}

/** The record after the rewind: the generations from `generation` on archived, the step stopped. */
function rewoundRecord(
  before: StepRecord,
  generation: number,
  at: { start: string; tip: string; now: Date },
): StepRecord {
  const record = structuredClone(before);
  const kept = generation - 1;
  record.rewound = [
    ...(record.rewound ?? []),
    {
      at: at.now.toISOString(),
      to: generation,
      commit: at.start,
      from: at.tip,
      generations: record.history.slice(kept),
      handoffs: record.handoffs.slice(kept),
      retired: record.retired.slice(kept),
    },
  ];
  record.history = record.history.slice(0, kept);
  record.generations = kept;
  record.handoffs = record.handoffs.slice(0, kept);
  record.retired = record.retired.slice(0, kept);
  record.sessionId = record.retired.at(-1) ?? null;
  record.status = "stopped";
  record.result = null;
  record.pendingHandoff = null;
  record.pendingPrompt = null;
  record.context = record.history.at(-1)?.context ?? 0;
  record.updatedAt = at.now.toISOString();
  if (record.work) record.work.tip = at.start;
  const last = record.history.at(-1);
  if (last) last.endedAt ??= at.now.toISOString();
  return record;
}

/**
 * Makes the handoff that started `generation` the current file (the newer one goes to the archive) and
 * points the record at it; for generation 1 the step starts again from its task. Returns the current file.
 */
function currentHandoff(
  record: StepRecord,
  before: StepRecord,
  generation: number,
  workspace: string,
  now: Date,
): string | null {
  const locale = before.settings?.locale ?? "en";
  const notesDir = join(workspace, DEFAULTS.workbenchDir, "notes");
  const path = handoffPath(notesDir, before.step, locale);
  if (generation === 1) {
    record.pendingPrompt = before.prompt;
    return null;
  }
  const starting = before.handoffs[generation - 2];
  if (starting === undefined || !existsSync(starting)) {
    // Without its file (no workbench, or another machine's path): the successor starts from the record's copy.
    record.pendingPrompt = before.prompt;
    return null;
  }
  if (starting !== path) {
    const frozen = freezeFile({
      path,
      text: readFileSync(starting, "utf8"),
      archiveDir: handoffArchiveDir(notesDir, locale),
      archiveStem: before.step,
      now,
    });
    // The file that was current (a rewound generation's handoff) is in the archive now: its records follow.
    const moved = (paths: string[]) =>
      paths.map((one) => (one === path && frozen.archived ? frozen.archived : one));
    const entry = record.rewound!.at(-1)!;
    entry.handoffs = moved(entry.handoffs);
    for (const old of entry.generations)
      if (old.handoff?.path === path && frozen.archived) old.handoff.path = frozen.archived;
    record.handoffs[generation - 2] = path;
    const previous = record.history[generation - 2];
    if (previous?.handoff) previous.handoff.path = path;
  }
  record.pendingHandoff = path;
  return path;
}

function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, 8).join(", ");
  return paths.length > 8 ? `${shown} and ${paths.length - 8} more` : shown;
}
