/**
 * `flower apply <run>`: the run's branch into the person's current branch, as a merge (the default) or
 * squashed into staged changes. Refused, with nothing changed, over uncommitted changes to tracked files
 * (a merge would mix the run's work into them, and an aborted one could take them along) and when the
 * merge conflicts (it is aborted; the person can merge by hand and resolve). The person's own hooks run:
 * this is their merge, made at their request.
 */
import { WorkRefusedError } from "../errors.js";
import { git, gitText, nulList } from "./git.js";

export interface AppliedBranch {
  how: "merge" | "squash" | "up-to-date";
  /** The merge commit (merge), or null (squash: the changes are staged, not committed). */
  commit: string | null;
  /** Files the branch changed against the current branch. */
  files: string[];
}

/** Tracked files with uncommitted changes (staged or not); untracked files are not in a merge's way. */
export async function uncommittedFiles(root: string): Promise<string[]> {
  const answer = await git(["status", "--porcelain=v1", "-z", "--untracked-files=no"], { cwd: root });
  return nulList(answer.stdout)
    .filter((entry) => /^[ MADRCU?!]{2} /.test(entry))
    .map((entry) => entry.slice(3));
}

export async function applyBranch(
  root: string,
  branch: string,
  options: { squash: boolean; message: string },
): Promise<AppliedBranch> {
  const dirty = await uncommittedFiles(root);
  if (dirty.length > 0)
    throw new WorkRefusedError(
      `flower apply: refused, nothing changed: uncommitted changes to ${listed(dirty)}. Commit them first (a run that began on uncommitted changes brings them along: git merges them with your commit), then apply again.`,
      dirty,
    );
  const before = await gitText(["rev-parse", "HEAD"], { cwd: root });
  const behind = await gitText(["rev-list", "--count", `HEAD..${branch}`], { cwd: root });
  if (behind === "0") return { how: "up-to-date", commit: null, files: [] };
  const merge = await git(
    options.squash
      ? ["merge", "--squash", branch]
      : ["merge", "--no-ff", "--no-edit", "-m", options.message, branch],
    { cwd: root, ok: [0, 1, 128] },
  );
  if (merge.code !== 0) {
    const conflicts = nulList(
      (await git(["diff", "-z", "--name-only", "--diff-filter=U"], { cwd: root, ok: [0, 128] })).stdout,
    );
    // Back to where the person was: a squash leaves no MERGE_HEAD, so its staged changes are reset.
    if (options.squash) await git(["reset", "--merge"], { cwd: root, ok: [0, 128] });
    else await git(["merge", "--abort"], { cwd: root, ok: [0, 128] });
    const said = `${merge.stdout.toString("utf8")}${merge.stderr}`.trim().split("\n").slice(-2).join(" / ");
    throw new WorkRefusedError(
      conflicts.length > 0
        ? `flower apply: ${branch} conflicts with your branch in ${listed(conflicts)}; nothing changed. Merge it by hand to resolve: git merge ${branch}`
        : `flower apply: git could not merge ${branch} (${said}); nothing changed.`,
      conflicts,
    );
  }
  // What the person's branch got: the merge's changes against where it was (a squash: what is staged).
  const changed = await git(
    options.squash
      ? ["diff", "-z", "--cached", "--name-only"]
      : ["diff", "-z", "--name-only", before, "HEAD"],
    { cwd: root },
  );
  const files = nulList(changed.stdout);
  if (options.squash) return { how: "squash", commit: null, files };
  return { how: "merge", commit: await gitText(["rev-parse", "HEAD"], { cwd: root }), files };
}

function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, 8).join(", ");
  return paths.length > 8 ? `${shown} and ${paths.length - 8} more` : shown;
}
