/**
 * The goal guard's check runner (SPEC G1): flower, not the agent, runs the frozen goal's checks.
 *
 * Each check runs through `/bin/sh -c` in the workspace as the leader of its own process group, one
 * after the other. A hanging check is ended at its timeout — the whole group, SIGTERM then SIGKILL —
 * and counts as failed; so does a command that does not exist (exit 127). Whatever a check starts is
 * gone when `runChecks` returns, also after a normal exit (a `server &` left behind would otherwise
 * hold the output pipe and outlive the run). Output is bounded in memory and in the log, and each log
 * is written atomically to `<logDir>/goal-check-<n>.log`.
 *
 * Known limit: a process that leaves the group on purpose (`setsid`, a daemon that double-forks into
 * a new session) cannot be found by its group id; the runner stops waiting for the output pipe after
 * the grace period and moves on.
 */
import { spawn } from "node:child_process";
import { mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { ConfigurationError } from "../errors.js";
import { writeFileAtomically } from "./atomic-write.js";
import { GOAL_DEFAULTS } from "./constants.js";
import {
  compilePattern,
  expectedExitCode,
  validateGoalCheck,
  validateTimeout,
  type GoalCheck,
} from "./goal-check.js";
import { OutputCapture, tailOf } from "./output-capture.js";
import { terminateGroup } from "./process-group.js";

export interface RunChecksOptions {
  /** The directory each check runs in. Must exist. */
  workspace: string;
  /** Where `goal-check-<n>.log` files go (SPEC: `<workbench>/artifacts`). Created when missing. */
  logDir: string;
  /**
   * Timeout per check, unless the check sets its own `timeoutMs`.
   * @default 120_000
   */
  timeoutMs?: number;
  /**
   * The checks' complete environment (not merged with anything; read it at the door and pass it in).
   * @default process.env
   */
  env?: NodeJS.ProcessEnv;
  /** Aborting ends the running check's process group and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called before each check starts (for a live view: "check 2 of 4: npm test"). */
  onCheckStart?: (index: number, check: GoalCheck) => void;
  /** Called with each result as soon as its check has ended and its log is written. */
  onCheck?: (result: CheckResult) => void;
  /**
   * After SIGTERM, how long the process group has before SIGKILL.
   * @default 2_000
   */
  killGraceMs?: number;
}

export interface CheckResult {
  /** 1-based position in the list; also the `<n>` of the log file. */
  index: number;
  command: string;
  description: string | null;
  passed: boolean;
  /** Null when the shell was ended by a signal (a timeout, an abort, a crash). */
  exitCode: number | null;
  /** The signal that ended the shell, e.g. "SIGTERM" after a timeout. */
  signal: string | null;
  timedOut: boolean;
  /** Exit 127 from the shell: the command (or the first word of it) does not exist. */
  notFound: boolean;
  /**
   * What passing meant for this check (after defaults), so a message can say what was expected.
   * `expectedExitCode` is null when the pattern alone decides.
   */
  expectedExitCode: number | null;
  pattern: string | null;
  /** The timeout this check ran under. */
  timeoutMs: number;
  durationMs: number;
  logPath: string;
  /** The last lines of the output (≤ 20 lines, ≤ 2000 chars, without colour codes). */
  tail: string;
  /** Why it failed, in plain words; null when it passed. */
  reason: string | null;
  /** Output bytes the check printed; the log keeps at most head + tail of them. */
  outputBytes: number;
}

interface ResolvedOptions {
  workspace: string;
  logDir: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal | undefined;
  killGraceMs: number;
}

/**
 * Runs every check in order (a failing check does not stop the others: the coordinator should see all
 * that fail in one round) and returns one result per check. Rejects with `signal.reason` when aborted,
 * after the running check's processes are gone; rejects with a ConfigurationError naming the bad value
 * before anything runs.
 */
export async function runChecks(
  checks: readonly GoalCheck[],
  options: RunChecksOptions,
): Promise<CheckResult[]> {
  const resolved = resolveOptions(checks, options);
  resolved.signal?.throwIfAborted();
  mkdirSync(resolved.logDir, { recursive: true });
  const results: CheckResult[] = [];
  for (const [position, check] of checks.entries()) {
    resolved.signal?.throwIfAborted();
    options.onCheckStart?.(position + 1, check);
    const result = await runCheck(check, position + 1, checks.length, resolved);
    results.push(result);
    options.onCheck?.(result);
  }
  return results;
}

/** True when every result passed (false for an empty list: no check is no evidence). */
export function allPassed(results: readonly CheckResult[]): boolean {
  return results.length > 0 && results.every((result) => result.passed);
}

function resolveOptions(checks: readonly GoalCheck[], options: RunChecksOptions): ResolvedOptions {
  if (!Array.isArray(checks)) throw new ConfigurationError("checks", checks, "an array of goal checks");
  if (checks.length === 0)
    throw new ConfigurationError("checks", checks, "at least one check (an empty list would pass vacuously)");
  checks.forEach((check, position) => validateGoalCheck(check, `checks[${position}]`));
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError("options", options, "an object { workspace, logDir, ... }");
  const { workspace, logDir } = options;
  if (typeof workspace !== "string" || workspace === "")
    throw new ConfigurationError("workspace", workspace, "a directory path");
  let isDirectory: boolean;
  try {
    isDirectory = statSync(workspace).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) throw new ConfigurationError("workspace", workspace, "an existing directory");
  if (typeof logDir !== "string" || logDir === "")
    throw new ConfigurationError("logDir", logDir, "a directory path");
  const timeoutMs = options.timeoutMs ?? GOAL_DEFAULTS.checkTimeoutMs;
  validateTimeout(timeoutMs, "timeoutMs");
  const killGraceMs = options.killGraceMs ?? GOAL_DEFAULTS.killGraceMs;
  if (
    typeof killGraceMs !== "number" ||
    !Number.isFinite(killGraceMs) ||
    killGraceMs < 0 ||
    killGraceMs > 60_000
  )
    throw new ConfigurationError("killGraceMs", killGraceMs, "a number of milliseconds from 0 to 60000");
  if (options.env !== undefined && (typeof options.env !== "object" || options.env === null))
    throw new ConfigurationError("env", options.env, "an object of environment variables");
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal))
    throw new ConfigurationError("signal", options.signal, "an AbortSignal");
  for (const name of ["onCheck", "onCheckStart"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function")
      throw new ConfigurationError(name, options[name], "a function");
  }
  return {
    workspace: path.resolve(workspace),
    logDir: path.resolve(logDir),
    timeoutMs,
    env: options.env ?? process.env,
    signal: options.signal,
    killGraceMs,
  };
}

