/**
 * `flower "<task>"` and `flower continue [step]`: a coordinator with a default team, the workspace as
 * its cwd, workbench on, handoff on unless --no-handoff.
 */
import { existsSync, statSync } from "node:fs";
import { createInterface } from "node:readline/promises";
import { resolve } from "node:path";
import { EXIT, UsageError } from "../../errors.js";
import { HandoffPolicy, resolveWindow } from "../../handoff/policy.js";
import { formatTokensShort } from "../../handoff/text.js";
import { resolveLocale, type Locale } from "../../locale/locale.js";
import { isDefaultRunDirectory, runDirectory } from "../../storage/files.js";
import { effectiveStatus, RunDirectory } from "../../storage/run-directory.js";
import { recordedSettings } from "../../runtime/step-settings.js";
import type { StepRecord, StepSettings } from "../../records/step-record.js";
import { Runtime } from "../../runtime/runtime.js";
import {
  parseBudget,
  parseLang,
  parseNonEmpty,
  parseWindow,
  windowNote,
  type ParsedCommand,
} from "../args.js";
import { commandLike } from "../command-like.js";
import { resolveProvider } from "../credentials.js";
import { defaultTeam } from "../default-team.js";
import { displayPath, eventSink, makeOutput, runLive, shellQuote, type Output } from "../live-run.js";
import { describeProvider } from "../providers.js";
import { storeHint } from "../store-hint.js";
import { storeOption, type StoreOption } from "../store-option.js";
import { CLI_TEXT } from "../text.js";
import { USAGE_TEXT } from "../usage-text.js";
import { knownNames, runStatus } from "../run-status.js";
import { runWorkflowLive } from "../workflow-live.js";
import { continueWorkflow, runWorkflow } from "../../workflow/run-workflow.js";
import { cliWorkflow } from "../cli-workflow.js";

export interface LiveSettings {
  output: Output;
  verbose: boolean;
  workspace: string;
  runDir: string;
  model: string | undefined;
  maxBudgetUsd: number | undefined;
  /** The handoff line shown with -v: what a new step gets, or what a continued step was started with. */
  handoff: HandoffPolicy;
  /**
   * The runtime's `handoff` option: only what the flags name (--no-handoff, --window), so the Runtime
   * decides the rest (the window from the model) and `continue` keeps what the step was started with.
   */
  handoffOption: HandoffPolicy;
  locale: Locale;
  /** `--lang` was given: it overrides a continued step's language (FLOWER_LANG / LANG do not). */
  localeGiven: boolean;
  /** `--review`: the goal guard's reviewer after the work (SPEC G3). */
  review: boolean;
  /** `--store` / FLOWER_STORE. */
  store: StoreOption;
}

/** Validates the options shared by run and continue, before anything is written. */
export function liveSettings(values: ParsedCommand["values"]): LiveSettings {
  // The language first: every usage error after it is in that language.
  const locale = resolveLocale(parseLang(values.lang));
  const window = parseWindow(values.window, locale);
  const model = parseNonEmpty("--model", values.model, locale);
  const maxBudgetUsd = parseBudget(values["max-budget-usd"], locale);
  const workspace = resolve(parseNonEmpty("--workspace", values.workspace, locale) ?? ".");
  if (!existsSync(workspace) || !statSync(workspace).isDirectory()) {
    throw new UsageError(USAGE_TEXT[locale].workspaceMissing(workspace));
  }
  const runDir = runDirectory(parseNonEmpty("--run-dir", values["run-dir"], locale));
  const store = storeOption(values);
  const handoffOption = new HandoffPolicy({
    ...(values["no-handoff"] === true ? { enabled: false } : {}),
    ...(window !== undefined ? { window } : {}),
  });
  // For -v only: the Runtime decides the same way (model > ANTHROPIC_MODEL > 1M).
  const handoff = new HandoffPolicy({
    enabled: handoffOption.enabled,
    window: resolveWindow({ window, model, env: process.env }),
  });
  const json = values.json === true;
  return {
    output: makeOutput(json, locale),
    verbose: values.verbose === true,
    workspace,
    runDir,
    model,
    maxBudgetUsd,
    handoff,
    handoffOption,
    locale,
    localeGiven: values.lang !== undefined,
    review: values.review === true,
    store,
  };
}

