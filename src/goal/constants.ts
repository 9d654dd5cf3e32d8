/**
 * The goal guard's defaults, in one place. The lead may fold them into `src/defaults.ts` when the guard
 * is wired; they live here until then so this folder stays self-contained.
 */
export const GOAL_DEFAULTS = {
  /** Failed guard rounds before the work step ends `goal-not-met` (SPEC G1). */
  guardRounds: 3,
  /** Per-check timeout: long enough for a real test suite, short enough that a hang ends the round. */
  checkTimeoutMs: 120_000,
  /** After SIGTERM a check's process group gets this long to exit before SIGKILL. */
  killGraceMs: 2_000,
  /**
   * A check's output kept in memory and in its log: the first `logHeadBytes` and the last
   * `logTailBytes`. A test suite that prints 500 MB must not take the runtime's memory with it; the
   * failure is nearly always at the end, and the start says what ran.
   */
  logHeadBytes: 512 * 1024,
  logTailBytes: 256 * 1024,
  /** The tail a coordinator sees per failing check: this many lines, at most `tailMaxChars`. */
  tailLines: 20,
  tailMaxChars: 2_000,
  /**
   * Runs of the checks whose logs are kept per check (`goal-check-<n>.run-<r>.log`): every round of a
   * default guard (4 runs) and of a `continue` after it fits, and a check's logs stay below
   * 10 × 768 KB. Older runs' logs are removed; their record keeps the exit code and the last lines.
   */
  keptRunLogs: 10,
} as const;
