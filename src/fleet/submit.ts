/**
 * `submit`: a run goes into the fleet's queue, to be driven by whichever worker takes it
 * (`flower submit "<task>" --store postgres://…`). Nothing runs here: the row and one job are written,
 * and the run's name is returned for approve, cancel and `flower runs`.
 */
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import { DEFAULTS } from "../defaults.js";
import type { FleetRunOptions } from "../records/fleet-run.js";
import { stepNameFor } from "../workflow/run-name.js";
import { RUN_ID } from "../workflow/workflow.js";
import { withStore, type FleetStoreOption } from "./fleet-runs.js";
import { join, resolve } from "node:path";
import { existsSync, statSync } from "node:fs";
import { notADirectoryOnPath } from "../fs/directory-path.js";
import { captureSource } from "../checkpoints/run-source.js";
import { SecretRedactor, secretsOf } from "../secret-redactor.js";
import type { HandoffRule } from "../handoff/policy.js";
import { NOTIFY_EXPECTED, parseNotifyTarget, shownTarget } from "../notify/index.js";

export interface SubmitOptions {
  /** The work step alone, no requirements or goal (the CLI's `--direct`). @default false */
  direct?: boolean;
  /** No pause after the requirements (the CLI's `--yes`). @default false: the run waits as `paused` */
  yes?: boolean;
  /** The model's context window in tokens (the CLI's `--window`). @default the worker's */
  window?: number;
  /** When its steps hand off (the CLI's `--handoff-rule`). @default "line" */
  rule?: HandoffRule;
  /** The run's budget in dollars over everything it spends (the CLI's `--budget`). @default the worker's `budgetPerRun`, else none */
  budgetUsd?: number;
  /** The run's name. @default from the task's first words, unique in the store */
  run?: string;
  /** Higher goes first. @default 0 */
  priority?: number;
  /**
   * The checkout the run works on: its commit, and the uncommitted changes and unpushed commits as
   * they are now, go into the store, and each worker begins the run from exactly that in a worktree of
   * its own. The CLI gives the current directory. @default none: workers run it on their own checkout's HEAD
   */
  workspace?: string;
  /** Where the submitting checkout's shadow repository is kept. @default `<workspace>/runs` */
  runDir?: string;
  /**
   * Told when the run pauses for approval or ends (done, goal not met, failed), by the worker that
   * drives it (the CLI's `--notify`): a shell command, run on that worker, or an http(s) URL for a
   * webhook. Kept with the run. @default none (a worker's own `notify` is told anyway)
   */
  notify?: string;
}

/** Every option name, checked against SubmitOptions by the compiler. */
const KNOWN = {
  direct: true,
  yes: true,
  window: true,
  rule: true,
  budgetUsd: true,
  run: true,
  priority: true,
  workspace: true,
  runDir: true,
  notify: true,
} as const satisfies Record<keyof SubmitOptions, true>;

export interface Submitted {
  run: string;
  /** The queue's job that delivers it. */
  job: string;
  /**
   * Untracked files of the checkout that look like secrets (`.env`, `id_rsa`, a private key): not
   * carried to the store or any worker. Relative to the checkout. Empty without a `workspace`.
   */
  leftOut: string[];
  /** Files that look like secrets and were carried because `flower.json`'s `carry` names them. */
  carried: string[];
}

