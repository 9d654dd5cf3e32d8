/**
 * What a person does with a run's work once it exists: see it (`diff`), take it (`apply`), throw it away
 * (`discard`), bring it to another checkout (`fetch`), and the branch it is handed back as after every
 * step. The runtime's methods (rt.diff, rt.apply, …) and the CLI's commands call these.
 *
 * Where the run's chain of checkpoints is read from: with a shared store, from the store's log into this
 * checkout's shadow repository (the run may have worked on any machine); without one, from the shadow
 * repository of the workspace the run recorded (this checkout, or the run's own worktree).
 */
import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { shellQuote, typed } from "../../locale/invocation.js";
import { ConfigurationError, WorkError, WorkRefusedError } from "../../errors.js";
import type { RunRecords } from "../../records/run-records.js";
import type { StepRecord } from "../../records/step-record.js";
import { applyBranch, type AppliedBranch } from "../../checkpoints/apply-branch.js";
import { branchOf } from "../../checkpoints/checkpoint-message.js";
import { git, nulList } from "../../checkpoints/git.js";
import {
  buildBranch,
  publishBranch,
  type BranchGeneration,
  type BranchInput,
  type BuiltBranch,
} from "../../checkpoints/hand-back.js";
import type { WorkCarrier } from "../../checkpoints/work-carrier.js";
import { WorkTracker } from "../../checkpoints/work-tracker.js";
import { personRepository } from "../../checkpoints/shadow-repo.js";
import type { ResolvedRuntimeOptions } from "../options.js";

export interface RunWorkParts {
  options: ResolvedRuntimeOptions;
  records: RunRecords;
  carrier: WorkCarrier | null;
}

/** A run's steps that have work, oldest first, and the chain they share. */
export interface RunChain {
  run: string;
  steps: StepRecord[];
  tracker: WorkTracker;
}

export interface DiffOptions {
  /** One step of the run. @default the run's last step that changed files */
  step?: string;
  /** One generation of that step: from its start to its last checkpoint. @default the whole run */
  generation?: number;
  /** `patch` (the default), `stat` (`git diff --stat`), or `names` (one path per line). */
  format?: "patch" | "stat" | "names";
  /** Color as git colors it on a terminal. @default false */
  color?: boolean;
}

export interface HandedBack extends BuiltBranch {
  /** The repository the branch is in. */
  repository: string;
}

/** The run a name stands for: a run id, or a step name (its run). */
export function runOf(records: RunRecords, name: string): string {
  const direct = records.list().filter((record) => (record.run ?? record.step) === name);
  if (direct.length > 0) return name;
  const step = records.get(name);
  if (step) return step.run ?? step.step;
  const known = [...new Set(records.list().map((record) => record.run ?? record.step))];
  throw new ConfigurationError(
    "run",
    name,
    `a run or step of ${records.location}${known.length ? ` (known: ${known.join(", ")})` : ""}`,
  );
}

