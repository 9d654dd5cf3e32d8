/**
 * The goal guard's check runner: flower, not the agent, runs the frozen goal's checks.
 *
 * Each check runs through `/bin/sh -c` in the workspace as the leader of its own process group, one
 * after the other. A hanging check is ended at its timeout — the whole group, SIGTERM then SIGKILL —
 * and counts as failed; so does a command that does not exist (exit 127). Whatever a check starts is
 * gone when `runChecks` returns, also after a normal exit (a `server &` left behind would otherwise
 * hold the output pipe and outlive the run). Output is bounded in memory and in the log, and each log
 * is written atomically to `<logDir>/goal-check-<n>.run-<r>.log` (one per run of the checks, the last
 * `keptRunLogs` runs kept) or, without a run number, to `<logDir>/goal-check-<n>.log`.
 *
 * Known limit: a process that leaves the group on purpose (`setsid`, a daemon that double-forks into
 * a new session) cannot be found by its group id; the runner stops waiting for the output pipe after
 * the grace period and moves on.
 *
 * This file is the loop (run, judge, log, next); the options are validated in check-options.ts, the
 * shell and its process group are handled in check-process.ts, and the verdict and log text are made
 * in check-result.ts.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { writeFileAtomically } from "../fs/atomic-write.js";
import { resolveOptions, type ResolvedOptions, type RunChecksOptions } from "./check-options.js";
import { execute } from "./check-process.js";
import { checkFailure, failureReason, renderLog, type CheckResult } from "./check-result.js";
import { GOAL_DEFAULTS } from "../defaults.js";
import { expectedExitCode, type GoalCheck } from "./goal-check.js";
import { OutputCapture, tailOf } from "./output-capture.js";

// checks.ts is the module the runner's users import (index.ts, guard-message.ts), so the option and
// result types and formatSeconds are offered here too.
export type { RunChecksOptions } from "./check-options.js";
export type { CheckFailure, CheckResult } from "./check-result.js";
export { formatSeconds } from "./check-result.js";

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
  if (resolved.run !== null) removeOldRunLogs(resolved.logDir, resolved.run - GOAL_DEFAULTS.keptRunLogs);
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

async function runCheck(
  check: GoalCheck,
  index: number,
  count: number,
  options: ResolvedOptions,
): Promise<CheckResult> {
  const timeoutMs = check.timeoutMs ?? options.timeoutMs;
  const logPath = path.join(options.logDir, checkLogName(index, options.run));
  const output = new OutputCapture(GOAL_DEFAULTS.logHeadBytes, GOAL_DEFAULTS.logTailBytes);
  const started = performance.now();
  const ending = await execute(check.command, timeoutMs, output, options);
  const durationMs = Math.round(performance.now() - started);

  const { head, tail: cutTail } = output.parts();
  const text =
    cutTail === null ? head.toString("utf8") : `${head.toString("utf8")}\n${cutTail.toString("utf8")}`;
  const notFound = ending.exitCode === 127;
  const failure = checkFailure(check, ending, text, timeoutMs);
  const reason = failureReason(failure);
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
    failure,
    outputBytes: output.totalBytes,
  };
  writeFileAtomically(
    logPath,
    Buffer.concat(renderLog(check, result, count, options.workspace, output, head, cutTail)),
  );
  if (ending.aborted) throw abortReason(options.signal);
  return result;
}

/** `goal-check-<n>.run-<r>.log` for a numbered run, else `goal-check-<n>.log`. */
export function checkLogName(index: number, run: number | null): string {
  return run === null ? `goal-check-${index}.log` : `goal-check-${index}.run-${run}.log`;
}

const RUN_LOG = /^goal-check-\d+\.run-(\d+)\.log$/;

/** Removes the per-run logs of runs up to `lastRemoved`, so a long `continue` chain stays bounded on disk. */
function removeOldRunLogs(logDir: string, lastRemoved: number): void {
  if (lastRemoved < 1) return;
  for (const name of readdirSync(logDir)) {
    const run = RUN_LOG.exec(name)?.[1];
    if (run !== undefined && Number(run) <= lastRemoved) rmSync(path.join(logDir, name), { force: true });
  }
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException("The goal checks were aborted.", "AbortError");
}
