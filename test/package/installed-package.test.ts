/**
 * The package as a user gets it, installed the way the README's "Use it in your own project" says: the
 * README's own lines are read from the README and run in a scratch project, so the README and this
 * test cannot drift apart. One pack and one install per run (they are the slow part).
 *
 * Where the test departs from a user's machine, and why:
 * - `npm pack` runs with `--ignore-scripts` into a temp directory: the README's `npm ci && npm pack`
 *   would rebuild `dist/` in place (under tests that are reading it) and wipe `node_modules/`; `npm test`
 *   has just built `dist/`, which is what the pack holds.
 * - The install line runs as written, with npm configured through the environment: prefer the npm
 *   cache (the clone's `npm ci` filled it), and no install scripts. better-sqlite3's script compiles its
 *   binding from source here (no prebuild is reachable), minutes on a loaded machine; the clone's own
 *   binding of the same version and Node takes its place.
 */
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from "node:fs";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import ts from "typescript";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeModel, text, toolUse, type FakeModel } from "../../src/testing/index.js";
import { cleanEnv } from "../e2e/cli/helpers.js";
import { goalAnswer, requirementsAnswer } from "../e2e/cli/workflow-answers.js";
import { INSTALLED_EXAMPLES } from "../support/installed-examples.js";
import { useTempDirs } from "../support/temp-dir.js";
import { runProcess } from "../support/run-node.js";

const root = resolve(import.meta.dirname, "../..");
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
const readme = readFileSync(join(root, "README.md"), "utf8");

/** Where the README's lines say the clone is; the test's tarball lives elsewhere. */
const CLONE = "~/src/flower-agent";

/** The section's first `sh` block, one command per line, comments and blank lines dropped. */
function ownProjectLines(): string[] {
  const start = readme.indexOf("## Use it in your own project");
  expect(start, "README has a section 'Use it in your own project'").toBeGreaterThan(-1);
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/** The first `ts` block of a markdown file that contains `marker`, as written. */
function example(file: string, marker: string): string {
  const blocks = [...readFileSync(join(root, file), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)];
  const found = blocks.map((match) => match[1]!).find((block) => block.includes(marker));
  expect(found, `${file} has a ts example with ${marker}`).toBeDefined();
  return found!;
}

/** Runs one line as a shell would (in its own process group, so a timeout takes its children along). */
function sh(line: string, options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }) {
  return runProcess("sh", ["-c", line], options, `"${line}"`);
}

const temp = useTempDirs();
const lines = ownProjectLines();
const packDir = temp.make("flower-pack-");
const project = temp.make("flower-project-");
/** A user's shell: no credentials, English; npm told to use its cache and skip install scripts. */
const userEnv = {
  ...cleanEnv(),
  CLAUDE_CONFIG_DIR: temp.make("flower-claude-config-"),
  npm_config_prefer_offline: "true",
  npm_config_ignore_scripts: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};

/** git in the person's repository, without reading or refreshing anything flower is checked against. */
function git(...args: string[]): string {
  return execFileSync("git", args, {
    cwd: project,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_OPTIONAL_LOCKS: "0" },
  });
}

const HOOKS = [
  "pre-commit",
  "post-checkout",
  "post-merge",
  "post-commit",
  "reference-transaction",
  "pre-push",
];

function personsRepository(dir: string): void {
  git("init", "-q", "-b", "main");
  git("config", "user.email", "person@example.com");
  git("config", "user.name", "Person");
  writeFileSync(join(dir, ".gitignore"), "node_modules/\n");
  git("add", "-A");
  git("commit", "-q", "--no-verify", "-m", "the person's project");
  for (const hook of HOOKS)
    writeFileSync(join(dir, ".git", "hooks", hook), `#!/bin/sh\necho ${hook} >> "${dir}.hooks.log"\n`, {
      mode: 0o755,
    });
  writeFileSync(join(dir, "notes.txt"), "the person's uncommitted notes\n");
}

/** What the person's own git says about their repository: every part flower must leave as it was. */
function repositoryState(): Record<string, string> {
  return {
    status: git("status", "--porcelain"),
    head: git("rev-parse", "HEAD"),
    refs: git("for-each-ref", "--format=%(refname) %(objectname)"),
    stash: git("stash", "list"),
    index: createHash("sha256")
      .update(readFileSync(join(project, ".git", "index")))
      .digest("hex"),
    config: readFileSync(join(project, ".git", "config"), "utf8"),
  };
}

let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