export async function submit(
  store: FleetStoreOption,
  task: string,
  options: SubmitOptions = {},
): Promise<Submitted> {
  if (typeof task !== "string" || task.trim() === "")
    throw new ConfigurationError("task", task, "a non-empty task");
  const runOptions = checkOptions(options);
  const priority = options.priority ?? 0;
  if (!Number.isInteger(priority)) throw new ConfigurationError("priority", priority, "an integer");
  if (
    options.workspace !== undefined &&
    (typeof options.workspace !== "string" ||
      !existsSync(resolve(options.workspace)) ||
      !statSync(resolve(options.workspace)).isDirectory())
  )
    throw new ConfigurationError("workspace", options.workspace, "the path of an existing directory");
  if (options.runDir !== undefined && (typeof options.runDir !== "string" || options.runDir.trim() === ""))
    throw new ConfigurationError("runDir", options.runDir, "a directory path");
  const notDirectory = options.runDir === undefined ? null : notADirectoryOnPath(options.runDir);
  if (notDirectory !== null)
    throw new ConfigurationError(
      "runDir",
      options.runDir,
      `a directory path (${notDirectory} is not a directory)`,
    );
  return withStore(store, async (fleet) => {
    await fleet.ready();
    const steps = await fleet.records.list();
    const recorded = new Set(steps.flatMap((record) => [record.step, record.run ?? record.step]));
    const queued = new Set((await fleet.runs.list()).map((entry) => entry.run));
    const taken = (name: string) => recorded.has(name) || queued.has(name);
    let run = options.run;
    if (run !== undefined && taken(run))
      throw new ConfigurationError("run", run, "a new run name (this one is taken in the store)");
    // Two submits naming the same task at once: the second insert loses the key and takes the next name.
    for (;;) {
      run ??= stepNameFor(task, taken);
      if (await fleet.runs.insert(run, task.trim(), runOptions)) break;
      if (options.run !== undefined)
        throw new ConfigurationError("run", run, "a new run name (this one was taken meanwhile)");
      queued.add(run);
      run = undefined;
    }
    let leftOut: string[] = [];
    let carried: string[] = [];
    if (options.workspace !== undefined) {
      try {
        const checkout = resolve(options.workspace);
        const captured = await captureSource({
          checkout,
          runDir: resolve(options.runDir ?? join(checkout, DEFAULTS.runDir)),
          run,
          carrier: fleet.work,
          // A file holding the key this process would give a run's `claude` is a secret too.
          redactor: new SecretRedactor(secretsOf(process.env)),
          now: () => new Date(),
        });
        if (captured !== null) {
          await fleet.runs.setOptions(run, { ...runOptions, source: captured.source });
          leftOut = captured.leftOut.map((entry) => entry.path);
          carried = captured.carried;
        }
      } catch (error) {
        // Nothing of a failed submit stays: the row goes (its job was never sent).
        await fleet.runs.remove(run).catch(() => undefined);
        throw error;
      }
    }
    const job = await fleet.queue.send(run, priority);
    await fleet.runs.setJob(run, job);
    return { run, job, leftOut, carried };
  });
}

function checkOptions(options: SubmitOptions): FleetRunOptions {
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError("options", options, "an object of submit options");
  refuseUnknownOptions(options, KNOWN);
  for (const name of ["direct", "yes"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "boolean")
      throw new ConfigurationError(name, options[name], "a boolean");
  }
  const window = options.window;
  const MIN_WINDOW = DEFAULTS.minimumWindow;
  if (window !== undefined && !(Number.isInteger(window) && window >= MIN_WINDOW))
    throw new ConfigurationError("window", window, `an integer >= ${MIN_WINDOW}`);
  const rule = options.rule;
  if (rule !== undefined && rule !== "line" && rule !== "cost")
    throw new ConfigurationError("rule", rule, '"line" or "cost"');
  const budget = options.budgetUsd;
  if (budget !== undefined && !(typeof budget === "number" && Number.isFinite(budget) && budget > 0))
    throw new ConfigurationError("budgetUsd", budget, "a positive number of dollars");
  if (options.run !== undefined && (typeof options.run !== "string" || !RUN_ID.test(options.run)))
    throw new ConfigurationError("run", options.run, "a run name of letters, digits, . - or _ (at most 80)");
  if (options.notify !== undefined) {
    const target = parseNotifyTarget(options.notify);
    if ("refused" in target)
      throw new ConfigurationError(
        "notify",
        typeof options.notify === "string" ? shownTarget(options.notify) : options.notify,
        NOTIFY_EXPECTED,
      );
  }
  return {
    direct: options.direct === true,
    yes: options.yes === true,
    ...(window !== undefined ? { window } : {}),
    ...(rule !== undefined ? { rule } : {}),
    ...(budget !== undefined ? { budgetUsd: budget } : {}),
    ...(options.notify !== undefined ? { notify: options.notify.trim() } : {}),
  };
}
