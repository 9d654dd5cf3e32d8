/**
 * Runtime options, validated once at the boundary before any side effect. An error names the option
 * and the value it got. This is one of the two places that read the environment (the other is the
 * CLI): the locale and the child's environment are resolved here and passed down as explicit values
 * (each step's window is decided from that environment by `effectiveSettings`, step-settings.ts).
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { DEFAULTS } from "../defaults.js";
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import { notADirectoryOnPath } from "../fs/directory-path.js";
import { HandoffPolicy } from "../handoff/policy.js";
import { isLocale, resolveLocale, type Locale } from "../locale/locale.js";
import { storeSpecOf, type StoreSpec } from "../storage/store-spec.js";
import type { PostgresConnection } from "../storage/backing-store.js";
import { TrimPolicy } from "../session-layers/trim-policy.js";
import { query } from "@anthropic-ai/claude-agent-sdk";
import type { FlowerEvent } from "./events.js";
import type { QueryFunction } from "./query-function.js";
import type { LeaseTiming } from "../records/lease.js";
import type { Budget } from "../records/run-spend.js";
import { givenHandoff, type GivenSettings } from "./drive/step-settings.js";
import { resolveTelemetry, type TelemetryOptions, type TelemetrySettings } from "../telemetry/settings.js";

export interface RuntimeOptions {
  /** The agent's working directory. Required; must exist. */
  workspace: string;
  /**
   * Where the run records live (`records.db`, mirrored to `manifest.json`) and, with the default store, the
   * session database `sessions.db` (relative paths from the process cwd). @default "runs"
   */
  runDir?: string;
  /** Create `<workspace>/.flower/` (scripts, artifacts, notes, spill) with its index, and install the spill guard. @default false */
  workbench?: boolean;
  /**
   * Handoff generations instead of auto-compact. `true`/`false` = `new HandoffPolicy({ enabled })`. A
   * window the policy leaves out is decided for each step (`resolveWindow`): from `model`, else ANTHROPIC_MODEL /
   * ANTHROPIC_DEFAULT_OPUS_MODEL (`env` over process.env), else 1M — as the CLI does.
   *
   * Settings and `continue`: a step records its settings (model, handoff on/off, window, headroom,
   * maxBudgetUsd, the goal's review, locale) when it starts, and `rt.continue()` runs it with them. Only
   * what is given explicitly — here (`handoff`, a policy's given fields, `model`, `maxBudgetUsd`,
   * `locale`) or in the step's own options (`handoff`, `goal`) — overrides a recorded setting, and each
   * override is a `setting-override` event. Defaults (the environment's model or language) never do.
   * @default true
   */
  handoff?: HandoffPolicy | boolean;
  /** Tool output longer than this (chars) is spilled to the workbench. `null` or `0`: no spill guard. @default 4000 */
  spillThreshold?: number | null;
  /** Spill long tool results when a session is loaded for resume. @default false */
  trim?: boolean | TrimPolicy;
  /** Failed attempts before a step gives up. Handoffs never count. @default 3 */
  maxAttempts?: number;
  /**
   * Recall: a successor generation can search its step's earlier generations' transcripts for what the
   * handoff left out (a `recall` subagent, or the `mcp__flower__recall` tool for an agent without subagents;
   * docs/handoffs.md). `false`: successors get neither, and their prompt does not mention it.
   * @default true
   */
  recall?: boolean;
  /** Receives every event (step start/end, retry, context, agents, denials, spills, handoffs, store loads). */
  onEvent?: (event: FlowerEvent) => void;
  /**
   * Language of rules, handoffs and messages. Given, it overrides the language a continued step was
   * started with. @default a continued step's recorded language; else from FLOWER_LANG, then LANG (zh*), else "en"
   */
  locale?: Locale;
  /**
   * Model for specs that set none; also decides the handoff window when the policy names none. Given,
   * it overrides the model a continued step was started with.
   * @default a continued step's recorded model; else none (the binary's default, e.g. ANTHROPIC_MODEL)
   */
  model?: string;
  /**
   * Budget cap per session (not for the handoff-writing turn, which must be able to finish). Given, it
   * overrides a continued step's recorded cap. @default a continued step's recorded cap; else none
   */
  maxBudgetUsd?: number;
  /**
   * The run's budget in dollars, over everything it spends: every step, generation, handoff-writing turn,
   * subagent, guard round and reviewer (the SDK's `maxBudgetUsd` is per session and never covers
   * the writing turn). Once the run's spent figure reaches it, the step stops at the next message
   * boundary with status `budget-reached`; `continue` with a higher one goes on. Recorded with the step;
   * given, it overrides a continued step's recorded budget. @default a continued step's recorded budget; else none
   */
  budgetUsd?: number;
  /**
   * The drift watch: after this many generations in a row with no newly passing goal check and no
   * changed file, a step pauses at the handoff for a person (`continue` goes on). 0 turns it off. Given,
   * it overrides a continued step's recorded value. @default 3
   */
  driftAfter?: number;
  /** Extra environment for the `claude` child, over process.env (credentials, the offline kit's env()). */
  env?: Record<string, string>;
  /**
   * Where sessions, run records, leases, frozen documents and spill files are kept. A
   * `postgres://user:password@host:port/database` URL (optionally `?schema=name`) puts them in a shared
   * PostgreSQL store, so a step started on one machine can be continued on another; `sqlite:<path>` names
   * the session database file. Malformed values are refused here. A spec parsed already (as the CLI
   * parses `--store`, naming the flag in its errors) is taken as it is.
   * @default `<runDir>/sessions.db` and `<runDir>/records.db` (SQLite, no setup)
   */
  store?: string | StoreSpec;
  /**
   * OpenTelemetry traces and metrics of runs, steps, generations, turns and handoffs (docs/telemetry.md).
   * `true` or an object turns it on, `false` keeps it off whatever the environment says. The SDK is
   * loaded only when it is on.
   * @default on when the process's OTEL_* variables name a collector or an OTLP exporter
   * (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_TRACES_EXPORTER=otlp, ...), else off
   */
  telemetry?: boolean | TelemetryOptions;
  /**
   * The run's work: checkpoints of the workspace's files in a shadow git repository (outside your own
   * `.git`) at every main-thread tool call, generation start, step end and stop; with a shared store they
   * travel with the transcript (docs/work.md). `false` turns them off. Needs `git` on PATH; without it a
   * step runs as before and says once that its files are not checkpointed.
   * @default true
   */
  work?: boolean | WorkOptions;
  /**
   * Seams for tests, not a public API: `query` replaces the SDK's `query()` (the step loop's unit tests
   * script it in process), `now` the clock. Use the offline kit (`flower-agent/testing`) to test your
   * own workflows instead.
   * @internal
   */
  _internal?: RuntimeInternals;
}

