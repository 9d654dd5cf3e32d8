/**
 * A small repository for one live case or task: its files, committed once (flower checkpoints a run's
 * files against git), in a temp directory of its own with the run directory beside it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface Workspace {
  /** The repository the agent works in. */
  dir: string;
  /** The run directory (records, sessions), outside the repository. */
  runDir: string;
  /** The temp directory holding both (removed by the caller unless kept). */
  root: string;
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: "flower live",
  GIT_AUTHOR_EMAIL: "live@flower.invalid",
  GIT_COMMITTER_NAME: "flower live",
  GIT_COMMITTER_EMAIL: "live@flower.invalid",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

export function makeWorkspace(name: string, files: Readonly<Record<string, string>>): Workspace {
  const root = mkdtempSync(join(tmpdir(), `flower-live-${name}-`));
  const dir = join(root, "repo");
  for (const [path, text] of Object.entries(files)) {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: dir, env: { ...process.env, ...GIT_ENV }, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "--allow-empty", "-m", "the task's files");
  return { dir, runDir: join(root, "runs"), root };
}
