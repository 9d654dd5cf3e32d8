/**
 * `flower apply <run>`: the run's branch into the person's current branch, as a merge (the default) or
 * squashed into staged changes. Refused, with nothing changed, over uncommitted changes to tracked files
 * (a merge would mix the run's work into them, and an aborted one could take them along), over untracked
 * files in the way of the merge (git would refuse halfway through its own message), and when the merge
 * conflicts (it is aborted; the person can merge by hand and resolve). The person's own hooks run: this
 * is their merge, made at their request.
 *
 * The untracked files a run began on, which it did not change, are the person's, not the run's work: the
 * caller merges a copy of the branch without them (hand-back.ts `leaveOut`), so they are never committed
 * and their copies here are not touched.
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
  options: {
    squash: boolean;
    message: string;
    /** The ref merged, when not the branch itself (a copy without the person's own untracked files). */
    source?: string;
    /** Untracked files of the checkout the merge would write over (relative to its top). */
    inTheWay?: readonly string[];
  },
): Promise<AppliedBranch> {
  const dirty = await uncommittedFiles(root);
  if (dirty.length > 0)
    throw new WorkRefusedError(
      `flower apply: refused, nothing changed: uncommitted changes to ${listed(dirty)}. Commit them first (a run that began on uncommitted changes brings them along: git merges them with your commit), then apply again.`,
      dirty,
    );
  if (options.inTheWay !== undefined && options.inTheWay.length > 0) throw inTheWay(branch, options.inTheWay);
  const source = options.source ?? branch;
  const before = await gitText(["rev-parse", "HEAD"], { cwd: root });
  const behind = await gitText(["rev-list", "--count", `HEAD..${source}`], { cwd: root });
  if (behind === "0") return { how: "up-to-date", commit: null, files: [] };
  const merge = await git(
    options.squash
      ? ["merge", "--squash", source]
      : ["merge", "--no-ff", "--no-edit", "-m", options.message, source],
    { cwd: root, ok: [0, 1, 2, 128] },
  );
  // git stopped before it began (an untracked file it would overwrite that was not foreseen): its list.
  const blocked = overwritten(merge.stderr);
  if (merge.code !== 0 && blocked.length > 0) throw inTheWay(branch, blocked);
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

function inTheWay(branch: string, paths: readonly string[]): WorkRefusedError {
  return new WorkRefusedError(
    `flower apply: refused, nothing changed: untracked files here are in the way of ${branch}: ${listed(paths)}. Move them aside (or commit them), then apply again.`,
    paths,
  );
}

/** The files git names after "untracked working tree files would be overwritten by merge:". */
function overwritten(stderr: string): string[] {
  const lines = stderr.split("\n");
  const start = lines.findIndex((line) =>
    /untracked working tree files would be (overwritten|removed)/.test(line),
  );
  if (start < 0) return [];
  const paths: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith("\t")) break;
    paths.push(line.slice(1));
  }
  return paths;
}

function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, 8).join(", ");
  return paths.length > 8 ? `${shown} and ${paths.length - 8} more` : shown;
}