beforeAll(async () => {
  const pack = await sh(`npm pack --ignore-scripts --pack-destination '${packDir}'`, {
    cwd: root,
    env: userEnv,
    timeoutMs: 120_000,
  });
  expect(pack.code, pack.stderr).toBe(0);
  expect(readdirSync(packDir)).toEqual([`flower-agent-${version}.tgz`]);
  const init = await sh("npm init -y", { cwd: project, env: userEnv, timeoutMs: 60_000 });
  expect(init.code, init.stderr).toBe(0);
  // The project is a repository of the person's, with hooks of its own and a dirty tree: flower must
  // run in it without running a hook or changing its index, HEAD, branches or status.
  personsRepository(project);
  const install = lines.find((line) => line.startsWith("npm i -D "));
  expect(install, "the README installs with npm i -D").toBeDefined();
  expect(install).toContain(`${CLONE}/flower-agent-${version}.tgz`);
  const run = await sh(install!.replace(CLONE, packDir), { cwd: project, env: userEnv, timeoutMs: 600_000 });
  expect(run.code, run.stderr).toBe(0);
  // The one departure (see the top): the clone's compiled binding instead of compiling it again.
  const binding = "node_modules/better-sqlite3/build/Release/better_sqlite3.node";
  const versionOf = (dir: string) =>
    (
      JSON.parse(readFileSync(join(dir, "node_modules/better-sqlite3/package.json"), "utf8")) as {
        version: string;
      }
    ).version;
  expect(versionOf(project)).toBe(versionOf(root));
  mkdirSync(join(project, "node_modules/better-sqlite3/build/Release"), { recursive: true });
  copyFileSync(join(root, binding), join(project, binding));
}, 900_000);

