/**
 * Spawning the built `flower` binary in tests. Every child runs in its own process group, so a
 * timeout kills it at once; the `claude` processes it started (in groups of their own, so a terminal's
 * Ctrl-C does not reach them) end when their stdin closes with it: no test leaves a process behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, expect } from "vitest";
import { startFakeModel, type FakeModel, type FakeModelOptions } from "../../../src/testing/index.js";
import { useTempDirs } from "../../support/temp-dir.js";

export const BIN = resolve(import.meta.dirname, "..", "..", "..", "dist", "cli", "main.js");

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface Spawned {
  child: ChildProcess;
  done: Promise<Finished>;
}

/** The environment of a test run: no real credentials, English, nothing from the developer's shell that changes behaviour. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (
      key.startsWith("ANTHROPIC_") ||
      key.startsWith("CLAUDE_") ||
      key === "FLOWER_LANG" ||
      key === "LANG" ||
      key === "LC_ALL"
    )
      continue;
    env[key] = value;
  }
  return { ...env, FLOWER_LANG: "en", NO_COLOR: "1", ...extra };
}

const live = new Set<ChildProcess>();

let scratchCwd: string | undefined;
/**
 * Where a child runs when the test names no cwd: an empty folder of this test file's own, never the
 * shared temp dir, where a `runs/` another process left would change what a bare `flower` does.
 */
function defaultCwd(): string {
  if (scratchCwd === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "flower-cwd-"));
    scratchCwd = dir;
    process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return scratchCwd;
}

/** Kills a child's whole process group (the CLI and the `claude` children it spawned). */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

export function spawnFlower(
  args: string[],
  options: {
    env?: Record<string, string>;
    cwd?: string;
    timeoutMs?: number;
    command?: string;
    commandArgs?: string[];
  } = {},
): Spawned {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first`);
  const child = spawn(options.command ?? process.execPath, options.commandArgs ?? [BIN, ...args], {
    cwd: options.cwd ?? defaultCwd(),
    env: options.env ?? cleanEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  live.add(child);
  let stdout = "";
  let stderr = "";
  let timedOut = false;
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child);
  }, options.timeoutMs ?? 45_000);
  const done = new Promise<Finished>((resolveDone) => {
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      live.delete(child);
      // Whatever the CLI left running in its group goes too.
      killGroup(child);
      resolveDone({ code, signal, stdout, stderr, timedOut });
    });
  });
  return { child, done };
}

export function runFlower(
  args: string[],
  options: Parameters<typeof spawnFlower>[1] = {},
): Promise<Finished> {
  return spawnFlower(args, options).done;
}

/** Runs flower and expects a clean success, as a user sees one: exit 0 and nothing on stderr. */
export async function runFlowerOk(
  args: string[],
  options: Parameters<typeof spawnFlower>[1] = {},
): Promise<Finished> {
  const run = await runFlower(args, options);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return run;
}

/** Kills every child still running: call in afterEach. */
export function killAll(): void {
  for (const child of live) killGroup(child);
  live.clear();
}

export interface CliTest {
  /** Temporary directories, removed after the file's tests. */
  temp: ReturnType<typeof useTempDirs>;
  /** Starts the offline model kit for this test; it is closed after the test. */
  startModel: (options: FakeModelOptions) => Promise<FakeModel>;
}

/**
 * What every CLI test file sets up: temporary directories and, after each test, every `flower` child
 * killed (with the `claude` processes in its group) and the test's model closed. Call once at the top.
 */
export function useCliTest(): CliTest {
  const temp = useTempDirs();
  const models: FakeModel[] = [];
  afterEach(async () => {
    killAll();
    for (const model of models.splice(0)) await model.close();
  });
  return {
    temp,
    startModel: async (options) => {
      const model = await startFakeModel(options);
      models.push(model);
      return model;
    },
  };
}

/** Sixty notes of 30 lines (`note-1.md` …): a project whose reads fill a main thread's context. */
export function writeNotes(root: string): void {
  for (let n = 1; n <= 60; n++) {
    const body = Array.from(
      { length: 30 },
      (_, i) => `Note ${n} line ${i}: ${"the quick brown fox jumps over the lazy dog ".repeat(2)}`,
    );
    writeFileSync(join(root, `note-${n}.md`), `# NOTE-${n}\n${body.join("\n")}\n`);
  }
}