export interface WorkOptions {
  /** Checkpoint the workspace's files. @default true */
  checkpoints?: boolean;
  /**
   * The workspace is a working tree of flower's own for one run (a `git worktree` or copy: `--worktree`,
   * a fleet worker's run): a continue puts its files back exactly to the last checkpoint the transcript
   * has. In your own checkout (false) flower never puts files back; it names what differs.
   * @default false
   */
  isolated?: boolean;
  /** Files larger than this are left out of checkpoints, and named in the record. @default 10 MiB */
  maxFileBytes?: number;
  /**
   * Hand the run's work back as the branch `flower/<run>` of the workspace's repository after every
   * step. A fleet worker's runs do not (false): their work is in the store, and `flower fetch` builds the
   * branch where the person wants it, so the worker's own checkout keeps nothing of a run.
   * @default true
   */
  branch?: boolean;
}

export interface RuntimeInternals {
  query?: QueryFunction;
  now?: () => Date;
  /** Lease heartbeat and staleness (tests shorten them). */
  leaseTiming?: Partial<LeaseTiming>;
  /**
   * Ceilings beside the run's own budget, not recorded with the step: a fleet worker's day
   * (`--budget-per-day`), with the day's spend of other runs as its offset (records/run-spend.ts).
   */
  budgets?: Budget[];
  /**
   * The shared store's connection the CLI made to reach and migrate it (storage/backing-store.ts,
   * `reachStore`): taken over, so a process opens one pool, not a second beside it. The runtime closes it.
   */
  reached?: PostgresConnection;
}