interface Ending {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  spawnError: Error | null;
}

async function runCheck(
  check: GoalCheck,
  index: number,
  count: number,
  options: ResolvedOptions,
): Promise<CheckResult> {
  const timeoutMs = check.timeoutMs ?? options.timeoutMs;
  const logPath = path.join(options.logDir, `goal-check-${index}.log`);
  const output = new OutputCapture(GOAL_DEFAULTS.logHeadBytes, GOAL_DEFAULTS.logTailBytes);
  const started = performance.now();
  const ending = await execute(check.command, timeoutMs, output, options);
  const durationMs = Math.round(performance.now() - started);

  const { head, tail: cutTail } = output.parts();
  const text =
    cutTail === null ? head.toString("utf8") : `${head.toString("utf8")}\n${cutTail.toString("utf8")}`;
  const notFound = ending.exitCode === 127;
  const reason = failureReason(check, ending, text, timeoutMs);
  const result: CheckResult = {
    index,
    command: check.command,
    description: check.description ?? null,
    passed: reason === null,
    exitCode: ending.exitCode,
    signal: ending.signal,
    timedOut: ending.timedOut,
    notFound,
    expectedExitCode: expectedExitCode(check),
    pattern: check.expect?.pattern ?? null,
    timeoutMs,
    durationMs,
    logPath,
    tail: tailOf(
      cutTail === null ? text : cutTail.toString("utf8"),
      GOAL_DEFAULTS.tailLines,
      GOAL_DEFAULTS.tailMaxChars,
    ),
    reason,
    outputBytes: output.totalBytes,
  };
  writeFileAtomically(logPath, renderLog(check, result, count, options.workspace, output, head, cutTail));
  if (ending.aborted) throw abortReason(options.signal);
  return result;
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException("The goal checks were aborted.", "AbortError");
}

