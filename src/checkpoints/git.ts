/**
 * Running `git`: the one door through which flower touches a repository.
 *
 * Why the `git` CLI and not a library: every machine that runs a coding agent has it (the agent itself
 * runs `git status`), it is the reference implementation of everything used here (worktrees, bundles,
 * alternates, `.gitignore` with all its rules, the index's stat cache that makes an unchanged tree cost
 * one scan), and it is fast on large trees. isomorphic-git has no worktrees, no bundles and reads
 * `.gitignore` its own way; nodegit is a native module that lags Node releases. What a call costs is
 * mostly starting it: git itself takes 1–2 ms to start, and Node's `spawn` forks the whole Node process,
 * another ~1.7 ms of CPU per call (measured on a 10,000-file repository, bench/README.md workload 6) —
 * so the shadow repository's hot path runs its calls through one long-lived shell (git-session.ts)
 * instead, and every call here finds git once (an absolute path, not a PATH search per call) and builds
 * the environment once.
 *
 * Every call names its repository explicitly. The person's own environment never leaks into a call on
 * flower's shadow repository (GIT_DIR, GIT_INDEX_FILE and friends from a hook that started us, the global
 * and system config with its hooks, templates and fsmonitor), and a call on the person's repository gets
 * `core.hooksPath` pointed at nothing: flower never runs their hooks.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import { FlowerError } from "../errors.js";

/** git failed: the command, its exit code and the last lines it printed. */
export class GitError extends FlowerError {
  readonly args: readonly string[];
  readonly exitCode: number | null;
  readonly stderr: string;

  constructor(
    args: readonly string[],
    exitCode: number | null,
    stderr: string,
    options?: { cause?: unknown },
  ) {
    const lines = stderr.trim().split("\n");
    // git's own verdict first ("fatal: Unable to create '…/index.lock': File exists."): the advice it
    // prints after it would push the path out of the last lines.
    const verdict = lines.find((line) => /^(fatal|error): /.test(line));
    const said = verdict ?? lines.slice(-3).join(" / ");
    super(
      "work",
      `git ${args.slice(0, 3).join(" ")} failed${exitCode === null ? "" : ` (exit ${exitCode})`}${said ? `: ${said}` : ""}`,
      options,
    );
    this.args = args;
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

export interface GitCall {
  /** Working directory of the process. @default process.cwd() */
  cwd?: string;
  /** Variables over the cleaned environment (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, …). */
  env?: Record<string, string>;
  /** The whole environment, built once by the caller (gitEnvironment): `env` is then not used. */
  environment?: Record<string, string>;
  /** Written to the process's stdin. */
  input?: string | Buffer;
  /** Exit codes that are answers, not failures (`diff --quiet` exits 1 for "differs"). @default [0] */
  ok?: readonly number[];
}

export interface GitAnswer {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/** Variables of the person's environment that would point a call somewhere else, or change its output. */
const LEAKING =
  /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|NAMESPACE|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|CONFIG.*|EXTERNAL_DIFF|PAGER|EDITOR|TRACE.*|QUARANTINE_PATH|PREFIX|LITERAL_PATHSPECS|GLOB_PATHSPECS|NOGLOB_PATHSPECS|ICASE_PATHSPECS|REPLACE_REF_BASE|NO_REPLACE_OBJECTS|SHALLOW_FILE|DEFAULT_HASH|DEFAULT_REF_FORMAT|AUTHOR_.*|COMMITTER_.*)$/;

/**
 * The environment of a git process: the person's, minus what would redirect or reshape it, plus `extra`.
 * Built per call on the person's repository (a few per run); the shadow repository builds its own once
 * (shadow-repo.ts), so its calls do not copy the whole environment each time.
 */
export function gitEnvironment(extra?: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && !LEAKING.test(name)) env[name] = value;
  return {
    ...env,
    // Messages flower parses are the C locale's; no prompt for credentials ever blocks a run.
    LC_ALL: "C",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    ...extra,
  };
}

let found: { path: string | undefined; git: string | null } | null = null;

/**
 * Where `git` is: an absolute path, found on PATH once (again only when PATH changes), or null. A call by
 * name would have every spawn search PATH itself (most of its `execve` calls failing on the way).
 */
export function gitPath(): string | null {
  const path = process.env.PATH;
  if (found !== null && found.path === path) return found.git;
  let git: string | null = null;
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "" || !isAbsolute(dir)) continue;
    const candidate = join(dir, "git");
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) {
        git = candidate;
        break;
      }
    } catch {
      // not here
    }
  }
  found = { path, git };
  return git;
}

/** Runs git; resolves with its output, or rejects with a GitError naming the command and what it said. */
export function git(args: readonly string[], call: GitCall = {}): Promise<GitAnswer> {
  const ok = call.ok ?? [0];
  const command = gitPath();
  if (command === null) return Promise.reject(new GitMissingError());
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: call.cwd,
      env: call.environment ?? gitEnvironment(call.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new GitMissingError({ cause: error })
          : new GitError(args, null, error.message, { cause: error }),
      ),
    );
    child.on("close", (code) => {
      const stderr = Buffer.concat(err).toString("utf8");
      if (code !== null && ok.includes(code)) resolve({ stdout: Buffer.concat(out), stderr, code });
      else reject(new GitError(args, code, stderr));
    });
    // A git that exits before reading its input (a failed call) closes the pipe: its exit says why.
    child.stdin.on("error", () => undefined);
    child.stdin.end(call.input ?? "");
  });
}

/** git's stdout as text, without the trailing newline. */
export async function gitText(args: readonly string[], call: GitCall = {}): Promise<string> {
  return (await git(args, call)).stdout.toString("utf8").replace(/\n$/, "");
}

/** `git` is not installed (or not on PATH). */
export class GitMissingError extends FlowerError {
  constructor(options?: { cause?: unknown }) {
    super(
      "work",
      "git was not found on PATH: the run's files are not checkpointed (no rewind, no branch, no diff) and cannot travel to another machine",
      options,
    );
  }
}

let available: Promise<string | null> | undefined;

/** git's version (`2.39.5`), or null when git is not installed. Asked once per process. */
export function gitVersion(): Promise<string | null> {
  available ??= gitText(["--version"]).then(
    (text) => /(\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1] ?? text,
    () => null,
  );
  return available;
}

/** NUL-separated output (`-z`) as a list, without the empty tail. */
export function nulList(buffer: Buffer): string[] {
  const text = buffer.toString("utf8");
  if (text === "") return [];
  const parts = text.split("\0");
  if (parts.at(-1) === "") parts.pop();
  return parts;
}
