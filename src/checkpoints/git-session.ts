/**
 * One long-lived shell that runs a repository's git calls one after another: the shadow repository's
 * checkpoints take 1–5 calls each, after every tool call of a run.
 *
 * Why a shell and not a `spawn` per call: Node's `spawn` forks the whole Node process (its page tables
 * grow with the heap) and sets up three pipes with their stream objects, ~0.7–1 ms of the driver's CPU
 * plus ~1 ms in the child before it becomes git; a small `sh` forks for ~0.3 ms. On the bench's
 * repository (10,000 files) that was the difference between a checkpoint at 1.1× of git's own floor
 * (`git add -A && git write-tree && git commit-tree && git update-ref`) and at 0.9× (bench/README.md,
 * workload 6). A long-lived `git` (`cat-file --batch`) does not help: every call here reads or writes the
 * index, which a git process reads once, when it starts.
 *
 * How a call travels: one line to the shell's stdin — the variables of this call, git's absolute path,
 * the arguments single-quoted, stdin from a file (or /dev/null), stderr to a file — followed by a `printf`
 * of a random marker and git's exit code, which ends the call's output on the shell's stdout. Nothing but
 * quoted literals reaches the shell.
 *
 * The shell dies with its parent: it reads its commands from a pipe, and a parent that is gone (even
 * SIGKILLed) closes it, so the shell ends after the git call it is running. An idle session ends its
 * shell after IDLE_MS; `close()` ends it at once. While no call is in flight the shell does not keep Node
 * running.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Socket } from "node:net";
import { join } from "node:path";
import { GitError, GitMissingError, gitPath, type GitAnswer } from "./git.js";

/** An idle shell ends after this long; the next call starts another. */
const IDLE_MS = 30_000;

/** The POSIX shell the session runs. */
const SHELL = "/bin/sh";

export interface GitSessionOptions {
  /** The working directory of every call. */
  cwd: string;
  /** The whole environment of every call, built once (gitEnvironment plus the repository's variables). */
  env: Record<string, string>;
  /** A private folder of the session's own for its stdin and stderr files (created when missing). */
  scratch: string;
}

export interface SessionCall {
  /** Variables of this call over the session's environment. */
  env?: Record<string, string>;
  input?: string | Buffer;
  ok?: readonly number[];
}

interface Pending {
  args: readonly string[];
  ok: readonly number[];
  resolve: (answer: GitAnswer) => void;
  reject: (error: Error) => void;
}

let sessions = 0;

/** Whether a session can run here: a POSIX shell and git. */
export function sessionsAvailable(): boolean {
  return process.platform !== "win32" && existsSync(SHELL);
}