/** Spawns the shell, feeds the capture, enforces timeout and abort, and ends the group in every case. */
function execute(
  command: string,
  timeoutMs: number,
  output: OutputCapture,
  options: ResolvedOptions,
): Promise<Ending> {
  return new Promise<Ending>((resolve) => {
    const ending: Ending = {
      exitCode: null,
      signal: null,
      timedOut: false,
      aborted: false,
      spawnError: null,
    };
    const child = spawn("/bin/sh", ["-c", command], {
      cwd: options.workspace,
      env: options.env,
      // Its own process group (setsid): one signal reaches everything the check starts.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const groupId = child.pid;
    const collect = (chunk: Buffer): void => output.push(chunk);
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);

    let stopping: Promise<unknown> | null = null;
    const stop = (): Promise<unknown> => {
      // terminateGroup does not throw; the catch keeps a surprise from leaving this promise unsettled.
      stopping ??= (
        groupId === undefined ? Promise.resolve() : terminateGroup(groupId, options.killGraceMs)
      ).catch(() => undefined);
      return stopping;
    };
    const timer = setTimeout(() => {
      ending.timedOut = true;
      void stop();
    }, timeoutMs);
    const onAbort = (): void => {
      ending.aborted = true;
      void stop();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });

    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve(ending);
    };

    child.once("error", (error) => {
      // Only when /bin/sh itself cannot be started; there is no process to wait for.
      ending.spawnError = error;
      finish();
    });
    // 'close' comes when the shell has exited and both pipes are closed; a process that escaped the
    // group may hold them open, so after the group is ended the wait for 'close' is bounded.
    let closed = false;
    let groupEnded = false;
    let drainLimit: NodeJS.Timeout | undefined;
    child.once("close", () => {
      closed = true;
      clearTimeout(drainLimit);
      if (groupEnded) finish();
    });
    child.once("exit", (code, signal) => {
      ending.exitCode = code;
      ending.signal = signal;
      clearTimeout(timer);
      // The shell is done; end whatever it left in its group (a `server &` would outlive the run).
      void stop().then(() => {
        groupEnded = true;
        if (closed) return finish();
        drainLimit = setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish();
        }, options.killGraceMs + 500);
      });
    });
  });
}

function failureReason(check: GoalCheck, ending: Ending, text: string, timeoutMs: number): string | null {
  if (ending.spawnError) return `could not start /bin/sh: ${ending.spawnError.message}`;
  if (ending.aborted) return "aborted";
  if (ending.timedOut) return `timed out after ${formatSeconds(timeoutMs)} s`;
  const expected = expectedExitCode(check);
  if (ending.exitCode === null) return `ended by ${ending.signal ?? "a signal"}`;
  const code = ending.exitCode;
  // Without a stated exit code, a missing or unrunnable command fails even if its error text matches.
  if (code !== expected && (expected !== null || code === 126 || code === 127)) {
    if (code === 127) {
      const name = notFoundName(text);
      return `command not found${name ? `: ${name}` : ""} (exit 127)`;
    }
    if (code === 126) return "command not executable (exit 126)";
    return `exit code ${code}, expected ${expected}`;
  }
  const pattern = check.expect?.pattern;
  if (pattern !== undefined && !compilePattern(pattern).test(text))
    return `output does not match /${pattern}/`;
  return null;
}

/** The missing word as the shell reports it: dash "sh: 1: foo: not found", bash "foo: command not found". */
function notFoundName(text: string): string | null {
  const match = /(?:^|\n)(?:[^\n:]*sh: (?:line )?\d+: )?([^\n:]+): (?:command )?not found/.exec(text);
  return match?.[1]?.trim() ?? null;
}

export function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return Number.isInteger(seconds) ? String(seconds) : String(Number(seconds.toFixed(2)));
}

function describeExpectation(check: GoalCheck): string {
  const exitCode = expectedExitCode(check);
  const parts = exitCode === null ? [] : [`exit ${exitCode}`];
  if (check.expect?.pattern !== undefined) parts.push(`output matches /${check.expect.pattern}/m`);
  return parts.join(", ");
}

function renderLog(
  check: GoalCheck,
  result: CheckResult,
  count: number,
  workspace: string,
  output: OutputCapture,
  head: Buffer,
  cutTail: Buffer | null,
): Buffer[] {
  const header = [
    `# flower goal check ${result.index} of ${count}`,
    `# command: ${check.command.replace(/\n/g, "\n#          ")}`,
    ...(check.description ? [`# description: ${check.description}`] : []),
    `# expect: ${describeExpectation(check)}`,
    `# workspace: ${workspace}`,
    `# output (stdout and stderr combined; at most the first ${GOAL_DEFAULTS.logHeadBytes} and the last ${GOAL_DEFAULTS.logTailBytes} bytes are kept):`,
    "",
  ].join("\n");
  const parts = [Buffer.from(header), head];
  if (cutTail !== null) {
    parts.push(
      Buffer.from(
        `\n# [flower: ${output.omittedBytes} bytes of output omitted here; ${output.totalBytes} bytes in all]\n`,
      ),
      cutTail,
    );
  }
  const last = cutTail ?? head;
  const newline = last.length > 0 && last[last.length - 1] !== 0x0a ? "\n" : "";
  const status = result.passed ? "passed" : `failed: ${result.reason}`;
  const ended = result.exitCode !== null ? `exit ${result.exitCode}` : `signal ${result.signal ?? "unknown"}`;
  parts.push(Buffer.from(`${newline}# end: ${ended} after ${result.durationMs} ms; ${status}\n`));
  return parts;
}