/** The run's steps that recorded work, in the order they began. */
export function stepsWithWork(records: RunRecords, run: string): StepRecord[] {
  return records
    .list()
    .filter((record) => (record.run ?? record.step) === run && record.work !== undefined)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/** Opens the run's chain here, replaying a shared store's log first. */
export async function openChain(parts: RunWorkParts, name: string): Promise<RunChain> {
  await parts.records.pull?.();
  const run = runOf(parts.records, name);
  const steps = stepsWithWork(parts.records, run);
  if (steps.length === 0)
    throw new WorkError(
      `run "${run}" has no recorded work: it ran with checkpoints off, without git, or before flower kept a run's files`,
    );
  const recorded = steps.at(-1)!.work!;
  const o = parts.options;
  // With a store the log is the truth, read into this checkout's shadow; without one, the run's own.
  const workspace =
    parts.carrier !== null || !existsSync(recorded.workspace) ? o.workspace : recorded.workspace;
  if (parts.carrier === null && workspace !== recorded.workspace && !existsSync(recorded.workspace))
    throw new WorkError(
      `run "${run}" worked in ${recorded.workspace}, which is not on this machine; with a shared store (--store) its work travels with it`,
    );
  const tracker = await WorkTracker.open({
    workspace,
    runDir: o.runDir,
    run,
    owned: recorded.isolated,
    carrier: parts.carrier,
    maxFileBytes: o.work.maxFileBytes,
    now: o.internal.now,
  });
  await tracker.catchUp();
  return { run, steps, tracker };
}

/** What the branch of a run is built from. */
function branchInput(chain: RunChain): BranchInput {
  const first = chain.steps[0]!;
  return {
    run: chain.run,
    base: first.work!.base,
    start: first.work!.start,
    startedAt: first.startedAt,
    generations: branchGenerations(chain.steps),
  };
}

/** The branch's generations: every generation of every step with work, in order. */
function branchGenerations(steps: readonly StepRecord[]): BranchGeneration[] {
  return steps.flatMap((record) =>
    record.history.map((generation) => ({
      step: record.step,
      generation: generation.generation,
      end: generation.work?.end ?? null,
      summary: generation.work?.summary ?? null,
      at: generation.endedAt ?? generation.startedAt,
      files: generation.work?.files.length ?? 0,
    })),
  );
}

/**
 * Builds `flower/<run>` from the chain and puts it into the repository of the chain's workspace. Null
 * when the workspace is not in a git repository (the work stays in the shadow repository: diff works).
 */
export async function handBack(chain: RunChain, into?: string): Promise<HandedBack | null> {
  const person = chain.tracker.shadow.person;
  if (person === null) return null;
  const root = into ?? person.root;
  const built = await buildBranch(chain.tracker.shadow, branchInput(chain));
  // A run that changed nothing (yet) gets no branch: one holding only the person's own uncommitted
  // changes, or nothing at all, says nothing about the run.
  if (built === null || built.own === 0) return null;
  await publishBranch(chain.tracker.shadow, built, root);
  return { ...built, repository: root };
}

/** The run's changes as `git diff` prints them (or its stat, or the paths). */
export async function diffRun(chain: RunChain, options: DiffOptions = {}): Promise<string> {
  const { from, to } = range(chain, options);
  if (from === null || to === null || from === to) return "";
  const format = options.format ?? "patch";
  const color = options.color === true ? "--color=always" : "--no-color";
  const shadow = chain.tracker.shadow;
  const scope = shadow.scope === "" ? ["."] : [`:(top)${shadow.scope}`];
  const args =
    format === "stat"
      ? ["diff", "--stat", color, from, to, "--", ...scope]
      : format === "names"
        ? ["diff", "--name-only", "-z", from, to, "--", ...scope]
        : ["diff", color, "--binary", from, to, "--", ...scope];
  const answer = await shadow.run(args);
  return format === "names"
    ? nulList(answer.stdout).join("\n") + (answer.stdout.length > 0 ? "\n" : "")
    : answer.stdout.toString("utf8");
}

/** The two checkpoints a diff compares. */
function range(chain: RunChain, options: DiffOptions): { from: string | null; to: string | null } {
  const steps = chain.steps;
  if (options.step !== undefined) {
    const record = steps.find((one) => one.step === options.step);
    if (!record)
      throw new ConfigurationError(
        "step",
        options.step,
        `a step of run "${chain.run}" with work (${steps.map((one) => one.step).join(", ")})`,
      );
    return generationRange(record, options.generation, steps);
  }
  if (options.generation !== undefined) {
    const record =
      [...steps].reverse().find((one) => one.history.some((g) => (g.work?.files.length ?? 0) > 0)) ??
      steps.at(-1)!;
    return generationRange(record, options.generation, steps);
  }
  return { from: steps[0]!.work!.start, to: chain.tracker.tip ?? steps.at(-1)!.work!.tip };
}

function generationRange(
  record: StepRecord,
  generation: number | undefined,
  steps: readonly StepRecord[],
): { from: string | null; to: string | null } {
  if (generation === undefined) {
    const first = record.history[0]?.work?.start ?? record.work!.start;
    return { from: first, to: record.work!.tip };
  }
  const found = record.history.find((one) => one.generation === generation);
  if (!found || !Number.isInteger(generation))
    throw new ConfigurationError(
      "generation",
      generation,
      `a generation of step "${record.step}" (1 to ${record.history.length})${steps.length > 1 ? "; --step names another step" : ""}`,
    );
  return { from: found.work?.start ?? null, to: found.work?.end ?? null };
}

/**
 * `flower apply`: the branch (built afresh) merged or squashed into the current branch of `checkout`'s
 * repository (the checkout the command runs in, whatever folder the run itself worked in).
 */
export async function applyRun(
  chain: RunChain,
  checkout: string,
  options: { squash: boolean },
): Promise<AppliedBranch & { branch: string }> {
  const person = await personRepository(checkout);
  if (person === null)
    throw new WorkRefusedError(
      `flower apply: ${checkout} is not a git repository; the run's changes are in its checkpoints (${typed(`diff ${shellQuote(chain.run)}`)})`,
    );
  const last = chain.steps.at(-1)!.work!;
  if (!last.isolated && (await samePlace(last.workspace, person.root)))
    throw new WorkRefusedError(
      `flower apply: run "${chain.run}" worked in this checkout: its changes are already here (${typed(`diff ${shellQuote(chain.run)}`)} shows them; git diff, git commit as usual)`,
    );
  const handed = await handBack(chain, person.root);
  if (handed === null) throw new WorkError(`run "${chain.run}" has nothing to hand back`);
  const task = chain.steps[0]!.workflow?.task ?? chain.steps[0]!.prompt;
  const { theirs, inTheWay } = await untrackedOf(chain, handed, person.root);
  // The person's own untracked files stay theirs: a copy of the branch without them is merged.
  const scratch = `refs/flower/apply/${handed.branch.slice("flower/".length)}`;
  if (theirs.length > 0 && inTheWay.length === 0) {
    const copy = await buildBranch(chain.tracker.shadow, { ...branchInput(chain), leaveOut: theirs });
    await publishBranch(chain.tracker.shadow, copy!, person.root, scratch);
  }
  try {
    return {
      ...(await applyBranch(person.root, handed.branch, {
        squash: options.squash,
        message: `Merge ${handed.branch}: ${task.split("\n")[0]!.slice(0, 60)}`,
        inTheWay,
        ...(theirs.length > 0 ? { source: scratch } : {}),
      })),
      branch: handed.branch,
    };
  } finally {
    if (theirs.length > 0) await git(["update-ref", "-d", scratch], { cwd: person.root, ok: [0, 1, 128] });
  }
}

/**
 * What stands between the branch and the checkout's untracked files: `theirs`, the files the person had
 * untracked when the run began and the run did not change (left out of the merge: never committed, not
 * touched), and `inTheWay`, untracked files here the merge would write over (a refusal naming them).
 * Paths relative to the repository's top.
 */
async function untrackedOf(
  chain: RunChain,
  handed: HandedBack,
  root: string,
): Promise<{ theirs: string[]; inTheWay: string[] }> {
  const shadow = chain.tracker.shadow;
  const { base, start } = chain.steps[0]!.work!;
  const names = async (args: string[]) =>
    nulList((await shadow.run(["diff-tree", "-r", "-z", "--no-renames", "--name-only", ...args])).stdout);
  const began = base !== null && start !== null ? await names(["--diff-filter=A", base, start]) : [];
  const changed = new Set(start !== null ? await names([start, handed.commit]) : []);
  const theirs = began.filter((path) => !changed.has(path));
  const head = await git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], { cwd: root, ok: [0, 1] });
  const added =
    head.code === 0
      ? await names(["--diff-filter=A", head.stdout.toString("utf8").trim(), handed.commit])
      : [];
  const own = new Set(theirs);
  const inTheWay = added.filter((path) => !own.has(path) && lexists(join(root, path)));
  return { theirs, inTheWay };
}

function lexists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

async function samePlace(workspace: string, root: string): Promise<boolean> {
  if (!existsSync(workspace)) return false;
  const top = await git(["rev-parse", "--show-toplevel"], { cwd: workspace, ok: [0, 128] });
  return top.code === 0 && top.stdout.toString("utf8").trim() === root;
}

/** `flower discard`: the branch and the run's own worktree go; the records and checkpoints stay. */
export async function discardRun(
  chain: RunChain,
): Promise<{ branch: string | null; worktree: string | null }> {
  const person = chain.tracker.shadow.person;
  const branch = branchOf(chain.run);
  let deleted: string | null = null;
  if (person !== null) {
    const answer = await git(["-c", "core.hooksPath=/dev/null", "branch", "-D", branch], {
      cwd: person.root,
      ok: [0, 1],
    });
    if (answer.code === 0) deleted = branch;
  }
  const last = chain.steps.at(-1)!.work!;
  let worktree: string | null = null;
  if (last.isolated && existsSync(last.workspace)) {
    const removed = await git(["worktree", "remove", "--force", last.workspace], {
      cwd: last.workspace,
      ok: [0, 128],
    });
    if (removed.code === 0) worktree = last.workspace;
  }
  return { branch: deleted, worktree };
}
