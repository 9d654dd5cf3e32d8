/**
 * What a check's ending means: the result record, the failure reason in plain words, and the log file's
 * text. These are the words a coordinator and a human read, so they live together and apart from the
 * process handling (check-process.ts) and the runner loop (checks.ts).
 */
import type { Ending } from "./check-process.js";
import { GOAL_DEFAULTS } from "./constants.js";
import { compilePattern, expectedExitCode, type GoalCheck } from "./goal-check.js";
import type { OutputCapture } from "./output-capture.js";

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

/** Why the check failed, in plain words; null when it passed. */
export function failureReason(
  check: GoalCheck,
  ending: Ending,
  text: string,
  timeoutMs: number,
): string | null {
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

/** Milliseconds as seconds for a message: `120` or `1.5`, without trailing zeros. */
export function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return Number.isInteger(seconds) ? String(seconds) : String(Number(seconds.toFixed(2)));
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
