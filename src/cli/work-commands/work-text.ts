/**
 * The words of the commands on a run's work (diff, apply, discard, fetch, rewind) and of `--worktree`,
 * per locale. Each line a person reads names what happened and, where there is one, the next command.
 */
import { shellQuote, typed } from "../../locale/invocation.js";
import type { Locale } from "../../locale/locale.js";

export interface WorkText {
  oneName: (command: string, what: string) => string;
  noRuns: (runDir: string) => string;
  /** `flower diff` found nothing: of the whole run, or of one step (and generation). */
  noChanges: (run: string, step: string | null, generation: number | null) => string;
  merged: (branch: string, into: string, files: number) => string;
  squashed: (branch: string, files: number) => string;
  upToDate: (branch: string) => string;
  discarded: (branch: string | null, worktree: string | null, run: string) => string;
  /** `run`: the run fetched, for the apply line that merges it. */
  fetched: (branch: string, commits: number, repository: string, run: string) => string;
  nothingToFetch: (run: string) => string;
  rewound: (step: string, generation: number, restored: readonly string[], archived: number) => string;
  rewoundToTurn: (
    step: string,
    generation: number,
    turn: number,
    restored: readonly string[],
    archived: number,
  ) => string;
  overwritten: (files: readonly string[]) => string;
  editHandoff: (path: string) => string;
  fromTask: string;
  goOn: (command: string) => string;
  needsTo: string;
  worktree: (path: string, commit: string | null) => string;
  worktreeAgain: (path: string) => string;
  applyHint: (command: string) => string;
}