/**
 * `flower continue` shows and runs a step as it was started: its language (for the live view too) and
 * its handoff line, unless a flag names them. The Runtime applies the rest and reports each override.
 */
function adoptRecorded(
  settings: LiveSettings,
  values: ParsedCommand["values"],
  recorded: StepSettings | undefined,
): void {
  if (!recorded) return;
  if (!settings.localeGiven && recorded.locale !== settings.locale) {
    settings.locale = recorded.locale;
    settings.output = makeOutput(settings.output.json, recorded.locale);
  }
  const window = parseWindow(values.window);
  settings.handoff = new HandoffPolicy({
    enabled: values["no-handoff"] === true ? false : recorded.handoff.enabled,
    window: window ?? recorded.handoff.window,
    headroom: recorded.handoff.headroom,
  });
}

/**
 * The goal option of a direct run: with --review and no frozen goal, the reviewer judges the work
 * against the task as typed. (A workflow's work step passes the frozen goal's checks instead.)
 */
export function reviewGoal(settings: Pick<LiveSettings, "review">) {
  return settings.review ? { goal: { checks: [], review: true } } : {};
}

/**
 * Refuses to start when no way to Claude is configured (the message lists every way in and points to
 * the offline demo); with -v, shows the provider, its region/project, the model and a masked credential.
 */
export function requireCredentials(settings: LiveSettings): void {
  // A window that works but is small: said once, before the run (and before a missing key is), when
  // --window is typed; a continued step's recorded window was noted when it started.
  const note =
    settings.handoff.enabled && settings.handoffOption.given.window !== undefined
      ? windowNote(settings.handoff.window, settings.handoff.at, settings.locale)
      : undefined;
  if (note) settings.output.say(note);
  const provider = resolveProvider(process.env, {
    model: settings.model,
    locale: settings.locale,
    workspace: settings.workspace,
  });
  const text = CLI_TEXT[settings.locale];
  if (!settings.verbose) return;
  const say = settings.output.say;
  for (const line of describeProvider(provider, settings.locale)) say(line);
  say(
    settings.handoff.enabled
      ? text.window(formatTokensShort(settings.handoff.window), formatTokensShort(settings.handoff.at))
      : text.handoffOff,
  );
  say(text.workspace(settings.workspace));
}

export function makeRuntime(settings: LiveSettings, onEvent: Runtime["options"]["onEvent"]): Runtime {
  return new Runtime({
    workspace: settings.workspace,
    runDir: settings.runDir,
    workbench: true,
    handoff: settings.handoffOption,
    ...(settings.localeGiven ? { locale: settings.locale } : {}),
    ...(settings.model ? { model: settings.model } : {}),
    ...(settings.maxBudgetUsd !== undefined ? { maxBudgetUsd: settings.maxBudgetUsd } : {}),
    ...(onEvent ? { onEvent } : {}),
    ...(settings.store.given !== undefined ? { store: settings.store.given } : {}),
  });
}

/**
 * With a shared store: connects (an unreachable server is one line, before any credentials are needed
 * or any step starts) and copies every step's record from the store, so names and `continue` see the
 * whole fleet. Closes the runtime when it fails.
 */
async function joinSharedStore(rt: Runtime, settings: LiveSettings): Promise<void> {
  if (settings.store.spec.kind !== "postgres") return;
  try {
    await rt.ready();
    await rt.records.pull?.();
  } catch (error) {
    rt.close();
    throw error;
  }
}

/**
 * `flower continue <step>` as the user should type it, with --store (see store-hint.ts), --run-dir and
 * --workspace when not the defaults. A store whose password was left out gets a note on the next line.
 */
