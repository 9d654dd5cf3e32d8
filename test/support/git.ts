/**
 * git as a test runs it in a repository it made: none of the developer's configuration (no global or
 * system file, so their hooks path, templates, signing or aliases change nothing) and no optional lock
 * (reading the state must not refresh the index a test then compares). Returns stdout, trimmed.
 */
import { execFileSync } from "node:child_process";

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_OPTIONAL_LOCKS: "0",
    },
  }).trim();
}