describe("the README's own-project lines, in a scratch project", () => {
  it("packs in the clone and installs with the line the README gives", () => {
    expect(lines.some((line) => line.includes("npm pack"))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as {
      devDependencies?: Record<string, string>;
    };
    expect(manifest.devDependencies?.["flower-agent"]).toMatch(/flower-agent-.*\.tgz$/);
    // A copy, not a link to the clone: this is what the user's project holds.
    expect(lstatSync(join(project, "node_modules/flower-agent")).isSymbolicLink()).toBe(false);
    expect(existsSync(join(project, "node_modules/.bin/flower"))).toBe(true);
  });

  it("runs every `npx flower` line as written, each with what a user would see", async () => {
    const flowerLines = lines.filter((line) => line.startsWith("npx flower"));
    expect(flowerLines).toEqual([
      "npx flower --version",
      "npx flower --help",
      "npx flower demo",
      'npx flower "Make the test suite pass"',
    ]);
    const versionLine = await sh(flowerLines[0]!, { cwd: project, env: userEnv, timeoutMs: 60_000 });
    expect(versionLine).toMatchObject({ code: 0, stdout: `${version}\n` });

    const help = await sh(flowerLines[1]!, { cwd: project, env: userEnv, timeoutMs: 60_000 });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('flower [options] "<task>"');
    expect(help.stdout).toContain("--version");

    const demo = await sh(flowerLines[2]!, { cwd: project, env: userEnv, timeoutMs: 300_000 });
    expect(demo.code, demo.stderr.slice(-2000)).toBe(0);
    expect(`${demo.stdout}${demo.stderr}`).toMatch(/demo finished: 2 handoffs, 3 generations/);

    // With no key the task line is not a run: it says what to set, exits 2, and writes nothing.
    const before = readdirSync(project).sort();
    const task = await sh(flowerLines[3]!, { cwd: project, env: userEnv, timeoutMs: 60_000 });
    expect(task.code).toBe(2);
    expect(task.stderr).toContain("no way to reach Claude is configured");
    expect(readdirSync(project).sort()).toEqual(before);
  }, 600_000);

  it("prints the continue line as `npx flower continue …` there, and that line, run as printed, goes on", async () => {
    model = await startFakeModel({
      policy: (request) => {
        if (request.documentKind === "requirements") return text(requirementsAnswer());
        if (request.documentKind === "goal") return text(goalAnswer(request));
        return text("Fixed the flaky test; `true` exits 0.");
      },
    });
    const env = { ...userEnv, ...model.env() };
    const before = repositoryState();
    const first = await sh('npx flower "Fix the flaky test"', { cwd: project, env, timeoutMs: 180_000 });
    expect(first.code, first.stderr.slice(-2000)).toBe(0);
    // No `flower` on this project's PATH: the line says what the user can type.
    const printed = /^Go on with: (.*)$/m.exec(first.stdout)?.[1];
    expect(printed, first.stdout).toBe("npx flower continue fix-the-flaky-test");
    expect(first.stdout).toContain('(npx flower --yes "<task>" runs straight through, without this pause)');
    const bare = await sh("npx flower", { cwd: project, env, timeoutMs: 60_000 });
    expect(bare.stdout).toContain(
      `Continue it with: ${printed}\n` +
        `Read its frozen document first (change a line there if it is wrong): ${join(project, ".flower", "notes", "requirements-fix-the-flaky-test.md")}\n` +
        `Or start another: npx flower "<task>"`,
    );

    const second = await sh(printed!, { cwd: project, env, timeoutMs: 180_000 });
    expect(second.code, second.stderr.slice(-2000)).toBe(0);
    expect(second.stdout).toContain("== step 3/3 · work");
    expect(second.stdout).toContain("ok goal checks: all 1 pass");
    // The person's repository is as it was: no hook ran, their index, HEAD, branches and stash are theirs.
    expect(repositoryState()).toEqual(before);
    expect(existsSync(`${project}.hooks.log`)).toBe(false);
  }, 420_000);

  // These two examples run here only: test/readme/ counts them as run (test/support/installed-examples.ts).
  it("runs the README's library example there, as written, against the offline kit", async () => {
    model = await startFakeModel({
      policy: (request) => {
        if (request.isSubagent) return text("data/ holds 3 files, 42 lines.");
        return request.countToolResults("Agent") === 0
          ? toolUse("Agent", { description: "count", prompt: "Count data/.", subagent_type: "analyst" })
          : text("3 files, 42 lines");
      },
    });
    // The README: save it as survey.mjs and run `node survey.mjs`.
    const { library } = INSTALLED_EXAMPLES;
    writeFileSync(join(project, "survey.mjs"), example(library.file, library.marker));
    mkdirSync(join(project, "data"), { recursive: true });
    const run = await sh("node survey.mjs", {
      cwd: project,
      env: { ...userEnv, ...model.env() },
      timeoutMs: 120_000,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("step-start");
    expect(run.stdout).toContain("3 files, 42 lines 1");
    expect(model.exchanges.some((exchange) => exchange.kind === "subagent")).toBe(true);
  }, 180_000);

  it("runs the testing kit's example there, as written", async () => {
    const { testingKit } = INSTALLED_EXAMPLES;
    writeFileSync(join(project, "kit.mjs"), example(testingKit.file, testingKit.marker));
    const run = await sh("node kit.mjs", { cwd: project, env: userEnv, timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("success");
    expect(run.stdout).toMatch(/^2 \{/m);
  }, 180_000);
});

describe("flower-agent installed into a scratch project", () => {
  // The one list of the package's surface, per subpath (docs/library.md has what each is for): the names a
  // user's `import` gets at run time, through the installed package's `exports`, and the type-only names
  // its declarations add. A name that appears or goes shows in the snapshot's diff.
  it("exports exactly the documented surface, per subpath", async () => {
    const installed = join(project, "node_modules/flower-agent");
    const exportsMap = (
      JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as {
        exports: Record<string, string | { types: string; import: string }>;
      }
    ).exports;
    const subpaths = Object.keys(exportsMap).filter((subpath) => subpath !== "./package.json");
    const specifiers = subpaths.map((subpath) => join("flower-agent", subpath));
    // Imported by name from the scratch project, as a user's module would.
    const listing = await sh(
      `node --input-type=module -e 'for (const name of ${JSON.stringify(specifiers)}) ` +
        `console.log(JSON.stringify([name, Object.keys(await import(name)).sort()]))'`,
      { cwd: project, env: userEnv, timeoutMs: 60_000 },
    );
    expect(listing.code, listing.stderr).toBe(0);
    const values = new Map(
      listing.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as [string, string[]]),
    );
    const surface: Record<string, { values: string[]; types: string[] }> = {};
    for (const [index, subpath] of subpaths.entries()) {
      const entry = exportsMap[subpath]!;
      expect(typeof entry, subpath).toBe("object");
      const declared = declaredNames(join(installed, (entry as { types: string }).types));
      const runtime = values.get(specifiers[index]!)!;
      expect(
        runtime.filter((name) => !declared.includes(name)),
        `${subpath}: values without a type`,
      ).toEqual([]);
      surface[specifiers[index]!] = {
        values: runtime,
        types: declared.filter((name) => !runtime.includes(name)),
      };
    }
    expect(surface).toMatchSnapshot();
  });
});

/** Every name a declaration file exports (values and types), as the compiler sees it. */
function declaredNames(file: string): string[] {
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  return checker
    .getExportsOfModule(module)
    .map((symbol) => symbol.name)
    .sort();
}