export function continueCommand(
  step: string,
  settings: Pick<LiveSettings, "runDir" | "workspace"> & Partial<Pick<LiveSettings, "store" | "locale">>,
): string {
  const parts = ["flower", "continue", shellQuote(step)];
  const store = storeHint(settings.store, settings.locale ?? "en");
  parts.push(...store.args.map(shellQuote));
  if (!isDefaultRunDirectory(settings.runDir))
    parts.push("--run-dir", shellQuote(displayPath(settings.runDir)));
  if (settings.workspace !== resolve("."))
    parts.push("--workspace", shellQuote(displayPath(settings.workspace)));
  return parts.join(" ") + (store.note === null ? "" : `\n  ${store.note}`);
}

/** A step name from the task's first words: readable in `flower runs`, unique in the manifest. */
export function stepNameFor(task: string, taken: (name: string) => boolean): string {
  const words = task
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]+/gu, " ")
    .split(/\s+/u)
    .filter(Boolean)
    .slice(0, 5);
  let base = Array.from(words.join("-")).slice(0, 40).join("").replace(/-+$/u, "");
  if (base === "") base = "task";
  let name = base;
  for (let n = 2; taken(name); n++) name = `${base}-${n}`;
  return name;
}

export async function runCommand(parsed: ParsedCommand): Promise<number> {
  const settings = liveSettings(parsed.values);
  const usage = USAGE_TEXT[settings.locale];
  if (parsed.positionals.length > 1) {
    throw new UsageError(usage.oneTask(parsed.positionals.length, parsed.positionals.join(" ")));
  }
  let given = parsed.positionals[0];
  // `flower stauts`, `flower version`: a typo must not start a paid run (nothing is written yet).
  const meant = given === undefined || parsed.literal === true ? undefined : commandLike(given);
  if (meant !== undefined) throw new UsageError(usage.commandLike(given!.trim(), meant));
  let credentialsChecked = false;
  if (given === undefined) {
    // Bare `flower`: an unfinished step here is shown with the command that continues it; on a
    // terminal with none, the task is asked for; otherwise the usage line.
    const unfinished = unfinishedStep(settings.runDir);
    if (unfinished) {
      const text = CLI_TEXT[settings.locale];
      settings.output.say(
        text.unfinished(
          unfinished.step,
          text.status[unfinished.status],
          continueCommand(unfinished.step, settings),
        ),
      );
      return EXIT.ok;
    }
    if (process.stdin.isTTY && process.stdout.isTTY) {
      // Credentials before the question: typing a task only to learn there is no key wastes it.
      requireCredentials(settings);
      credentialsChecked = true;
      given = await askForTask(settings.locale);
    }
    if (given === undefined || given.trim() === "") throw new UsageError(usage.noTask);
  }
  const task = given.trim();
  if (task === "") throw new UsageError(usage.emptyTask);
  const explicitStep = parseNonEmpty("--step", parsed.values.step, settings.locale);
  if (!credentialsChecked) requireCredentials(settings);
  const sink = eventSink(settings.output, settings.verbose);
  const rt = makeRuntime(settings, (event) => sink.handle(event));
  await joinSharedStore(rt, settings);
  if (parsed.values.direct !== true) {
    // The default run: requirements → goal → work. --step names the run (its steps are <run>/<name>).
    const run = explicitStep ?? stepNameFor(task, (name) => isTaken(rt, name));
    return (
      await runWorkflowLive({
        rt,
        output: settings.output,
        sink,
        step: run,
        continueCommand: continueCommand(run, settings),
        action: () =>
          runWorkflow(rt, cliWorkflow({ review: settings.review }), task, {
            run,
            wait: parsed.values.wait === true,
            ...(parsed.values.yes === true ? { pauseAfter: false } : {}),
          }),
      })
    ).code;
  }
  // --direct: the work step alone, exactly as `flower "<task>"` ran before the workflow.
  const step = explicitStep ?? stepNameFor(task, (name) => rt.records.get(name) !== undefined);
  const spec = defaultTeam(settings.locale);
  const outcome = await runLive({
    rt,
    output: settings.output,
    sink,
    step,
    continueCommand: continueCommand(step, settings),
    action: () => rt.run(step, spec, task, { wait: parsed.values.wait === true, ...reviewGoal(settings) }),
  });
  return outcome.code;
}

