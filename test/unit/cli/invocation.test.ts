/**
 * The command a printed line starts with (cli/command-line/invocation.ts): `npx flower` where the person has no
 * `flower` on the PATH of their shell, `flower` where they have this one. Real files and symlinks laid
 * out as npm lays them out: a global install, a project's local install, a clone.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectInvocation } from "../../../src/cli/command-line/invocation.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();

/** The package's entry point under `dir`, and a `flower` symlink to it in `bin`. */
function install(dir: string, bin: string): { main: string; link: string } {
  const main = join(dir, "dist", "cli", "main.js");
  mkdirSync(join(dir, "dist", "cli"), { recursive: true });
  writeFileSync(main, "#!/usr/bin/env node\n");
  chmodSync(main, 0o755);
  mkdirSync(bin, { recursive: true });
  const link = join(bin, "flower");
  symlinkSync(main, link);
  return { main, link };
}

function layout() {
  const root = temp.make("flower-invocation-");
  const global = install(join(root, "usr/lib/node_modules/flower-agent"), join(root, "usr/bin"));
  const project = join(root, "home/u/shop");
  const local = install(join(project, "node_modules/flower-agent"), join(project, "node_modules/.bin"));
  const clone = join(root, "home/u/src/flower-agent/dist/cli/main.js");
  mkdirSync(join(root, "home/u/src/flower-agent/dist/cli"), { recursive: true });
  writeFileSync(clone, "");
  const other = join(root, "usr/local/bin");
  mkdirSync(other, { recursive: true });
  return {
    global,
    local,
    clone,
    shellPath: [other, join(root, "usr/bin")].join(delimiter),
    noFlowerPath: other,
    projectBin: join(project, "node_modules/.bin"),
  };
}

describe("detectInvocation", () => {
  it("`npx flower` in a project that installed flower locally (npx puts its bin on the PATH)", () => {
    const at = layout();
    const env = { npm_command: "exec", PATH: [at.projectBin, at.noFlowerPath].join(delimiter) };
    expect(detectInvocation(env, at.local.link)).toBe("npx flower");
    // The same with a global flower of another install further down the PATH.
    expect(
      detectInvocation({ ...env, PATH: [at.projectBin, at.shellPath].join(delimiter) }, at.local.link),
    ).toBe("npx flower");
  });

  it("`npx flower` for the project's copy run by its path or from an npm script", () => {
    const at = layout();
    expect(detectInvocation({ PATH: at.noFlowerPath }, at.local.link)).toBe("npx flower");
    expect(
      detectInvocation(
        { npm_command: "run-script", PATH: [at.projectBin, at.noFlowerPath].join(delimiter) },
        at.local.link,
      ),
    ).toBe("npx flower");
    // A global flower that is another copy is not the one that ran.
    expect(detectInvocation({ PATH: at.shellPath }, at.local.main)).toBe("npx flower");
  });

  it("`flower` for the global install (or npm link) the shell finds", () => {
    const at = layout();
    expect(detectInvocation({ PATH: at.shellPath }, at.global.link)).toBe("flower");
    expect(detectInvocation({ PATH: at.shellPath }, at.global.main)).toBe("flower");
  });

  it("`flower` for a clone's dist/cli/main.js, even under an `npx vitest` whose npm_command it inherits", () => {
    const at = layout();
    expect(detectInvocation({ PATH: at.shellPath }, at.clone)).toBe("flower");
    expect(
      detectInvocation(
        { npm_command: "exec", PATH: [at.projectBin, at.shellPath].join(delimiter) },
        at.clone,
      ),
    ).toBe("flower");
    expect(detectInvocation({}, undefined)).toBe("flower");
  });
});
