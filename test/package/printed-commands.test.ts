/**
 * Every command line flower prints for the person to type next runs as printed, in the way flower was
 * started (issue 42): under `npx flower` from a project's `node_modules` (the README's install, a packed
 * tarball in a scratch project with its own git repository), and under a global install (`npm i -g`
 * into a prefix of its own, its `bin` on the PATH). The commands a newcomer types first run against the
 * offline kit; from their output every next-step line is collected — the continue line, "one step in
 * detail", "did you mean", "see … --help", the status hints, the demo's closing lines — and each one
 * without a placeholder is run as printed, in a shell, where the person typed the first: it must run
 * (exit 0), and what it prints is read the same way. Every mention of a command anywhere in the output
 * must start as that shell reaches flower (`npx flower` in the project, `flower` on the PATH).
 *
 * Where the test departs from a user's machine, as installed-package.test.ts does: the pack skips
 * scripts, npm prefers its cache and runs no install script, and better-sqlite3's compiled binding is
 * the clone's.
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { delimiter, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModel, text, type FakeModel } from "../../src/testing/index.js";
import { cleanEnv } from "../e2e/cli/helpers.js";
import { goalAnswer, requirementsAnswer } from "../e2e/cli/workflow-answers.js";
import { useTempDirs } from "../support/temp-dir.js";
import { runProcess, type NodeRun } from "../support/run-node.js";
import { mistyped } from "../support/typed-lines.js";

const root = resolve(import.meta.dirname, "../..");
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
const BINDING = "node_modules/better-sqlite3/build/Release/better_sqlite3.node";

const temp = useTempDirs();
const packDir = temp.make("flower-pack-");
const project = temp.make("flower-npx-project-");
const prefix = temp.make("flower-global-prefix-");
const elsewhere = temp.make("flower-global-checkout-");

/**
 * A person's shell: no credentials, English, and nothing npm puts in the environment of the process
 * that runs this test (its `node_modules/.bin` on the PATH, `npm_*` variables): those are what `npx`
 * adds, and must come from the `npx` the person types, not from the test runner.
 */
