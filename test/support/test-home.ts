/**
 * The HOME every test process, and every `flower` and `claude` a test starts, sees: a folder of its own
 * with no shell startup files in it.
 *
 * Why: the binary sources `~/.bashrc` into a snapshot for its Bash tool, once per `claude` process. On the
 * project's CI machine that file runs `pyenv init`, whose `pyenv rehash` takes a lock file
 * (`~/.pyenv/shims/.pyenv-shim`) and removes it only on a clean exit. A test that kills a driver's group,
 * or flower's reaper sweeping what a killed driver started, can end a rehash holding it; from then on every
 * Bash call of every later test waited 60 s for the stale lock before running (a CI run: 40 tests timed
 * out, 58 minutes). What a developer's dotfiles do is not what a test checks.
 *
 * Two things come along from the real home, so nothing else changes: git's global configuration
 * (included, so a commit a test makes has the same identity as before) and npm's cache (the packed-install
 * tests install from it, offline).
 */
import { readFileSync } from "node:fs";
import { homedir, tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { writeFileAtomically } from "../../src/fs/atomic-write.js";

/** Writes `content` unless the file already holds it (parallel runs share the folder). */
function keep(path: string, content: string): void {
  let current: string | undefined;
  try {
    current = readFileSync(path, "utf8");
  } catch {
    // Not written yet.
  }
  if (current !== content) writeFileAtomically(path, content, { mode: 0o644 });
}

/** The variables a test run sets; `HOME` is made (idempotently) on the first call. */
export function testHomeEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const realHome = env.HOME && env.HOME.length > 0 ? env.HOME : homedir();
  // One per user, fixed, so parallel runs share it: its content is the same for all.
  const home = join(tmpdir(), `flower-test-home-${userInfo().uid}`);
  if (realHome === home) return { HOME: home };
  const npmCache =
    env.npm_config_cache && env.npm_config_cache.length > 0 ? env.npm_config_cache : join(realHome, ".npm");
  const written = "Written by test/support/test-home.ts";
  keep(
    join(home, ".gitconfig"),
    `# ${written}: the developer's own git configuration, nothing else.\n[include]\n\tpath = ${join(realHome, ".gitconfig")}\n`,
  );
  // In ~/.npmrc, not only in the environment: the packed-install tests give `npx` a shell with no npm_*
  // variable (as a person's has), and an empty cache there fetched the SDK's 235 MB again.
  keep(join(home, ".npmrc"), `# ${written}: the developer's npm cache.\ncache=${npmCache}\n`);
  return { HOME: home, npm_config_cache: npmCache };
}