export class GitSession {
  readonly #options: GitSessionOptions;
  readonly #name = `${process.pid}-${++sessions}`;
  #shell: ChildProcessWithoutNullStreams | null = null;
  #marker = "";
  #end = /$^/;
  #chunks: Buffer[] = [];
  #shellErr: Buffer[] = [];
  #pending: Pending | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #idle: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(options: GitSessionOptions) {
    this.#options = options;
  }

  /** Runs one git call after those queued before it. */
  run(args: readonly string[], call: SessionCall = {}): Promise<GitAnswer> {
    const next = this.#queue.then(() => this.#run(args, call));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Ends the shell (after the call it runs, if any) and removes the session's files. */
  close(): void {
    this.#closed = true;
    this.#stop();
  }

  get #inFile(): string {
    return join(this.#options.scratch, `${this.#name}.in`);
  }

  get #errFile(): string {
    return join(this.#options.scratch, `${this.#name}.err`);
  }

  #run(args: readonly string[], call: SessionCall): Promise<GitAnswer> {
    const git = gitPath();
    if (git === null) return Promise.reject(new GitMissingError());
    this.#closed = false;
    const shell = this.#start();
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    let stdin = "/dev/null";
    if (call.input !== undefined && call.input.length > 0) {
      writeFileSync(this.#inFile, call.input, { mode: 0o600 });
      stdin = this.#inFile;
    }
    const variables = Object.entries(call.env ?? {}).map(([name, value]) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`not a variable name: ${name}`);
      return `${name}=${quote(value)} `;
    });
    const line =
      `${variables.join("")}${quote(git)} ${args.map(quote).join(" ")} <${quote(stdin)} 2>${quote(this.#errFile)}; ` +
      `printf '\\n%s %d\\n' ${this.#marker} "$?"\n`;
    return new Promise<GitAnswer>((resolve, reject) => {
      this.#pending = { args, ok: call.ok ?? [0], resolve, reject };
      // A call in flight keeps Node running until its answer is in.
      socket(shell.stdout).ref();
      shell.stdin.write(line);
    });
  }

  #start(): ChildProcessWithoutNullStreams {
    if (this.#shell !== null) return this.#shell;
    mkdirSync(this.#options.scratch, { recursive: true, mode: 0o700 });
    this.#marker = `flower-${randomBytes(16).toString("hex")}`;
    const shell = spawn(SHELL, [], {
      cwd: this.#options.cwd,
      env: this.#options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.#shell = shell;
    this.#chunks = [];
    this.#shellErr = [];
    this.#end = new RegExp(`\\n${this.#marker} (\\d+)\\n$`);
    // A shell that ended is replaced by the next call: what the old one says no longer concerns us.
    shell.stdout.on("data", (chunk: Buffer) => this.#shell === shell && this.#take(chunk));
    shell.stderr.on("data", (chunk: Buffer) => this.#shell === shell && this.#shellErr.push(chunk));
    shell.stdin.on("error", () => undefined);
    shell.on("error", (error) => this.#shell === shell && this.#ended(error.message));
    shell.on(
      "close",
      (code, signal) => this.#shell === shell && this.#ended(`the shell ended (${signal ?? `exit ${code}`})`),
    );
    shell.unref();
    socket(shell.stdout).unref();
    socket(shell.stderr).unref();
    return shell;
  }

  /** Output of the call in flight; its end is the marker line `\n<marker> <exit code>\n`. */
  #take(chunk: Buffer): void {
    this.#chunks.push(chunk);
    const pending = this.#pending;
    if (pending === null) return;
    const tail = lastBytes(this.#chunks, this.#marker.length + 16).toString("latin1");
    const end = this.#end.exec(tail);
    if (end === null) return;
    const all = Buffer.concat(this.#chunks);
    this.#chunks = [];
    this.#pending = null;
    if (this.#shell) socket(this.#shell.stdout).unref();
    const code = Number(end[1]);
    const stdout = all.subarray(0, all.length - end[0].length);
    const stderr = code === 0 ? "" : this.#readErr();
    if (this.#closed) this.#stop();
    else this.#idleLater();
    if (pending.ok.includes(code)) pending.resolve({ stdout, stderr, code });
    else pending.reject(new GitError(pending.args, code, stderr));
  }

  #readErr(): string {
    const shellSaid = Buffer.concat(this.#shellErr).toString("utf8");
    this.#shellErr = [];
    try {
      return readFileSync(this.#errFile, "utf8") + shellSaid;
    } catch {
      return shellSaid;
    }
  }

  #ended(why: string): void {
    const pending = this.#pending;
    this.#pending = null;
    this.#shell = null;
    this.#chunks = [];
    if (pending !== null) {
      const said = Buffer.concat(this.#shellErr).toString("utf8").trim();
      pending.reject(new GitError(pending.args, null, said === "" ? why : `${why}: ${said}`));
    }
  }

  #idleLater(): void {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = setTimeout(() => this.#stop(), IDLE_MS);
    this.#idle.unref();
  }

  #stop(): void {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    const shell = this.#shell;
    if (shell !== null && this.#pending === null) {
      this.#shell = null;
      shell.stdin.end();
    }
    if (this.#pending === null) {
      rmSync(this.#inFile, { force: true });
      rmSync(this.#errFile, { force: true });
    }
  }
}

/** A child's pipe is a socket: it can stop (and start again) keeping Node running. */
function socket(stream: NodeJS.ReadableStream): Socket {
  return stream as unknown as Socket;
}

/** A string as one single-quoted shell word. */
function quote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/** The last `count` bytes over a list of chunks. */
function lastBytes(chunks: readonly Buffer[], count: number): Buffer {
  const taken: Buffer[] = [];
  let size = 0;
  for (let index = chunks.length - 1; index >= 0 && size < count; index--) {
    taken.unshift(chunks[index]!);
    size += chunks[index]!.length;
  }
  const all = taken.length === 1 ? taken[0]! : Buffer.concat(taken);
  return all.subarray(Math.max(0, all.length - count));
}