function shellEnv(extraPath: string[] = []): Record<string, string> {
  const env = cleanEnv();
  for (const key of Object.keys(env)) if (key.toLowerCase().startsWith("npm_")) delete env[key];
  const path = (env.PATH ?? "").split(delimiter).filter((dir) => !dir.endsWith(join("node_modules", ".bin")));
  return {
    ...env,
    PATH: [...extraPath, ...path].join(delimiter),
    CLAUDE_CONFIG_DIR: temp.make("flower-claude-config-"),
    npm_config_prefer_offline: "true",
    npm_config_ignore_scripts: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
}

function sh(line: string, cwd: string, env: Record<string, string>, timeoutMs = 240_000): Promise<NodeRun> {
  return runProcess("sh", ["-c", line], { cwd, env, timeoutMs }, `"${line}"`);
}

function gitRepository(dir: string): void {
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: dir, env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null" } });
  git("init", "-q", "-b", "main");
  git("config", "user.email", "person@example.com");
  git("config", "user.name", "Person");
  writeFileSync(join(dir, ".gitignore"), "node_modules/\n");
  writeFileSync(join(dir, "README.md"), "A project with a flaky test.\n");
  git("add", "-A");
  git("commit", "-q", "--no-verify", "-m", "the person's project");
}

/** The clone's compiled SQLite binding in an installed copy (see the top). */
function binding(installed: string): void {
  mkdirSync(join(installed, "node_modules/better-sqlite3/build/Release"), { recursive: true });
  copyFileSync(join(root, BINDING), join(installed, BINDING));
}

let model: FakeModel;
const npxEnv = () => ({ ...shellEnv(), ...model.env() });
const globalEnv = () => ({ ...shellEnv([join(prefix, "bin")]), ...model.env() });

beforeAll(async () => {
  model = await startFakeModel({
    policy: (request) => {
      if (request.documentKind === "requirements") return text(requirementsAnswer());
      if (request.documentKind === "goal") return text(goalAnswer(request));
      return text("Fixed the flaky test; `true` exits 0.");
    },
  });
  const env = shellEnv();
  const pack = await sh(`npm pack --ignore-scripts --pack-destination '${packDir}'`, root, env, 120_000);
  expect(pack.code, pack.stderr).toBe(0);
  const tarball = join(packDir, `flower-agent-${version}.tgz`);
  expect(readdirSync(packDir)).toEqual([`flower-agent-${version}.tgz`]);
  // The project: a package.json, a repository of its own, flower installed as the README says.
  expect((await sh("npm init -y", project, env, 60_000)).code).toBe(0);
  gitRepository(project);
  const local = await sh(`npm i -D '${tarball}'`, project, env, 600_000);
  expect(local.code, local.stderr).toBe(0);
  binding(project);
  // The global install: its own prefix, its bin first on the PATH; a checkout that knows nothing of npm.
  const global = await sh(`npm i -g --prefix '${prefix}' '${tarball}'`, elsewhere, env, 600_000);
  expect(global.code, global.stderr).toBe(0);
  binding(join(prefix, "lib/node_modules/flower-agent"));
  gitRepository(elsewhere);
}, 1_200_000);

afterAll(async () => {
  await model?.close();
});

/**
 * A next-step line in flower's output: what the person is told to type, as printed. Each pattern names
 * where such a line stands; the command is its first group.
 */
const NEXT_STEP = [
  /Go on with: (\S.*?)(?: {2}|$)/u,
  /Continue it with: (.+)$/u,
  /Or start another: (.+)$/u,
  /after fixing the cause, try: (.+)$/u,
  /Did you mean: (.+?)\? /u,
  /To run it as a task anyway: (.+)$/u,
  /one step in detail: (.+)$/u,
  /^(?:look at it:| {11}) ((?:npx )?flower .+)$/u,
  /: ((?:npx )?flower demo --keep) runs the same script again/u,
  /in a run of your own: (.+)\)$/u,
  /\(see ((?:npx )?flower [^)]+)\)/u,
  /; ((?:npx )?flower [^;]+?) (?:goes on|picks it up|lists the evidence)$/u,
  /^\((.+?) runs straight through/u,
];

/** The next-step lines of an output, each once, in the order printed. */
function nextSteps(output: string): string[] {
  const found: string[] = [];
  for (const line of output.split("\n"))
    for (const pattern of NEXT_STEP) {
      const command = pattern.exec(line)?.[1]?.trim();
      if (command && !found.includes(command)) found.push(command);
    }
  return found;
}

/** A line with a placeholder (`<step>`, `--store …`) is a form to fill in, not one to run as printed. */
const runnable = (command: string) => !/[<…]/u.test(command);

interface Shell {
  name: string;
  invocation: "flower" | "npx flower";
  cwd: () => string;
  env: () => Record<string, string>;
}

const SHELLS: Shell[] = [
  { name: "npx, from the project's node_modules", invocation: "npx flower", cwd: () => project, env: npxEnv },
  { name: "a global install on the PATH", invocation: "flower", cwd: () => elsewhere, env: globalEnv },
];