export async function continueCommandRun(parsed: ParsedCommand): Promise<number> {
  const settings = liveSettings(parsed.values);
  if (parsed.positionals.length > 1)
    throw new UsageError("flower continue: give at most one step name (see flower continue --help)");
  const prompt = parseNonEmpty("--prompt", parsed.values.prompt);
  if (settings.store.spec.kind === "postgres") return continueFromStore(parsed, settings, prompt);
  // Nothing to continue is said before credentials are asked for: the answer does not depend on them.
  const runDirectory = new RunDirectory(settings.runDir);
  const target = continueTarget(runDirectory, parsed.positionals[0], settings.locale);
  const records: StepRecord[] = runDirectory.steps();
  adoptRecorded(
    settings,
    parsed.values,
    recordedSettings(records, target.kind === "run" ? target.run : target.step),
  );
  if (target.kind === "run") {
    if (prompt !== undefined)
      throw new UsageError(
        `flower continue: --prompt is for a step run with --direct; run "${target.run}" goes on from its frozen documents`,
      );
    requireCredentials(settings);
    const sink = eventSink(settings.output, settings.verbose);
    return goOnWithRun(
      makeRuntime(settings, (event) => sink.handle(event)),
      sink,
      settings,
      parsed,
      target.run,
    );
  }
  refuseRereadGoal(parsed, target.step);
  requireCredentials(settings);
  const sink = eventSink(settings.output, settings.verbose);
  const rt = makeRuntime(settings, (event) => sink.handle(event));
  return goOnWithStep(rt, sink, settings, parsed, target.step, prompt);
}

/** `flower continue <run>`: the workflow goes on at the step where it stopped (W4). */
async function goOnWithRun(
  rt: Runtime,
  sink: ReturnType<typeof eventSink>,
  settings: LiveSettings,
  parsed: ParsedCommand,
  run: string,
): Promise<number> {
  const outcome = await runWorkflowLive({
    rt,
    output: settings.output,
    sink,
    step: run,
    continueCommand: continueCommand(run, settings),
    action: () =>
      // The run's reviewer as it was started; --review turns it on (an override line when it was off).
      continueWorkflow(
        rt,
        cliWorkflow({ review: settings.review || rt.settingsOf(run)?.review === true }),
        run,
        {
          wait: parsed.values.wait === true,
          ...(parsed.values.yes === true ? { pauseAfter: false } : {}),
          ...(parsed.values["reread-goal"] === true ? { rereadGoal: true } : {}),
        },
      ),
  });
  return outcome.code;
}

/** `--reread-goal` re-reads a run's goal file: a step run on its own has none. */
function refuseRereadGoal(parsed: ParsedCommand, step: string): void {
  if (parsed.values["reread-goal"] === true)
    throw new UsageError(
      `flower continue: --reread-goal is for a workflow run (it re-reads the run's goal file); "${step}" is a step run on its own`,
    );
}

/** `flower continue <step>` of a step run on its own (`--direct`). */
async function goOnWithStep(
  rt: Runtime,
  sink: ReturnType<typeof eventSink>,
  settings: LiveSettings,
  parsed: ParsedCommand,
  step: string,
  prompt: string | undefined,
): Promise<number> {
  const outcome = await runLive({
    rt,
    output: settings.output,
    sink,
    step,
    continueCommand: continueCommand(step, settings),
    action: () =>
      rt.continue(step, defaultTeam(settings.locale), {
        wait: parsed.values.wait === true,
        ...(prompt ? { prompt } : {}),
        ...reviewGoal(settings),
      }),
  });
  return outcome.code;
}

/** Whether a name is already used in the run directory, as a step or as a run. */
function isTaken(rt: Runtime, name: string): boolean {
  return rt.records.list().some((record) => record.step === name || record.run === name);
}

/**
 * What `flower continue [name]` picks up: a workflow run (by its id, or by one of its steps' names),
 * or a step run on its own. Without a name, the most recently updated step decides.
 */
