/**
 * The options of `runChecks` and their validation. Kept apart from the runner so the runner reads as
 * "for each check: run, judge, log"; every bad value is refused here, with a ConfigurationError naming
 * it, before any check runs.
 */
import { statSync } from "node:fs";
import path from "node:path";
import { ConfigurationError } from "../errors.js";
import { GOAL_DEFAULTS } from "../defaults.js";
import { validateGoalCheck, validateTimeout, type GoalCheck } from "./goal-check.js";
import type { CheckResult } from "./check-result.js";

export interface RunChecksOptions {
  /** The directory each check runs in. Must exist. */
  workspace: string;
  /**
   * Where `goal-check-<n>.log` files go (the runtime gives `<workbench>/artifacts`, else a folder per step
   * in the run directory). Created when missing.
   */
  logDir: string;
  /**
   * Which run of the checks this is (1-based, counted over the step's whole record). With it each log
   * is `goal-check-<n>.run-<run>.log`, so every guard round's evidence stays readable afterwards, and
   * the logs of runs older than the last `GOAL_DEFAULTS.keptRunLogs` are removed. Without it the log
   * is `goal-check-<n>.log`, replaced by the next run.
   */
  run?: number;
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

/** The options after defaults and validation; what the runner works with. */
export interface ResolvedOptions {
  workspace: string;
  logDir: string;
  run: number | null;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal | undefined;
  killGraceMs: number;
}

/** Validates the checks and the options and fills in the defaults; throws before anything runs. */
export function resolveOptions(checks: readonly GoalCheck[], options: RunChecksOptions): ResolvedOptions {
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
  const run = options.run ?? null;
  if (run !== null && (typeof run !== "number" || !Number.isSafeInteger(run) || run < 1))
    throw new ConfigurationError("run", run, "a whole number of at least 1");
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
    run,
    timeoutMs,
    env: options.env ?? process.env,
    signal: options.signal,
    killGraceMs,
  };
}
