/**
 * A goal check's recorded result for the view tests (live view, show, verdict lines): an exit-code check
 * that passed or failed with exit 1, its log under /w/.flower/artifacts; any field can be overridden.
 */
import type { CheckResultRecord } from "../../src/records/guard-record.js";

export function checkResult(
  index: number,
  command: string,
  passed: boolean,
  overrides: Partial<CheckResultRecord> = {},
): CheckResultRecord {
  return {
    index,
    command,
    description: null,
    passed,
    exitCode: passed ? 0 : 1,
    signal: null,
    timedOut: false,
    notFound: false,
    expectedExitCode: 0,
    pattern: null,
    timeoutMs: 120_000,
    durationMs: 3,
    logPath: `/w/.flower/artifacts/goal-check-${index}.log`,
    tail: "",
    reason: passed ? null : "exit code 1, expected 0",
    failure: passed ? null : { kind: "exit-code", exitCode: 1, expected: 0 },
    ...overrides,
  };
}
