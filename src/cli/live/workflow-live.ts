/**
 * The default run in the live view (docs/workflows.md): requirements → goal → work, each an ordinary step of
 * the run record. The run pauses after the requirements (unless --yes) and the command exits 0 with the
 * file, its open questions and the exact `flower continue` line; a person may change a line of the file
 * first, and the next step reads the file as it is then.
 */
import { EXIT } from "../../errors.js";
import type { Locale } from "../../locale/locale.js";
import type { StepResult } from "../../records/step-record.js";
import type { WorkflowResult } from "../../workflow/run-workflow.js";
import { sectionItems } from "../record-views/document-summary.js";
import { DISPLAY_TEXT } from "./display-text.js";
import { supervise, type LiveOutcome, type Supervised } from "./live-run.js";
import { budgetReachedLine } from "../record-views/budget-lines.js";
import { budgetNotice, driftNotice, goalNotMetWhy, goOnLine, stepOfRun, type Notice } from "./live-notice.js";
import { NOTIFY_TEXT } from "../../notify/index.js";
import type { Runtime } from "../../runtime/runtime.js";
import { oneLine } from "./terminal-text.js";
import { CLI_TEXT } from "../cli-text.js";
import { showCommandFor, verdictLines } from "./verdict-lines.js";

export interface WorkflowLive extends Supervised {
  /** Runs or continues the workflow. */
  action: () => Promise<WorkflowResult>;
  /** Print the work step's final answer (not for the demo, which prints its own summary). */
  printAnswer?: boolean;
  /** The "go on with" line of the pause. @default continueCommand */
  goOnCommand?: string;
}

export interface WorkflowOutcome extends LiveOutcome {
  workflow: WorkflowResult | null;
}

/** Runs the workflow with Ctrl-C wired to rt.stop(); closes the runtime; prints the pause or the answer. */
export async function runWorkflowLive(live: WorkflowLive): Promise<WorkflowOutcome> {
  const { rt, output } = live;
  const text = CLI_TEXT[output.locale];
  return supervise(live, live.action, (workflow, stopCode, tell): WorkflowOutcome => {
    const last = workflow.steps.at(-1);
    const result: StepResult | null = last?.result ?? null;
    const lastStatus = last ? (rt.records.get(last.step)?.status ?? "done") : "done";
    tell(workflowNotice(rt, live, workflow, lastStatus, stopCode));
    if (output.json) process.stdout.write(`${JSON.stringify({ type: "result", ...workflow })}\n`);
    // A work step that ended goal-not-met ends the run, but it is a verdict, not a stop to continue from.
    const lastRecord = last ? rt.records.get(last.step) : undefined;
    // The drift watch's pause is a pause, not a stop: the person was asked to look (exit 0).
    if (
      workflow.status === "stopped" &&
      stopCode === null &&
      lastRecord?.drift &&
      lastRecord.pendingHandoff !== null
    ) {
      output.say(text.driftPaused(live.continueCommand));
      return { code: EXIT.ok, status: "stopped", result, workflow };
    }
    // The budget's stop: the work is not done (exit 1, as goal-not-met); a higher budget goes on.
    if (lastStatus === "budget-reached") {
      output.say(
        budgetReachedLine(lastRecord, live.continueCommand, output.locale) ??
          text.stopped(live.continueCommand),
      );
      return { code: EXIT.failed, status: "budget-reached", result, workflow };
    }
    if (workflow.status === "stopped" && lastStatus !== "goal-not-met") {
      output.say(text.stopped(live.continueCommand));
      return { code: stopCode ?? EXIT.interrupted, status: "stopped", result, workflow };
    }
    // The reply in flight ended the run's last step before the stop took effect: nothing to continue.
    if (stopCode !== null && workflow.status !== "paused" && lastStatus === "done")
      output.say(text.finishedBeforeStop);
    if (workflow.status === "paused") {
      // Human lines: on stderr with --json, so a pipe still learns where the file is and how to go on.
      for (const line of pauseLines(workflow, live.goOnCommand ?? live.continueCommand, output.locale))
        output.say(line);
      return { code: EXIT.ok, status: "done", result, workflow };
    }
    if (!output.json) {
      for (const degraded of workflow.degraded)
        output.say(text.degradedDocument(degraded.kind, degraded.path, oneLine(degraded.why)));
      for (const filled of workflow.filledIn)
        output.say(text.filledInDocument(filled.kind, filled.path, oneLine(filled.why)));
      if (live.printAnswer !== false && result?.result) {
        output.say("");
        output.say(text.answer);
        output.say(result.result.trimEnd());
      }
      // The verdict after the agent's answer, never before it: the claim must not be the last word.
      if (lastStatus === "goal-not-met" && last) {
        output.say("");
        const show = showCommandFor(live.continueCommand, last.step);
        for (const line of verdictLines(rt.records.get(last.step), last.step, show, output.locale))
          output.say(line);
        if (live.continueCommand) output.say(text.tryAgain(live.continueCommand));
      }
    }
    return { code: lastStatus === "done" ? EXIT.ok : EXIT.failed, status: lastStatus, result, workflow };
  });
}

