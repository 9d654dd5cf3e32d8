/**
 * `flower demo`: the default workflow offline, the real binary against the offline model kit (testing/).
 * Options: command-line/command-options.ts `demo`; the run shown as a real one: live/live-run.ts,
 * live/workflow-live.ts; words: cli-text.ts, command-line/usage-text.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { coordinator } from "../../agents/coordinator.js";
import { DEFAULTS } from "../../defaults.js";
import { EXIT, UsageError } from "../../errors.js";
import { resolveLocale } from "../../locale/locale.js";
import type { FlowerEvent } from "../../runtime/events.js";
import { Runtime } from "../../runtime/runtime.js";
import { startFakeModel } from "../../testing/fake-model.js";
import {
  DEMO_CONTEXT_WINDOW,
  DEMO_RUN,
  demoHandoffPolicy,
  demoPolicy,
  demoTask,
  editDemoRequirements,
  prepareDemoWorkspace,
} from "../../testing/scenarios/demo/index.js";
import { defaultWorkflow } from "../../workflow/default-workflow.js";
import { continueWorkflow, runWorkflow } from "../../workflow/run-workflow.js";
import { parseLang, parseNonEmpty, type ParsedCommand } from "../command-line/args.js";
import { defaultTeam } from "../../agents/default-team.js";
import { eventSink, makeOutput } from "../live/live-run.js";
import { CLI_TEXT } from "../cli-text.js";
import { USAGE_TEXT } from "../command-line/usage-text.js";
import { invocation, shellQuote } from "../../locale/invocation.js";
import { runWorkflowLive } from "../live/workflow-live.js";

/**
 * `flower demo`: the whole thing, offline. The offline model kit runs in this process, the real
 * Claude Code binary talks to it, and the run is shown with the same display as a real one. This is
 * the "does it work on this machine" command: no key, no cost, 10 to 30 seconds on a quiet machine (a
 * minute or more on a busy one: it says how long it took).
 *
 * It runs the default workflow: requirements, the pause (where the demo plays the person and changes
 * one line of the frozen file), then goal and work in a new runtime, as `flower continue` would.
 */
export async function demoCommand(parsed: ParsedCommand): Promise<number> {
  const locale = resolveLocale(parseLang(parsed.values.lang));
  if (parsed.positionals.length > 0)
    throw new UsageError(USAGE_TEXT[locale].unexpected("demo", parsed.positionals[0]!));
  const output = makeOutput(parsed.values.json === true, locale);
  const text = CLI_TEXT[locale];
  const given = parseNonEmpty("--workspace", parsed.values.workspace);
  let workspace: string;
  if (given) {
    workspace = resolve(given);
    if (existsSync(workspace) && (!statSync(workspace).isDirectory() || readdirSync(workspace).length > 0)) {
      throw new UsageError(text.demo.notEmpty(workspace));
    }
    mkdirSync(workspace, { recursive: true });
  } else {
    workspace = mkdtempSync(join(tmpdir(), "flower-demo-"));
  }
  // A workspace the user named is never removed.
  const keep = parsed.values.keep === true || given !== undefined;
  const runDir = join(workspace, DEFAULTS.runDir);
  const started = Date.now();
  // Tool calls are shown so the glance and the subagents' commands are visible; the coordinator's many
  // note reads only with --verbose (they are what grows the context, which the gauge already shows).
  const verbose = parsed.values.verbose === true;
  const display = eventSink(output, true);
  const sink = {
    handle: (event: FlowerEvent) => {
      if (!verbose && event.type === "tool-use" && event.tool === "Read") return;
      display.handle(event);
    },
    close: () => display.close(),
  };
  let model: Awaited<ReturnType<typeof startFakeModel>> | undefined;
  try {
    output.say(text.demo.title);
    const git = prepareDemoWorkspace(workspace);
    if (!git) output.say(text.demo.noGit);
    output.say(text.workspace(workspace));
    output.say("");
    model = await startFakeModel({
      policy: demoPolicy({ workspace, locale, git }),
      contextWindow: DEMO_CONTEXT_WINDOW,
    });
    const env = model.env();
    // A runtime per phase, as `flower "<task>"` and `flower continue` each build their own: what
    // crosses the pause is the run directory and the frozen file, nothing held in memory.
    const runtime = () =>
      new Runtime({
        workspace,
        runDir,
        workbench: true,
        handoff: demoHandoffPolicy(),
        locale,
        env,
        onEvent: (event) => sink.handle(event),
      });
    const workflow = defaultWorkflow({
      work: (language) => {
        const team = defaultTeam(language);
        return coordinator("lead", team.instructions, team.subagents ?? {});
      },
    });
    const live = {
      output,
      sink,
      step: DEMO_RUN,
      // A stopped demo cannot be continued by `flower continue` (its model lives in this process).
      continueCommand: "",
      goOnCommand: text.demo.goesOnItself(`${invocation()} continue <run>`),
      printAnswer: false,
    };
    const first = runtime();
    const paused = await runWorkflowLive({
      ...live,
      rt: first,
      action: () => runWorkflow(first, workflow, demoTask(locale), { run: DEMO_RUN }),
    });
    const document = paused.workflow?.paused?.document;
    if (paused.code !== EXIT.ok || !document) return paused.code || EXIT.failed;
    // The person at the pause, played by the demo: one line of the frozen file changes on disk.
    const edit = editDemoRequirements(document.path, locale);
    output.say("");
    output.say(text.demo.editing(document.path, edit.line));
    output.say(text.demo.was(edit.before));
    output.say(text.demo.now(edit.after));
    output.say(text.demo.goingOn(`${invocation()} continue ${DEMO_RUN}`));
    output.say("");
    const second = runtime();
    const outcome = await runWorkflowLive({
      ...live,
      rt: second,
      action: () => continueWorkflow(second, workflow, DEMO_RUN),
    });
    model.assertNoErrors();
    const result = outcome.result;
    output.say("");
    if (result) {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      output.say(text.demo.summary(result.retired.length, result.generations, seconds));
      for (const path of result.handoffs) output.say(`  ${path}`);
    }
    if (keep) {
      // Each line runs as printed: the run directory is named, since it is not the person's here.
      const at = `--run-dir ${shellQuote(runDir)}`;
      output.say(text.demo.workspaceKept(workspace));
      for (const line of text.demo.inspect([
        `${invocation()} show ${DEMO_RUN} ${at}`,
        `${invocation()} report ${DEMO_RUN} ${at}`,
        `${invocation()} runs ${at}`,
      ]))
        output.say(line);
    }
    return outcome.code === EXIT.ok &&
      outcome.workflow?.status === "done" &&
      result !== null &&
      result.retired.length >= 2
      ? EXIT.ok
      : outcome.code || EXIT.failed;
  } finally {
    await model?.close();
    if (!keep) {
      rmSync(workspace, { recursive: true, force: true });
      output.say(text.demo.workspaceRemoved(workspace));
      // `flower runs` here would say "No steps yet": the demo ran elsewhere, and that is gone.
      output.say(text.demo.lookAgain(`${invocation()} demo --keep`));
    }
  }
}