function continueTarget(
  runDirectory: RunDirectory,
  name: string | undefined,
  locale: Locale,
): { kind: "run"; run: string } | { kind: "step"; step: string } {
  const text = CLI_TEXT[locale];
  if (name === undefined) {
    const last = runDirectory.lastStep();
    if (!last) throw new UsageError(`flower continue: ${text.noSteps(runDirectory.recordsPath)}`);
    return last.run !== undefined ? { kind: "run", run: last.run } : { kind: "step", step: last.step };
  }
  const record = runDirectory.step(name);
  if (record)
    return record.run !== undefined ? { kind: "run", run: record.run } : { kind: "step", step: name };
  if (runDirectory.steps().some((step) => step.run === name)) return { kind: "run", run: name };
  throw new UsageError(text.noStep(name, runDirectory.recordsPath, knownNames(runDirectory)));
}

/**
 * `flower continue` with a shared store: the step may have been recorded on another machine, and this
 * checkout may have no run directory at all. The store says which steps exist.
 */
async function continueFromStore(
  parsed: ParsedCommand,
  settings: LiveSettings,
  prompt: string | undefined,
): Promise<number> {
  let sink = eventSink(settings.output, settings.verbose);
  const rt = makeRuntime(settings, (event) => sink.handle(event));
  await joinSharedStore(rt, settings);
  const where = rt.records.location;
  const name = parsed.positionals[0] ?? rt.records.list().at(-1)?.step;
  // The records came from the store just now: the step's language is known only from here on.
  if (name !== undefined) {
    const before = settings.output;
    adoptRecorded(settings, parsed.values, rt.settingsOf(name));
    if (settings.output !== before) sink = eventSink(settings.output, settings.verbose);
  }
  const text = CLI_TEXT[settings.locale];
  // A step of a workflow run (or the run's id) goes on as the run: the next step reads the frozen files.
  const run =
    name === undefined
      ? undefined
      : (rt.records.get(name)?.run ??
        (rt.records.list().some((record) => record.run === name) ? name : undefined));
  try {
    if (name === undefined) throw new UsageError(`flower continue: ${text.noSteps(where)}`);
    if (run === undefined && !rt.records.get(name))
      throw new UsageError(
        text.noStep(
          name,
          where,
          rt.records.list().map((record) => record.run ?? record.step),
        ),
      );
    if (run !== undefined && prompt !== undefined)
      throw new UsageError(
        `flower continue: --prompt is for a step run with --direct; run "${run}" goes on from its frozen documents`,
      );
    if (run === undefined) refuseRereadGoal(parsed, name);
    requireCredentials(settings);
  } catch (error) {
    rt.close();
    throw error;
  }
  if (run !== undefined) return goOnWithRun(rt, sink, settings, parsed, run);
  return goOnWithStep(rt, sink, settings, parsed, name, prompt);
}

/**
 * The last step of the run directory when it did not finish (stopped, interrupted, failed), or the
 * last run when it is paused for a person; named as `flower continue` takes it (a run by its id).
 */
function unfinishedStep(
  runDir: string,
): { step: string; status: "stopped" | "interrupted" | "failed" | "goal-not-met" | "paused" } | undefined {
  const runDirectory = new RunDirectory(runDir);
  const last = runDirectory.lastStep();
  if (!last) return undefined;
  const status = effectiveStatus(last);
  const name = last.run ?? last.step;
  if (status === "stopped" || status === "interrupted" || status === "failed" || status === "goal-not-met")
    return { step: name, status };
  if (last.run !== undefined && runStatus(runDirectory.steps().filter((r) => r.run === last.run)).paused)
    return { step: name, status: "paused" };
  return undefined;
}

/** Asks for the task on a terminal; undefined when the input ends without one. */
async function askForTask(locale: Locale): Promise<string | undefined> {
  const lines = createInterface({ input: process.stdin, output: process.stdout });
  // Ctrl-D closes the input without an answer: that is no task, not a hang.
  const closed = new Promise<undefined>((resolve) => lines.once("close", () => resolve(undefined)));
  try {
    return await Promise.race([lines.question(CLI_TEXT[locale].askTask), closed]);
  } catch {
    return undefined;
  } finally {
    lines.close();
  }
}