/** The notice of a workflow run that paused for a person (after a step, or by the drift watch) or ended (none for a stop). */
function workflowNotice(
  rt: Runtime,
  live: WorkflowLive,
  workflow: WorkflowResult,
  lastStatus: string,
  stopCode: number | null,
): Notice | null {
  const locale = live.output.locale;
  const words = NOTIFY_TEXT[locale].why;
  const last = workflow.steps.at(-1);
  const goOn = goOnLine(live.continueCommand);
  if (last && workflow.status === "stopped") {
    const drift = driftNotice(rt.records.get(last.step), last.name, stopCode, live.continueCommand, locale);
    if (drift) return drift;
  }
  if (workflow.status === "paused" && workflow.paused) {
    const paused = workflow.paused;
    return {
      event: "paused",
      step: paused.after,
      status: "paused",
      why: words.paused(
        DISPLAY_TEXT[locale].stepNames[paused.after] ?? paused.after,
        paused.document?.path ?? null,
        sectionItems(paused.openQuestions).length,
      ),
      continue: goOnLine(live.goOnCommand ?? live.continueCommand),
    };
  }
  const step = last?.name ?? stepOfRun(live.step, undefined);
  const budget = budgetNotice(last ? rt.records.get(last.step) : undefined, step, goOn ?? "", locale);
  if (budget) return budget;
  if (lastStatus === "goal-not-met")
    return {
      event: "goal-not-met",
      step,
      status: "goal-not-met",
      why: goalNotMetWhy(last ? rt.records.get(last.step) : undefined, locale),
      continue: goOn,
    };
  if (workflow.status === "stopped") return null;
  if (lastStatus === "done") return { event: "done", step, status: "done", why: words.done, continue: null };
  if (lastStatus === "failed")
    return {
      event: "failed",
      step,
      status: "failed",
      why: last?.result.errors.at(-1)?.split("\n")[0] ?? words.failed,
      continue: goOn,
    };
  return null;
}

/** The pause after the requirements: which step, the file to read, its open questions, and how to go on. */
export function pauseLines(workflow: WorkflowResult, continueCommand: string, locale: Locale): string[] {
  const paused = workflow.paused;
  if (!paused) return [];
  const text = CLI_TEXT[locale];
  const t = text.pause;
  const stepName = DISPLAY_TEXT[locale].stepNames[paused.after] ?? paused.after;
  const questions = sectionItems(paused.openQuestions);
  const lines = ["", t.title(stepName)];
  if (paused.document) lines.push(`  ${t.file}  ${paused.document.path}`);
  lines.push(`  ${t.openQuestions}${questions.length === 0 ? `  ${t.noOpenQuestions}` : ""}`);
  for (const question of questions) lines.push(`    - ${oneLine(question)}`);
  lines.push(t.goOn(continueCommand), t.straightThrough());
  return lines;
}
