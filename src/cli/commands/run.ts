/**
 * `flower "<task>"`: a workflow run (requirements → goal → work), or with --direct the work step alone.
 * Options: command-line/command-options.ts `run`, parsed by command-line/args.ts; settings, credentials and
 * runtime: live/live-settings.ts; supervision: live/live-run.ts, live/workflow-live.ts; words: cli-text.ts,
 * command-line/usage-text.ts, work-commands/work-text.ts.
 */
import { createInterface } from "node:readline/promises";
import { EXIT, UsageError } from "../../errors.js";
import { type Locale } from "../../locale/locale.js";
import { effectiveStatus, RunDirectory } from "../../storage/run-directory.js";
import type { Runtime } from "../../runtime/runtime.js";
import { parseNonEmpty, type ParsedCommand } from "../command-line/args.js";
import { commandLike } from "../command-line/command-like.js";
import { defaultTeam } from "../../agents/default-team.js";
import { eventSink, runLive } from "../live/live-run.js";
import { CLI_TEXT } from "../cli-text.js";
import { USAGE_TEXT } from "../command-line/usage-text.js";
import { runStatus } from "../record-views/run-status.js";
import { runWorkflowLive } from "../live/workflow-live.js";
import { runWorkflow } from "../../workflow/run-workflow.js";
import { defaultWorkflow } from "../../workflow/default-workflow.js";
import { stepNameFor } from "../../workflow/run-name.js";
import {
  continueCommand,
  supervised,
  liveSettings,
  makeRuntime,
  requireCredentials,
  reviewGoal,
  type LiveSettings,
} from "../live/live-settings.js";
import { displayPath } from "../live/live-run.js";
import { WORK_TEXT } from "../work-commands/work-text.js";

export { stepNameFor };

/**
 * `flower "<task>"`: a workflow run (requirements → goal → work), or with --direct the work step alone,
 * a coordinator with a default team, the workspace as its cwd, workbench on, handoff on unless
 * --no-handoff.
 */
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
          unfinished.file,
        ),
      );
      return EXIT.ok;
    }
    if (process.stdin.isTTY && process.stdout.isTTY) {
      // Credentials before the question: typing a task only to learn there is no key wastes it.
      requireCredentials(settings);
      credentialsChecked = true;
      settings.output.say(
        CLI_TEXT[settings.locale].askTaskIntro(
          displayPath(settings.workspace),
          parsed.values.direct === true ? "direct" : parsed.values.yes === true ? "straight" : "workflow",
        ),
      );
      given = await askForTask(settings.locale);
    }
    if (given === undefined || given.trim() === "") throw new UsageError(usage.noTask);
    // A command typed at the prompt is a typo there too (`runs`, `lsit`): nothing is started.
    const typed = commandLike(given);
    if (typed !== undefined) throw new UsageError(usage.commandLike(given.trim(), typed));
  }
  const task = given.trim();
  if (task === "") throw new UsageError(usage.emptyTask);
  const explicitStep = parseNonEmpty("--step", parsed.values.step, settings.locale);
  if (!credentialsChecked) requireCredentials(settings);
  const sink = eventSink(settings.output, settings.verbose);
  // With --store, the store is reached before anything is written here (live-settings.ts).
  let rt = await makeRuntime(settings, (event) => sink.handle(event));
  const direct = parsed.values.direct === true;
  const name =
    explicitStep ??
    (direct
      ? stepNameFor(task, (taken) => rt.records.get(taken) !== undefined)
      : stepNameFor(task, (taken) => isTaken(rt, taken)));
  if (parsed.values.worktree === true) rt = await inWorktree(rt, settings, name, sink);
  if (!direct) {
    // The default run: requirements → goal → work. --step names the run (its steps are <run>/<name>).
    const run = name;
    return (
      await runWorkflowLive({
        ...supervised(rt, sink, settings, run),
        action: () =>
          runWorkflow(rt, defaultWorkflow({ review: settings.review }), task, {
            run,
            wait: parsed.values.wait === true,
            ...(parsed.values.yes === true ? { pauseAfter: false } : {}),
          }),
      })
    ).code;
  }
  // --direct: the work step alone, exactly as `flower "<task>"` ran before the workflow.
  const step = name;
  const spec = defaultTeam(settings.locale);
  const outcome = await runLive({
    ...supervised(rt, sink, settings, step),
    action: () => rt.run(step, spec, task, { wait: parsed.values.wait === true, ...reviewGoal(settings) }),
  });
  return outcome.code;
}

/**
 * `--worktree`: the run gets a git worktree of its own (runs/worktrees/<run>, at HEAD with the checkout's
 * uncommitted changes) and a runtime that works there; the first runtime (which named the run) closes.
 */
async function inWorktree(
  rt: Runtime,
  settings: LiveSettings,
  run: string,
  sink: ReturnType<typeof eventSink>,
): Promise<Runtime> {
  const { openRunWorkspace } = await import("../../checkpoints/run-workspace.js");
  const text = WORK_TEXT[settings.locale];
  let space;
  try {
    space = await openRunWorkspace({
      checkout: settings.workspace,
      runDir: settings.runDir,
      run,
      uncommitted: true,
      onSetup: (line) => settings.output.say(`  setup: ${line}`),
    });
  } finally {
    rt.close();
  }
  settings.worktree = space.path;
  settings.output.say(
    space.created
      ? text.worktree(displayPath(space.path), space.commit)
      : text.worktreeAgain(displayPath(space.path)),
  );
  return makeRuntime(settings, (event) => sink.handle(event));
}

/** Whether a name is already used in the run directory, as a step or as a run. */
function isTaken(rt: Runtime, name: string): boolean {
  return rt.records.list().some((record) => record.step === name || record.run === name);
}

/**
 * The last step of the run directory when it did not finish (stopped, interrupted, failed), or the
 * last run when it is paused for a person (with the document it waits on); named as `flower continue`
 * takes it (a run by its id).
 */
function unfinishedStep(
  runDir: string,
):
  | { step: string; status: "stopped" | "interrupted" | "failed" | "goal-not-met" | "paused"; file?: string }
  | undefined {
  const runDirectory = new RunDirectory(runDir);
  const last = runDirectory.lastStep();
  if (!last) return undefined;
  const status = effectiveStatus(last);
  const name = last.run ?? last.step;
  if (status === "stopped" || status === "interrupted" || status === "failed" || status === "goal-not-met")
    return { step: name, status };
  // The drift watch's pause: the handoff the successor will start from is what to read first.
  if (status === "paused")
    return { step: name, status, ...(last.pendingHandoff ? { file: last.pendingHandoff } : {}) };
  if (last.run !== undefined && runStatus(runDirectory.steps().filter((r) => r.run === last.run)).paused)
    return { step: name, status: "paused", ...(last.frozen ? { file: last.frozen.path } : {}) };
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
