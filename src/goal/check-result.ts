/**
 * What a check's ending means: the result record, the failure reason in plain words, and the log file's
 * text. These are the words a coordinator and a human read, so they live together and apart from the
 * process handling (check-process.ts) and the runner loop (checks.ts).
 */
import { describeCheckFailure, type CheckFailure } from "./check-failure.js";
import type { Ending } from "./check-ending.js";
import { GOAL_DEFAULTS } from "../defaults.js";
import { compilePattern, expectedExitCode, type GoalCheck } from "./goal-check.js";
import type { OutputCapture } from "./output-capture.js";

// The result's users import the failure's words and formatSeconds from here (through checks.ts).
export { formatSeconds } from "./check-failure.js";
export type { CheckFailure } from "./check-failure.js";

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
  /** Why it failed, in plain English words; null when it passed. */
  reason: string | null;
  /** How it failed, as data (a view words it in its language); null when it passed. */
  failure: CheckFailure | null;
  /** Output bytes the check printed; the log keeps at most head + tail of them. */
  outputBytes: number;
}

/** How the check failed; null when it passed. */
export function checkFailure(
  check: GoalCheck,
  ending: Ending,
  text: string,
  timeoutMs: number,
): CheckFailure | null {
  if (ending.spawnError) return { kind: "spawn-error", message: ending.spawnError.message };
  if (ending.aborted) return { kind: "aborted" };
  if (ending.timedOut) return { kind: "timed-out", timeoutMs };
  const expected = expectedExitCode(check);
  if (ending.exitCode === null) return { kind: "signal", signal: ending.signal };
  const code = ending.exitCode;
  // Without a stated exit code, a missing or unrunnable command fails even if its error text matches.
  if (code !== expected && (expected !== null || code === 126 || code === 127)) {
    if (code === 127) return { kind: "not-found", name: notFoundName(text) };
    if (code === 126) return { kind: "not-executable" };
    return { kind: "exit-code", exitCode: code, expected: expected! };
  }
  const pattern = check.expect?.pattern;
  if (pattern !== undefined && !compilePattern(pattern).test(text)) return { kind: "no-match", pattern };
  return null;
}

/** Why the check failed, in plain English words (the log's and the record's `reason`); null when it passed. */
export function failureReason(failure: CheckFailure | null): string | null {
  return failure === null ? null : describeCheckFailure(failure, "en");
}

/** The missing word as the shell reports it: dash "sh: 1: foo: not found", bash "foo: command not found". */
function notFoundName(text: string): string | null {
  const match = /(?:^|\n)(?:[^\n:]*sh: (?:line )?\d+: )?([^\n:]+): (?:command )?not found/.exec(text);
  return match?.[1]?.trim() ?? null;
}

/** What passing means for the check, as the log header states it. */
function describeExpectation(check: GoalCheck): string {
  const exitCode = expectedExitCode(check);
  const parts = exitCode === null ? [] : [`exit ${exitCode}`];
  if (check.expect?.pattern !== undefined) parts.push(`output matches /${check.expect.pattern}/m`);
  return parts.join(", ");
}
/** The log file: a header saying what ran and what was expected, the bounded output, how it ended. */
export function renderLog(
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
