/**
 * `flower demo`: the whole thing, offline. The offline model kit runs in this process, the real
 * Claude Code binary talks to it, and the run is shown with the same display as a real one. This is
 * the "does it work on this machine" command: no key, no cost, well under a minute.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { coordinator } from "../../agents/coordinator.js";
import { EXIT, UsageError } from "../../errors.js";
import { resolveLocale } from "../../locale/locale.js";
import type { FlowerEvent } from "../../runtime/events.js";
import { Runtime } from "../../runtime/runtime.js";
import { startFakeModel } from "../../testing/fake-model.js";
import {
  DEMO_CONTEXT_WINDOW,
  DEMO_STEP,
  demoHandoffPolicy,
  demoPolicy,
  demoTask,
  prepareDemoWorkspace,
} from "../../testing/scenarios/demo/index.js";
import { parseLang, parseNonEmpty, type ParsedCommand } from "../args.js";
import { defaultTeam } from "../default-team.js";
import { eventSink, makeOutput, runLive, shellQuote } from "../live-run.js";
import { CLI_TEXT } from "../text.js";

export async function demoCommand(parsed: ParsedCommand): Promise<number> {
  if (parsed.positionals.length > 0)
    throw new UsageError(
      `flower demo: unexpected argument "${parsed.positionals[0]}" (see flower demo --help)`,
    );
  const locale = resolveLocale(parseLang(parsed.values.lang));
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
  const runDir = join(workspace, "runs");
  const started = Date.now();
  // Tool calls are shown so the glance and the workers' commands are visible; the coordinator's many
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
    const rt = new Runtime({
      workspace,
      runDir,
      workbench: true,
      handoff: demoHandoffPolicy(),
      locale,
      env: model.env(),
      onEvent: (event) => sink.handle(event),
    });
    const team = defaultTeam(locale);
    const spec = coordinator("lead", team.instructions, team.subagents ?? {});
    const outcome = await runLive({
      rt,
      output,
      sink,
      step: DEMO_STEP,
      // A stopped demo cannot be continued by `flower continue` (its model lives in this process).
      continueCommand: "",
      action: () => rt.run(DEMO_STEP, spec, demoTask(locale)),
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
      output.say(text.demo.workspaceKept(workspace));
      output.say(text.demo.inspect(`flower show ${DEMO_STEP} --run-dir ${shellQuote(runDir)}`));
    }
    return outcome.code === EXIT.ok && result !== null && result.retired.length >= 2
      ? EXIT.ok
      : outcome.code || EXIT.failed;
  } finally {
    await model?.close();
    if (!keep) {
      rmSync(workspace, { recursive: true, force: true });
      output.say(text.demo.workspaceRemoved(workspace));
    }
  }
}
