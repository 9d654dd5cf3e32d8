/**
 * `flower "<task>"` and `flower continue [step]`: a coordinator with a default team, the workspace as
 * its cwd, workbench on, handoff on unless --no-handoff.
 */
import { existsSync, statSync } from "node:fs";
import { createInterface } from "node:readline/promises";
import { relative, resolve } from "node:path";
import { EXIT, UsageError } from "../../errors.js";
import { HandoffPolicy, defaultWindow, windowForModel } from "../../handoff/policy.js";
import { formatTokensShort } from "../../handoff/text.js";
import { resolveLocale, type Locale } from "../../locale/locale.js";
import { effectiveStatus, RunDirectory } from "../../runtime/run-directory.js";
import { Runtime } from "../../runtime/runtime.js";
import { parseBudget, parseLang, parseNonEmpty, parseWindow, type ParsedCommand } from "../args.js";
import { resolveProvider } from "../credentials.js";
import { defaultTeam } from "../default-team.js";
import { eventSink, makeOutput, runLive, shellQuote, type Output } from "../live-run.js";
import { describeProvider } from "../providers.js";
import { storeOption, type StoreOption } from "../store-option.js";
import { CLI_TEXT } from "../text.js";

export interface LiveSettings {
  output: Output;
  verbose: boolean;
  workspace: string;
  runDir: string;
  model: string | undefined;
  maxBudgetUsd: number | undefined;
  handoff: HandoffPolicy;
  locale: Locale;
  /** `--store` / FLOWER_STORE. */
  store: StoreOption;
}

/** Validates the options shared by run and continue, before anything is written. */
export function liveSettings(values: ParsedCommand["values"]): LiveSettings {
  const locale = resolveLocale(parseLang(values.lang));
  const window = parseWindow(values.window);
  const model = parseNonEmpty("--model", values.model);
  const maxBudgetUsd = parseBudget(values["max-budget-usd"]);
  const workspace = resolve(parseNonEmpty("--workspace", values.workspace) ?? ".");
  if (!existsSync(workspace) || !statSync(workspace).isDirectory()) {
    throw new UsageError(`flower: --workspace must be an existing directory, got ${workspace}`);
  }
  const runDir = resolve(parseNonEmpty("--run-dir", values["run-dir"]) ?? "runs");
  const store = storeOption(values);
  // --model names the model directly, so the window is guessed from it; else from ANTHROPIC_MODEL.
  const guessed = model ? windowForModel(model) : defaultWindow(process.env);
  const handoff = new HandoffPolicy({ enabled: values["no-handoff"] !== true, window: window ?? guessed });
  const json = values.json === true;
  return {
    output: makeOutput(json, locale),
    verbose: values.verbose === true,
    workspace,
    runDir,
    model,
    maxBudgetUsd,
    handoff,
    locale,
    store,
  };
}

/**
 * Refuses to start when no way to Claude is configured (the message lists every way in and points to
 * the offline demo); with -v, shows the provider, its region/project, the model and a masked credential.
 */
export function requireCredentials(settings: LiveSettings): void {
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
    handoff: settings.handoff,
    locale: settings.locale,
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

/** `flower continue <step>` as the user should type it, with --run-dir / --workspace when not the defaults. */
export function continueCommand(step: string, settings: Pick<LiveSettings, "runDir" | "workspace">): string {
  const parts = ["flower", "continue", shellQuote(step)];
  if (settings.runDir !== resolve("runs")) parts.push("--run-dir", shellQuote(displayPath(settings.runDir)));
  if (settings.workspace !== resolve("."))
    parts.push("--workspace", shellQuote(displayPath(settings.workspace)));
  return parts.join(" ");
}

function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") ? rel : path;
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
  if (parsed.positionals.length > 1) {
    throw new UsageError(
      `flower: give the task as one quoted argument, got ${parsed.positionals.length} words (flower "${parsed.positionals.join(" ")}")`,
    );
  }
  let given = parsed.positionals[0];
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
    given = process.stdin.isTTY && process.stdout.isTTY ? await askForTask(settings.locale) : undefined;
    if (given === undefined || given.trim() === "")
      throw new UsageError('flower: no task given. Usage: flower "<task>" (see flower --help)');
  }
  const task = given.trim();
  if (task === "") throw new UsageError("flower: the task is empty");
  const explicitStep = parseNonEmpty("--step", parsed.values.step);
  requireCredentials(settings);
  const sink = eventSink(settings.output, settings.verbose);
  const rt = makeRuntime(settings, (event) => sink.handle(event));
  await joinSharedStore(rt, settings);
  const step = explicitStep ?? stepNameFor(task, (name) => rt.records.get(name) !== undefined);
  const spec = defaultTeam(settings.locale);
  const outcome = await runLive({
    rt,
    output: settings.output,
    sink,
    step,
    continueCommand: continueCommand(step, settings),
    action: () => rt.run(step, spec, task, { wait: parsed.values.wait === true }),
  });
  return outcome.code;
}

export async function continueCommandRun(parsed: ParsedCommand): Promise<number> {
  const settings = liveSettings(parsed.values);
  if (parsed.positionals.length > 1)
    throw new UsageError("flower continue: give at most one step name (see flower continue --help)");
  const prompt = parseNonEmpty("--prompt", parsed.values.prompt);
  const text = CLI_TEXT[settings.locale];
  if (settings.store.spec.kind === "postgres") return continueFromStore(parsed, settings, prompt);
  // Nothing to continue is said before credentials are asked for: the answer does not depend on them.
  const runDirectory = new RunDirectory(settings.runDir);
  const step = parsed.positionals[0] ?? runDirectory.lastStep()?.step;
  if (step === undefined) throw new UsageError(`flower continue: ${text.noSteps(runDirectory.recordsPath)}`);
  if (!runDirectory.step(step))
    throw new UsageError(text.noStep(step, runDirectory.recordsPath, runDirectory.stepNames()));
  requireCredentials(settings);
  const sink = eventSink(settings.output, settings.verbose);
  const rt = makeRuntime(settings, (event) => sink.handle(event));
  const name = step;
  const outcome = await runLive({
    rt,
    output: settings.output,
    sink,
    step: name,
    continueCommand: continueCommand(name, settings),
    action: () =>
      rt.continue(name, defaultTeam(settings.locale), {
        wait: parsed.values.wait === true,
        ...(prompt ? { prompt } : {}),
      }),
  });
  return outcome.code;
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
  const text = CLI_TEXT[settings.locale];
  const sink = eventSink(settings.output, settings.verbose);
  const rt = makeRuntime(settings, (event) => sink.handle(event));
  await joinSharedStore(rt, settings);
  const where = rt.records.location;
  const step = parsed.positionals[0] ?? rt.records.list().at(-1)?.step;
  try {
    if (step === undefined) throw new UsageError(`flower continue: ${text.noSteps(where)}`);
    if (!rt.records.get(step))
      throw new UsageError(
        text.noStep(
          step,
          where,
          rt.records.list().map((record) => record.step),
        ),
      );
    requireCredentials(settings);
  } catch (error) {
    rt.close();
    throw error;
  }
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
      }),
  });
  return outcome.code;
}

/** The last step of the run directory when it did not finish (stopped, interrupted, failed). */
function unfinishedStep(
  runDir: string,
): { step: string; status: "stopped" | "interrupted" | "failed" } | undefined {
  const last = new RunDirectory(runDir).lastStep();
  if (!last) return undefined;
  const status = effectiveStatus(last);
  return status === "stopped" || status === "interrupted" || status === "failed"
    ? { step: last.step, status }
    : undefined;
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