export interface ResolvedRuntimeOptions {
  workspace: string;
  runDir: string;
  workbench: boolean;
  /**
   * What was named explicitly: with what a step records and the environment, `effectiveSettings`
   * decides the settings each step runs with (only these override a continued step's record).
   */
  given: GivenSettings;
  /** The environment the `claude` child sees (`env` over process.env): where a guessed window comes from. */
  childEnv: NodeJS.ProcessEnv;
  spillThreshold: number | null;
  trim: TrimPolicy | null;
  maxAttempts: number;
  recall: boolean;
  onEvent: ((event: FlowerEvent) => void) | undefined;
  locale: Locale;
  model: string | undefined;
  maxBudgetUsd: number | undefined;
  env: Record<string, string>;
  store: StoreSpec;
  /** null: telemetry is off (nothing subscribes, nothing is loaded). */
  telemetry: TelemetrySettings | null;
  work: Required<WorkOptions>;
  internal: Required<Omit<RuntimeInternals, "leaseTiming" | "budgets" | "reached">> &
    Pick<RuntimeInternals, "leaseTiming" | "budgets" | "reached">;
}

/**
 * Every option name, checked against RuntimeOptions by the compiler: adding an option to the interface
 * without listing it here (or listing one that does not exist) fails the typecheck.
 */
const KNOWN = {
  workspace: true,
  runDir: true,
  workbench: true,
  handoff: true,
  spillThreshold: true,
  trim: true,
  maxAttempts: true,
  recall: true,
  onEvent: true,
  locale: true,
  model: true,
  maxBudgetUsd: true,
  budgetUsd: true,
  driftAfter: true,
  env: true,
  store: true,
  telemetry: true,
  work: true,
  _internal: true,
} as const satisfies Record<keyof RuntimeOptions, true>;

/** The names of every Runtime option (a caller that passes RuntimeOptions on refuses unknown ones with them). */
export const RUNTIME_OPTION_NAMES: Readonly<Record<keyof RuntimeOptions, true>> = KNOWN;

export function resolveRuntimeOptions(options: RuntimeOptions): ResolvedRuntimeOptions {
  if (!options || typeof options !== "object") {
    throw new ConfigurationError("options", options, "an object with at least { workspace }");
  }
  refuseUnknownOptions(options, KNOWN);
  const { workspace } = options;
  if (typeof workspace !== "string" || workspace.trim() === "") {
    throw new ConfigurationError("workspace", workspace, "the path of an existing directory");
  }
  const workspacePath = resolve(workspace);
  if (!existsSync(workspacePath) || !statSync(workspacePath).isDirectory()) {
    throw new ConfigurationError("workspace", workspace, "the path of an existing directory");
  }
  const runDir = options.runDir ?? DEFAULTS.runDir;
  if (typeof runDir !== "string" || runDir.trim() === "")
    throw new ConfigurationError("runDir", runDir, "a directory path");
  // A path that is a file, or under one (`somefile/runs`), can never be made: said here, before any write.
  const notDirectory = notADirectoryOnPath(runDir);
  if (notDirectory !== null)
    throw new ConfigurationError("runDir", runDir, `a directory path (${notDirectory} is not a directory)`);
  const workbench = options.workbench ?? false;
  if (typeof workbench !== "boolean") throw new ConfigurationError("workbench", workbench, "a boolean");
  if (
    options.handoff !== undefined &&
    typeof options.handoff !== "boolean" &&
    !(options.handoff instanceof HandoffPolicy)
  ) {
    throw new ConfigurationError("handoff", options.handoff, "a HandoffPolicy or a boolean");
  }
  const spillThreshold =
    options.spillThreshold === undefined ? DEFAULTS.spillThreshold : options.spillThreshold;
  if (spillThreshold !== null && (!Number.isInteger(spillThreshold) || spillThreshold < 0)) {
    throw new ConfigurationError(
      "spillThreshold",
      spillThreshold,
      "a non-negative integer, or null for no spill guard",
    );
  }
  const trim = options.trim ?? false;
  if (typeof trim !== "boolean" && !(trim instanceof TrimPolicy))
    throw new ConfigurationError("trim", trim, "a boolean or a TrimPolicy");
  const maxAttempts = options.maxAttempts ?? DEFAULTS.maxAttempts;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
    throw new ConfigurationError("maxAttempts", maxAttempts, "an integer >= 1");
  const recall = options.recall ?? true;
  if (typeof recall !== "boolean") throw new ConfigurationError("recall", recall, "a boolean");
  if (options.onEvent !== undefined && typeof options.onEvent !== "function") {
    throw new ConfigurationError("onEvent", options.onEvent, "a function (event) => void");
  }
  if (options.locale !== undefined && !isLocale(options.locale))
    throw new ConfigurationError("locale", options.locale, '"zh" or "en"');
  if (options.model !== undefined && (typeof options.model !== "string" || options.model === "")) {
    throw new ConfigurationError("model", options.model, "a model alias or id");
  }
  if (
    options.maxBudgetUsd !== undefined &&
    !(typeof options.maxBudgetUsd === "number" && options.maxBudgetUsd > 0)
  ) {
    throw new ConfigurationError("maxBudgetUsd", options.maxBudgetUsd, "a positive number of dollars");
  }
  if (
    options.budgetUsd !== undefined &&
    !(typeof options.budgetUsd === "number" && Number.isFinite(options.budgetUsd) && options.budgetUsd > 0)
  )
    throw new ConfigurationError("budgetUsd", options.budgetUsd, "a positive finite number of dollars");
  if (
    options.driftAfter !== undefined &&
    !(Number.isSafeInteger(options.driftAfter) && options.driftAfter >= 0)
  )
    throw new ConfigurationError("driftAfter", options.driftAfter, "an integer >= 0 (0 turns the watch off)");
  const env = options.env ?? {};
  if (
    typeof env !== "object" ||
    env === null ||
    Object.values(env).some((value) => typeof value !== "string")
  ) {
    throw new ConfigurationError("env", env, "an object of string values");
  }
  const childEnv = { ...process.env, ...env };
  const given: GivenSettings = {
    ...givenHandoff(options.handoff),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.maxBudgetUsd !== undefined ? { maxBudgetUsd: options.maxBudgetUsd } : {}),
    ...(options.driftAfter !== undefined ? { driftAfter: options.driftAfter } : {}),
    ...(options.budgetUsd !== undefined ? { budgetUsd: options.budgetUsd } : {}),
    ...(options.locale !== undefined ? { locale: options.locale } : {}),
  };
  const work = resolveWork(options.work);
  const internal = options._internal ?? {};
  if (typeof internal !== "object" || internal === null)
    throw new ConfigurationError("_internal", internal, "an object { query?, now? }");
  return {
    workspace: workspacePath,
    runDir: resolve(runDir),
    workbench,
    given,
    childEnv,
    spillThreshold: spillThreshold === 0 ? null : spillThreshold,
    trim: trim === true ? new TrimPolicy() : trim === false ? null : trim,
    maxAttempts,
    recall,
    onEvent: options.onEvent,
    locale: resolveLocale(options.locale),
    model: options.model,
    maxBudgetUsd: options.maxBudgetUsd,
    env,
    store: storeSpecOf(options.store),
    // The process's own environment, as every OpenTelemetry SDK reads it (`env` is the child's).
    telemetry: resolveTelemetry(options.telemetry, process.env),
    work,
    internal: {
      query: internal.query ?? query,
      now: internal.now ?? (() => new Date()),
      ...(internal.leaseTiming ? { leaseTiming: internal.leaseTiming } : {}),
      ...(internal.budgets ? { budgets: internal.budgets } : {}),
      ...(internal.reached ? { reached: internal.reached } : {}),
    },
  };
}