describe.each(SHELLS)("every printed next-step line runs as printed: $name", (shell) => {
  const run = (line: string) => sh(line, shell.cwd(), shell.env());
  const printed: { by: string; output: string }[] = [];
  /**
   * A help page is the command's reference: it names the command `flower` (its usage synopsis), and
   * under npx says once, at its top, to type `npx flower` there. Every other output is read line by line.
   */
  const isHelp = (line: string) => / --help$/u.test(line);
  const checkHelp = (line: string, output: string) => {
    const note = "type npx flower where this help says flower";
    // Wrapped to the terminal's width: read as one paragraph.
    const words = output.replace(/\s+/gu, " ");
    if (shell.invocation === "npx flower") expect(words, line).toContain(note);
    else expect(words, line).not.toContain(note);
  };
  const wrongLines = (flower: Shell["invocation"]) =>
    printed
      .filter(({ by }) => !isHelp(by))
      .flatMap(({ output }) => output.split("\n").flatMap((line) => mistyped(line, flower)));
  const said = async (line: string, expected = 0) => {
    const result = await run(line);
    expect(result.code, `${line}\n${result.stdout}${result.stderr}`.slice(-3000)).toBe(expected);
    printed.push({ by: line, output: `${result.stdout}${result.stderr}` });
    return result;
  };

  it("the first commands, then each line they print, as printed", async () => {
    const flower = shell.invocation;
    await said(`${flower} "Fix the flaky test"`);
    await said(flower);
    await said(`${flower} runs`);
    await said(`${flower} show fix-the-flaky-test`);
    await said(`${flower} lsit`, 2);
    await said(`${flower} --windwo 200000 "Fix it"`, 2);
    await said(`${flower} show nothing-here`, 2);
    // No line in any of it starts another way than this shell reaches flower.
    expect(wrongLines(flower)).toEqual([]);
    const lines = [...new Set(printed.flatMap(({ output }) => nextSteps(output)))];
    // What the person was told, as printed (a form with a placeholder is checked for how it starts).
    for (const line of lines) expect(line.startsWith(`${flower} `) || line === flower, line).toBe(true);
    expect(lines).toEqual(
      expect.arrayContaining([
        `${flower} continue fix-the-flaky-test`,
        `${flower} show fix-the-flaky-test/requirements`,
        `${flower} runs`,
        `${flower} -- lsit`,
        `${flower} --help`,
      ]),
    );
    // Each runs as printed, in the order printed: the continue line goes on to the end of the run.
    const ran: string[] = [];
    for (const line of lines.filter(runnable)) {
      const result = await said(line);
      ran.push(line);
      if (isHelp(line)) checkHelp(line, result.stdout);
    }
    expect(wrongLines(flower)).toEqual([]);
    expect(ran.length).toBeGreaterThanOrEqual(5);
    // What those printed in turn (the run's end, the work step in detail) runs too.
    const after = await said(`${flower} show fix-the-flaky-test`);
    for (const line of nextSteps(after.stdout).filter(runnable)) await said(line);
  }, 900_000);

  it("the demo's closing lines: without --keep, how to keep one to look at; with it, the lines that open it", async () => {
    const flower = shell.invocation;
    const demo = await said(`${flower} demo`);
    const keep = nextSteps(demo.stdout).find((line) => line.endsWith("demo --keep"));
    expect(keep, demo.stdout.slice(-1500)).toBe(`${flower} demo --keep`);
    // The pause line names no command that could go on with the demo's in-process model.
    expect(demo.stdout).toContain(
      `the demo goes on by itself in a moment (in a run of your own: ${flower} continue <run>)`,
    );
    const kept = await said(keep!);
    // The kept workspace lies in the system's temp folder: this test removes it once it has looked.
    const workspace = /^workspace kept: (.+)$/mu.exec(kept.stdout)?.[1];
    expect(workspace, kept.stdout.slice(-1500)).toBeDefined();
    try {
      const look = nextSteps(kept.stdout).filter((line) => / --run-dir /u.test(line));
      expect(look.map((line) => line.split(" --run-dir ")[0])).toEqual([
        `${flower} show demo`,
        `${flower} report demo`,
        `${flower} runs`,
      ]);
      const shown = await said(look[0]!);
      expect(shown.stdout).toContain("frozen Goal");
      expect((await said(look[1]!)).stdout).toMatch(/report-demo\.html/);
      expect((await said(look[2]!)).stdout).toMatch(/^demo +done/m);
      expect(wrongLines(flower)).toEqual([]);
    } finally {
      rmSync(workspace!, { recursive: true, force: true });
    }
  }, 900_000);
});