function named(paths: readonly string[], more: (n: number) => string): string {
  const shown = paths.slice(0, 8).join(", ");
  return paths.length > 8 ? `${shown} ${more(paths.length - 8)}` : shown;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const WORK_TEXT: Record<Locale, WorkText> = {
  en: {
    oneName: (command, what) => `flower ${command}: name one ${what} (see ${typed("runs")})`,
    noRuns: (runDir) => `flower: no runs in ${runDir} (--run-dir, or --store for a shared store)`,
    noChanges: (run, step, generation) =>
      `no changes: ${generation !== null ? `generation ${generation} of ` : ""}${step !== null ? `step "${step}" of ` : ""}run "${run}" changed no files`,
    merged: (branch, into, files) =>
      `merged ${branch} into ${into}: ${plural(files, "file", "files")} changed`,
    squashed: (branch, files) =>
      `staged ${branch}'s changes squashed (${plural(files, "file", "files")}): review them, then git commit`,
    upToDate: (branch) => `${branch} is already in your branch: nothing to apply`,
    discarded: (branch, worktree, run) =>
      branch === null && worktree === null
        ? `run "${run}" has no branch or worktree here: nothing discarded`
        : `discarded ${[branch ? `the branch ${branch}` : null, worktree ? `the worktree ${worktree}` : null].filter(Boolean).join(" and ")}; the run's records and checkpoints stay (${typed(`diff ${shellQuote(run)}`)})`,
    fetched: (branch, commits, repository, run) =>
      `${branch}: ${plural(commits, "commit", "commits")} in ${repository} (git log ${branch}; ${typed(`apply ${shellQuote(run)}`)} merges it)`,
    nothingToFetch: (run) =>
      `run "${run}" has no branch to hand back: it changed no files, or its workspace is not a git repository (${typed(`diff ${shellQuote(run)}`)} shows its changes)`,
    rewound: (step, generation, restored, archived) =>
      `rewound "${step}" to the start of generation ${generation}: ${restored.length === 0 ? "no files to put back" : `${plural(restored.length, "file", "files")} put back (${named(restored, (n) => `and ${n} more`)})`}; ${plural(archived, "generation", "generations")} archived (${typed(`show ${shellQuote(step)}`)} lists ${archived === 1 ? "it" : "them"}, marked)`,
    rewoundToTurn: (step, generation, turn, restored, archived) =>
      `rewound "${step}" to the end of turn ${turn} of generation ${generation}: ${restored.length === 0 ? "no files to put back" : `${plural(restored.length, "file", "files")} put back (${named(restored, (n) => `and ${n} more`)})`}; the turns after it are taken back${archived > 0 ? `, ${plural(archived, "later generation", "later generations")} archived` : ""}; its conversation goes on from there`,
    overwritten: (files) =>
      `your changes to ${named(files, (n) => `and ${n} more`)} were put back too (--force); your version is kept in the run's checkpoints`,
    editHandoff: (path) =>
      `the handoff that started that generation is current again: ${path} — open it, add the dead end, save`,
    fromTask: "the step starts again from its task (generation 1 has no handoff)",
    goOn: (command) => `then go on with: ${command}`,
    get needsTo() {
      return `flower rewind: say which generation to go back to: --to N (${typed("show <step>")} lists them)`;
    },
    worktree: (path, commit) =>
      `working in its own worktree ${path}${commit ? ` (at ${commit.slice(0, 10)}, with your uncommitted changes)` : ""}; your checkout is not touched`,
    worktreeAgain: (path) => `working in its own worktree ${path}`,
    applyHint: (command) => `to bring the work into your branch: ${command}`,
  },
  zh: {
    oneName: (command, what) => `flower ${command}: 请给一个${what}的名字(见 ${typed("runs")})`,
    noRuns: (runDir) => `flower: ${runDir} 里没有运行(--run-dir,或共用存储用 --store)`,
    noChanges: (run, step, generation) =>
      `没有改动:运行 "${run}"${step !== null ? ` 的步骤 "${step}"` : ""}${generation !== null ? ` 第 ${generation} 代` : ""}没有改任何文件`,
    merged: (branch, into, files) => `已把 ${branch} 合进 ${into}:改了 ${files} 个文件`,
    squashed: (branch, files) => `已把 ${branch} 的改动压成一份暂存(${files} 个文件):看过后 git commit`,
    upToDate: (branch) => `${branch} 已经在你的分支里了:没有要合的`,
    discarded: (branch, worktree, run) =>
      branch === null && worktree === null
        ? `运行 "${run}" 在这里没有分支也没有 worktree:没丢掉什么`
        : `已丢掉${[branch ? `分支 ${branch}` : null, worktree ? `worktree ${worktree}` : null].filter(Boolean).join("和")};运行的记录和检查点还在(${typed(`diff ${shellQuote(run)}`)})`,
    fetched: (branch, commits, repository, run) =>
      `${branch}:${repository} 里 ${commits} 个提交(git log ${branch};要合并用 ${typed(`apply ${shellQuote(run)}`)})`,
    nothingToFetch: (run) =>
      `运行 "${run}" 没有可交回的分支:它没改文件,或者它的工作区不是 git 仓库(${typed(`diff ${shellQuote(run)}`)} 看它的改动)`,
    rewound: (step, generation, restored, archived) =>
      `已把 "${step}" 退回到第 ${generation} 代的开头:${restored.length === 0 ? "没有要放回的文件" : `放回了 ${restored.length} 个文件(${named(restored, (n) => `等另外 ${n} 个`)})`};存档了 ${archived} 代(${typed(`show ${shellQuote(step)}`)} 会列出并标明)`,
    rewoundToTurn: (step, generation, turn, restored, archived) =>
      `已把 "${step}" 退回到第 ${generation} 代第 ${turn} 轮结束时:${restored.length === 0 ? "没有要放回的文件" : `放回了 ${restored.length} 个文件(${named(restored, (n) => `等另外 ${n} 个`)})`};之后的轮次已撤回${archived > 0 ? `,存档了后面的 ${archived} 代` : ""};这段对话从那里接着做`,
    overwritten: (files) =>
      `你对 ${named(files, (n) => `等另外 ${n} 个`)} 的改动也被放回了(--force);你的版本存在运行的检查点里`,
    editHandoff: (path) => `开始那一代的交接书重新成为当前的:${path} —— 打开它,加上死路,保存`,
    fromTask: "这一步从它的任务重新开始(第 1 代没有交接书)",
    goOn: (command) => `然后接着做:${command}`,
    get needsTo() {
      return `flower rewind: 请说退回到哪一代:--to N(${typed("show <步骤>")} 会列出)`;
    },
    worktree: (path, commit) =>
      `在它自己的 worktree ${path} 里做${commit ? `(从 ${commit.slice(0, 10)} 开始,带上你未提交的改动)` : ""};你的检出不会被动`,
    worktreeAgain: (path) => `在它自己的 worktree ${path} 里做`,
    applyHint: (command) => `要把成果合进你的分支:${command}`,
  },
};
