/**
 * How the person types `flower` in their shell (held in locale/invocation.ts, where every layer's texts
 * read it), for every line flower prints for them to run (the
 * continue line, try again, `flower show …`). A project that installed flower locally
 * (`npm i -D <tarball>`) has no `flower` on its PATH: there the line must say `npx flower …`, or the
 * pasted command is "command not found".
 *
 * The rule, from what this process can see (process.env and the script it runs as, argv[1]):
 * 1. Started by npx / `npm exec` (`npm_command=exec`, and a `node_modules/.bin` directory on the PATH
 *    holds a `flower` that is this script): `npx flower`. Checking the bin, not only the variable: a
 *    process started by `npx vitest` passes `npm_command=exec` on to every child, flower included.
 * 2. The first `flower` on the PATH outside `node_modules/.bin` (where npm scripts and npx put a
 *    project's bins; the person's own shell has none) is this script: `flower` (a global install, `npm link`).
 * 3. This script lies under a `node_modules` directory (`./node_modules/.bin/flower`, an npm script):
 *    `npx flower`, which finds the project's copy.
 * 4. Anything else (`node dist/cli/main.js` in a clone): `flower`, the command's name.
 */
import { accessSync, constants, realpathSync } from "node:fs";
import { basename, delimiter, dirname, join, sep } from "node:path";

import type { Invocation } from "../../locale/invocation.js";

export function detectInvocation(env: NodeJS.ProcessEnv, script: string | undefined): Invocation {
  const self = script ? realPath(script) : null;
  if (self === null) return "flower";
  const dirs = (env.PATH ?? "").split(delimiter).filter((dir) => dir !== "");
  const isSelf = (dir: string) => realPath(join(dir, "flower")) === self;
  if (env.npm_command === "exec" && dirs.some((dir) => isBinDir(dir) && isSelf(dir))) return "npx flower";
  const first = dirs.find((dir) => !isBinDir(dir) && isExecutable(join(dir, "flower")));
  if (first !== undefined && isSelf(first)) return "flower";
  if (self.split(sep).includes("node_modules")) return "npx flower";
  return "flower";
}

/** A project's bin directory, as npm puts it on the PATH of scripts and npx. */
function isBinDir(dir: string): boolean {
  return basename(dir) === ".bin" && basename(dirname(dir)) === "node_modules";
}

function realPath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
