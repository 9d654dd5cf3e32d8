/**
 * A run's work handed back as a branch of the person's repository, `flower/<run>`: one commit per
 * generation that changed files, its message the generation's handoff "doing" (the step's answer for
 * the last), its tree the generation's last checkpoint. The per-call checkpoints are squashed into it and
 * stay in the shadow repository (and the store), reachable for a rewind. When the run began on
 * uncommitted changes, a first commit holds them, so the run's own commits show only what it did.
 *
 * The commits are made in the shadow repository with fixed identities and times taken from the record,
 * so building the branch again (another machine, after a continue) gives the same commits for the same
 * generations. The branch reaches the person's repository by a local fetch: objects and one ref, nothing
 * else (not their HEAD, index, work tree or config; their hooks are not run).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { WorkError } from "../errors.js";
import { branchOf } from "./checkpoint-message.js";
import { git, gitText } from "./git.js";
import type { ShadowRepo } from "./shadow-repo.js";

/** One generation as the branch needs it. */
export interface BranchGeneration {
  step: string;
  generation: number;
  /** The generation's last checkpoint; null when it took none. */
  end: string | null;
  /** The commit message's first line. */
  summary: string | null;
  /** The generation's end (its commit's date); its start when it has not ended. */
  at: string;
  files: number;
}

export interface BranchInput {
  run: string;
  /** The person's HEAD when the run began; null outside a repository (then there is no branch). */
  base: string | null;
  /** The run's first checkpoint: the person's checkout as the run found it. */
  start: string | null;
  /** When the run began (the first commit's date). */
  startedAt: string;
  generations: BranchGeneration[];
  /**
   * Paths (relative to the repository's top) kept out of every commit: `flower apply` leaves out the
   * files the person had untracked when the run began and the run did not change (they are theirs, and
   * still in their checkout). @default none
   */
  leaveOut?: readonly string[];
}

export interface BuiltBranch {
  /** `flower/<run>`. */
  branch: string;
  /** The branch's tip in the shadow repository. */
  commit: string;
  /** Commits on top of base: the uncommitted changes the run began on (if any), then one per generation. */
  commits: number;
  /** Of those, the run's own: one per generation that changed files. */
  own: number;
}

/** Builds the branch's commits in the shadow repository; null when there is nothing to hand back. */
export async function buildBranch(shadow: ShadowRepo, input: BranchInput): Promise<BuiltBranch | null> {
  if (input.base === null || input.start === null) return null;
  let parent = input.base;
  let tree = await shadow.treeOf(parent);
  let commits = 0;
  let own = 0;
  const commit = async (newTree: string, message: string, at: string) => {
    const date = `${Math.floor(new Date(at).getTime() / 1000)} +0000`;
    parent = await shadow.text(["commit-tree", newTree, "-p", parent, "-F", "-"], {
      input: message,
      env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
    tree = newTree;
    commits += 1;
  };
  const leaveOut = input.leaveOut ?? [];
  const treeOf = async (commit: string) => {
    const full = await shadow.treeOf(commit);
    return leaveOut.length === 0 ? full : withoutPaths(shadow, full, leaveOut);
  };
  const startTree = await treeOf(input.start);
  if (startTree !== tree)
    await commit(
      startTree,
      `flower: the uncommitted changes ${input.run} began on\n\nThe person's checkout had them when the run started; the run's own work follows.\n`,
      input.startedAt,
    );
  for (const generation of input.generations) {
    if (generation.end === null) continue;
    const endTree = await treeOf(generation.end);
    if (endTree === tree) continue;
    const title = generation.summary?.trim() || `${generation.step}: generation ${generation.generation}`;
    own += 1;
    await commit(
      endTree,
      `${title}\n\nflower run ${input.run}, step ${generation.step}, generation ${generation.generation} (${generation.files} ${generation.files === 1 ? "file" : "files"} changed)\nFlower-Checkpoint: ${generation.end}\n`,
      generation.at,
    );
  }
  const branch = branchOf(input.run);
  await shadow.setRef(`refs/flower/branches/${branch.slice("flower/".length)}`, parent);
  return { branch, commit: parent, commits, own };
}

/** A tree without some of its paths, written through a scratch index of the shadow repository. */
async function withoutPaths(shadow: ShadowRepo, tree: string, paths: readonly string[]): Promise<string> {
  const index = `leave-out-${process.pid}`;
  try {
    await shadow.run(["read-tree", tree], { index });
    await shadow.run(["update-index", "--force-remove", "-z", "--stdin"], {
      index,
      input: `${paths.join("\0")}\0`,
    });
    return await shadow.text(["write-tree"], { index });
  } finally {
    rmSync(join(shadow.dir, `index-${index}`), { force: true });
  }
}

/**
 * Puts the built branch into the person's repository as `flower/<run>` (a fetch from the shadow
 * repository: objects and the one ref), or as another ref (`as`: apply's scratch ref). Refused when that
 * branch is checked out there: moving it would leave the person's index and files behind.
 */
export async function publishBranch(
  shadow: ShadowRepo,
  built: BuiltBranch,
  personRoot: string,
  as = `refs/heads/${built.branch}`,
): Promise<void> {
  const current = await gitText(["symbolic-ref", "--quiet", "HEAD"], { cwd: personRoot, ok: [0, 1] });
  if (current === as)
    throw new WorkError(
      `${built.branch} is checked out in ${personRoot}: switch to another branch first, so that flower can move it`,
    );
  await git(
    [
      "-c",
      "core.hooksPath=/dev/null",
      "fetch",
      "--quiet",
      "--no-tags",
      "--no-write-fetch-head",
      "--force",
      shadow.dir,
      `refs/flower/branches/${built.branch.slice("flower/".length)}:${as}`,
    ],
    { cwd: personRoot },
  );
}
