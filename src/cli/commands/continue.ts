/**
 * `flower continue [step|run]`: a stopped run or step goes on, with the settings it was started with.
 * Options: command-line/command-options.ts `continue`, parsed by command-line/args.ts; settings (the recorded
 * ones adopted): live/live-settings.ts; supervision: live/live-run.ts, live/workflow-live.ts; words: cli-text.ts.
 */
import { typed } from "../../locale/invocation.js";
import { UsageError } from "../../errors.js";
import type { Locale } from "../../locale/locale.js";
import { RunDirectory } from "../../storage/run-directory.js";
import { recordedSettings } from "../../runtime/drive/step-settings.js";
import type { StepRecord } from "../../records/step-record.js";
import type { Runtime } from "../../runtime/runtime.js";
import { parseNonEmpty, type ParsedCommand } from "../command-line/args.js";
import { defaultTeam } from "../../agents/default-team.js";
import { eventSink, runLive } from "../live/live-run.js";
import { CLI_TEXT } from "../cli-text.js";
import { knownNames } from "../record-views/run-status.js";
import { runWorkflowLive } from "../live/workflow-live.js";
import { continueWorkflow } from "../../workflow/run-workflow.js";
import { defaultWorkflow } from "../../workflow/default-workflow.js";
import { budgetBelowSpent } from "../record-views/budget-lines.js";
import {
  adoptRecorded,
  continueCommand,
  liveSettings,
  makeRuntime,
  requireCredentials,
  recordedWorktree,
  reviewGoal,
  supervised,
  type LiveSettings,
} from "../live/live-settings.js";

/**
 * `flower continue [step|run]`: what to pick up (one resolver for a run directory, the store's records
 * for a shared store), with the settings it was started with, and how it goes on (a workflow run at the
 * step where it stopped, a step run on its own in its session).
 */
export async function continueCommandRun(parsed: ParsedCommand): Promise<number> {
  const settings = liveSettings(parsed.values);
  if (parsed.positionals.length > 1)
    throw new UsageError(`flower continue: give at most one step name (see ${typed("continue --help")})`);
  const prompt = parseNonEmpty("--prompt", parsed.values.prompt);
  if (settings.store.spec.kind === "postgres") return continueFromStore(parsed, settings, prompt);
  // Nothing to continue is said before credentials are asked for: the answer does not depend on them.
  const runDirectory = new RunDirectory(settings.runDir);
  const target = continueTarget(runDirectory, parsed.positionals[0], settings.locale);
  const records: StepRecord[] = runDirectory.steps();
  // A run started with --worktree goes on in its worktree.
  const worktree = recordedWorktree(records, target.kind === "run" ? target.run : target.step);
  if (worktree !== undefined) settings.worktree = worktree;
  adoptRecorded(settings, recordedSettings(records, target.kind === "run" ? target.run : target.step));
  refuseSpentBudget(records, target.kind === "run" ? target.run : target.step, settings);
  if (target.kind === "run") {
    if (prompt !== undefined)
      throw new UsageError(
        `flower continue: --prompt is for a step run with --direct; run "${target.run}" goes on from its frozen documents`,
      );
    requireCredentials(settings);
    const sink = eventSink(settings.output, settings.verbose);
    return goOnWithRun(
      await makeRuntime(settings, (event) => sink.handle(event)),
      sink,
      settings,
      parsed,
      target.run,
    );
  }
  refuseRereadGoal(parsed, target.step);
  requireCredentials(settings);
  const sink = eventSink(settings.output, settings.verbose);
  const rt = await makeRuntime(settings, (event) => sink.handle(event));
  return goOnWithStep(rt, sink, settings, parsed, target.step, prompt);
}

/**
 * `flower continue <run>`: the workflow goes on at the step where it stopped (a pause for a person, a
 * crash, a stop).
 */
async function goOnWithRun(
  rt: Runtime,
  sink: ReturnType<typeof eventSink>,
  settings: LiveSettings,
  parsed: ParsedCommand,
  run: string,
): Promise<number> {
  const outcome = await runWorkflowLive({
    ...supervised(rt, sink, settings, run),
    action: () =>
      // The run's reviewer as it was started; --review turns it on (an override line when it was off).
      continueWorkflow(
        rt,
        defaultWorkflow({ review: settings.review || rt.settingsOf(run)?.review === true }),
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

/**
 * A budget (given now, else recorded) the run has already spent: one line, nothing started. The run's
 * figure is its steps' records, the same sum the step loop weighs against the budget.
 */
function refuseSpentBudget(records: readonly StepRecord[], run: string, settings: LiveSettings): void {
  const line = budgetBelowSpent(
    records,
    run,
    settings.given.budgetUsd,
    continueCommand(run, settings),
    settings.locale,
  );
  if (line !== null) throw new UsageError(line);
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
    ...supervised(rt, sink, settings, step),
    action: () =>
      rt.continue(step, defaultTeam(settings.locale), {
        wait: parsed.values.wait === true,
        ...(prompt ? { prompt } : {}),
        ...reviewGoal(settings),
      }),
  });
  return outcome.code;
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
  const rt = await makeRuntime(settings, (event) => sink.handle(event));
  const where = rt.records.location;
  const name = parsed.positionals[0] ?? rt.records.list().at(-1)?.step;
  // The records came from the store just now: the step's language is known only from here on.
  if (name !== undefined) {
    const before = settings.output;
    adoptRecorded(settings, rt.settingsOf(name));
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
    refuseSpentBudget(rt.records.list(), run ?? name, settings);
    requireCredentials(settings);
  } catch (error) {
    rt.close();
    throw error;
  }
  if (run !== undefined) return goOnWithRun(rt, sink, settings, parsed, run);
  return goOnWithStep(rt, sink, settings, parsed, name, prompt);
}
