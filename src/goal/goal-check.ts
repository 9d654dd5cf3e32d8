/**
 * A goal check: one shell command plus what passing means. It is what the frozen goal document's
 * "checks" section turns into, and the only thing the goal guard trusts — subagents report what they
 * achieved and forget what they tried in vain, so the end of the work step is decided by commands
 * flower runs itself (the goal guard, docs/workflows.md).
 */
import { ConfigurationError } from "../errors.js";

export interface GoalCheckExpectation {
  /**
   * The exit code that counts as passing. Without it: exit 0 when there is no pattern; with a pattern,
   * the pattern alone decides (a goal's check passes on "exit 0, or output matching a pattern" —
   * `grep -c TODO f` prints 0 and exits 1), except that a missing (127) or unrunnable (126) command never
   * passes.
   * @default 0 (no pattern) / any but 126 and 127 (with a pattern)
   */
  exitCode?: number;
  /**
   * A regular expression (source text, no slashes) the combined stdout+stderr must match. Tested with
   * the `m` flag, so `^0$` means "a line that is exactly 0" and a trailing newline does not defeat it.
   */
  pattern?: string;
}

export interface GoalCheck {
  /** Run through `/bin/sh -c` in the workspace. */
  command: string;
  /** What passing means; without it, exit 0. */
  expect?: GoalCheckExpectation;
  /** Overrides the run's timeout for this check. */
  timeoutMs?: number;
  /** What the check stands for, in the goal's words; shown beside the command. */
  description?: string;
}

/** The most a single check may be given: a day. A longer value is a unit mistake (seconds for ms). */
export const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/** Throws a ConfigurationError naming the bad field (`checks[2].expect.pattern`) and its value. */
export function validateGoalCheck(check: unknown, name: string): asserts check is GoalCheck {
  if (typeof check !== "object" || check === null || Array.isArray(check))
    throw new ConfigurationError(name, check, "an object { command, expect?, timeoutMs?, description? }");
  const record = check as Record<string, unknown>;
  if (typeof record.command !== "string" || record.command.trim() === "")
    throw new ConfigurationError(`${name}.command`, record.command, "a non-empty shell command string");
  if (record.command.includes("\0"))
    throw new ConfigurationError(`${name}.command`, record.command, "a command without NUL characters");
  if (record.timeoutMs !== undefined) validateTimeout(record.timeoutMs, `${name}.timeoutMs`);
  if (record.description !== undefined && typeof record.description !== "string")
    throw new ConfigurationError(`${name}.description`, record.description, "a string");
  const expectation = record.expect;
  if (expectation === undefined) return;
  if (typeof expectation !== "object" || expectation === null || Array.isArray(expectation))
    throw new ConfigurationError(`${name}.expect`, expectation, "an object { exitCode?, pattern? }");
  const { exitCode, pattern } = expectation as Record<string, unknown>;
  if (
    exitCode !== undefined &&
    (!Number.isInteger(exitCode) || (exitCode as number) < 0 || (exitCode as number) > 255)
  )
    throw new ConfigurationError(`${name}.expect.exitCode`, exitCode, "an integer from 0 to 255");
  if (pattern !== undefined) {
    if (typeof pattern !== "string" || pattern === "")
      throw new ConfigurationError(
        `${name}.expect.pattern`,
        pattern,
        "a non-empty regular expression string",
      );
    try {
      new RegExp(pattern, "m");
    } catch (error) {
      throw new ConfigurationError(
        `${name}.expect.pattern`,
        pattern,
        `a valid regular expression (${(error as Error).message})`,
      );
    }
  }
}

export function validateTimeout(value: unknown, name: string): asserts value is number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > MAX_TIMEOUT_MS)
    throw new ConfigurationError(
      name,
      value,
      `a number of milliseconds above 0 and at most ${MAX_TIMEOUT_MS}`,
    );
}

/** The exit code a check must end with; null when its pattern alone decides. */
export function expectedExitCode(check: GoalCheck): number | null {
  if (check.expect?.exitCode !== undefined) return check.expect.exitCode;
  return check.expect?.pattern !== undefined ? null : 0;
}

/** Compiles a check's pattern the one way the runner tests it. */
export function compilePattern(pattern: string): RegExp {
  return new RegExp(pattern, "m");
}