const WORK_KNOWN = {
  checkpoints: true,
  isolated: true,
  maxFileBytes: true,
  branch: true,
} as const satisfies Record<keyof WorkOptions, true>;

/** The `work` option, every field checked and named in its error. */
function resolveWork(value: boolean | WorkOptions | undefined): Required<WorkOptions> {
  const defaults = {
    checkpoints: true,
    isolated: false,
    maxFileBytes: DEFAULTS.checkpointMaxFileBytes,
    branch: true,
  };
  if (value === undefined || value === true) return defaults;
  if (value === false) return { ...defaults, checkpoints: false };
  if (typeof value !== "object" || value === null)
    throw new ConfigurationError(
      "work",
      value,
      "a boolean or { checkpoints?, isolated?, maxFileBytes?, branch? }",
    );
  refuseUnknownOptions(value, WORK_KNOWN, "work.");
  for (const key of ["checkpoints", "isolated", "branch"] as const) {
    if (value[key] !== undefined && typeof value[key] !== "boolean")
      throw new ConfigurationError(`work.${key}`, value[key], "a boolean");
  }
  const maxFileBytes = value.maxFileBytes ?? defaults.maxFileBytes;
  if (!Number.isInteger(maxFileBytes) || maxFileBytes < 1)
    throw new ConfigurationError("work.maxFileBytes", value.maxFileBytes, "an integer number of bytes >= 1");
  return {
    checkpoints: value.checkpoints ?? true,
    isolated: value.isolated ?? false,
    maxFileBytes,
    branch: value.branch ?? true,
  };
}
