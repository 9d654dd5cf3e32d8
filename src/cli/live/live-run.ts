/**
 * What `flower "<task>"`, `flower continue` and `flower demo` share: the live view (Display, or one
 * JSON object per line), Ctrl-C, and how a finished, stopped or failed step ends the process.
 *
 * Ctrl-C is `rt.stop()`: the step stops at the next message boundary, so the transcript is not torn
 * and `flower continue` can resume it. A second Ctrl-C quits at once for someone who cannot wait.
 *
 * SIGTERM (`docker stop`, systemd, `timeout`, `kill`) is the same stop request: the step stops at the
 * next message boundary, is recorded, the continue line is printed, and the exit code is 143 (130 for
 * Ctrl-C). Whoever sends SIGTERM sends SIGKILL later (docker after 10 s, systemd after 90 s, `timeout -k`
 * when told), so SIGTERM also starts a grace period, TERM_GRACE_MS: if the boundary has not come by then
 * (a long writing turn, a hung child), flower quits at once as on a second signal, before the SIGKILL
 * would: the continue line is still printed, and the record, written as the step went, stays
 * continuable (`flower continue` takes over a lease whose driver is gone).
 */
import { relative } from "node:path";
import { EXIT } from "../../errors.js";
import type { Locale } from "../../locale/locale.js";
import type { NotifyTarget } from "../../notify/index.js";
import type { FlowerEvent } from "../../runtime/events.js";
import type { Runtime } from "../../runtime/runtime.js";
import type { StepResult, StepStatus } from "../../records/step-record.js";
import { Display } from "./display.js";
import { budgetReachedLine } from "../record-views/budget-lines.js";
import {
  budgetNotice,
  driftNotice,
  failedNotice,
  goalNotMetWhy,
  goOnLine,
  notifyAfterRun,
  type Notice,
} from "./live-notice.js";
import { CLI_TEXT } from "../cli-text.js";
import { NOTIFY_TEXT } from "../../notify/index.js";
import { showCommandFor, verdictLines } from "./verdict-lines.js";

/** How long SIGTERM waits for the message boundary: under docker's 10 s before its SIGKILL. */
export const TERM_GRACE_MS = 8_000;

/** The exit code of a run stopped by this signal: 128 + its number, as a shell reports it. */
const STOP_CODE = { SIGINT: EXIT.interrupted, SIGTERM: EXIT.terminated } as const;

type StopSignal = keyof typeof STOP_CODE;

export interface Output {
  /** Human lines: stdout normally, stderr with --json (stdout then carries only JSON). */
  say: (line: string) => void;
  json: boolean;
  locale: Locale;
  tty: boolean;
}

export function makeOutput(json: boolean, locale: Locale): Output {
  const stream = json ? process.stderr : process.stdout;
  return {
    say: (line) => stream.write(`${line}\n`),
    json,
    locale,
    tty: !json && process.stdout.isTTY === true,
  };
}

/** The event sink of a run: the live display, or JSON lines. */
export function eventSink(
  output: Output,
  verbose: boolean,
): { handle(event: FlowerEvent): void; close(): void } {
  if (output.json) {
    return {
      handle: (event) => process.stdout.write(`${JSON.stringify(event)}\n`),
      close: () => undefined,
    };
  }
  return new Display({ out: process.stdout, tty: output.tty, locale: output.locale, verbose });
}

export interface LiveRun {
  rt: Runtime;
  output: Output;
  sink: { close(): void };
  step: string;
  /** How to pick the step up again, for the stop hint, e.g. `flower continue fix --run-dir x`; "" for none. */
  continueCommand: string;
  action: () => Promise<StepResult>;
  /** Print the final answer after the run (not for the demo, which prints its own summary). */
  printAnswer?: boolean;
  /** `--notify`: told when the run ends (done, goal not met, failed) or pauses for a person. */
  notify?: NotifyTarget | undefined;
}

export interface LiveOutcome {
  code: number;
  status: StepStatus | "error";
  result: StepResult | null;
}

/** Runs the step with Ctrl-C wired to rt.stop(); closes the runtime. Errors are rethrown after clean-up. */
export async function runLive(live: LiveRun): Promise<LiveOutcome> {
  const { rt, output } = live;
  const text = CLI_TEXT[output.locale];
  return supervise(live, live.action, (result, stopCode, tell) => {
    const status = rt.records.get(live.step)?.status ?? "done";
    tell(endNotice(rt, live, status, result, stopCode));
    if (output.json) process.stdout.write(`${JSON.stringify({ type: "result", ...result, status })}\n`);
    const record = rt.records.get(live.step);
    // The drift watch's pause is a pause, not a stop: the person was asked to look (exit 0, as the
    // workflow's pause after its requirements).
    if (status === "stopped" && stopCode === null && record?.drift && record.pendingHandoff !== null) {
      output.say(text.driftPaused(live.continueCommand));
      return { code: EXIT.ok, status: "stopped", result };
    }
    if (status === "stopped") {
      output.say(text.stopped(live.continueCommand));
      return { code: stopCode ?? EXIT.interrupted, status: "stopped", result };
    }
    // The budget's stop: the work is not done (exit 1, as goal-not-met); a higher budget goes on.
    if (status === "budget-reached") {
      output.say(
        budgetReachedLine(record, live.continueCommand, output.locale) ?? text.stopped(live.continueCommand),
      );
      return { code: EXIT.failed, status, result };
    }
    // The stop waits for the reply in flight; when that reply was the step's last, the step is over
    // and saying "stopped, continue with …" would send the person to continue finished work.
    if (stopCode !== null && status === "done") output.say(text.finishedBeforeStop);
    if (live.printAnswer !== false && !output.json && result.result) {
      output.say("");
      output.say(text.answer);
      output.say(result.result.trimEnd());
    }
    // The agent's answer may say "done"; the guard's verdict is what counts, so it comes last.
    if (status === "goal-not-met") {
      output.say("");
      const show = showCommandFor(live.continueCommand, live.step);
      for (const line of verdictLines(rt.records.get(live.step), live.step, show, output.locale))
        output.say(line);
    }
    return { code: status === "done" ? EXIT.ok : EXIT.failed, status, result };
  });
}

/** The notice of a step run on its own that ended with `status`, or that the drift watch paused (none for a stop). */
function endNotice(
  rt: Runtime,
  live: LiveRun,
  status: StepStatus,
  result: StepResult,
  stopCode: number | null,
): Notice | null {
  const drift = driftNotice(
    rt.records.get(live.step),
    "work",
    stopCode,
    live.continueCommand,
    live.output.locale,
  );
  if (drift) return drift;
  const budget = budgetNotice(rt.records.get(live.step), "work", live.continueCommand, live.output.locale);
  if (budget) return budget;
  const words = NOTIFY_TEXT[live.output.locale].why;
  const common = { step: "work", status, continue: goOnLine(live.continueCommand) };
  if (status === "done") return { ...common, event: "done", why: words.done, continue: null };
  if (status === "goal-not-met")
    return {
      ...common,
      event: "goal-not-met",
      why: goalNotMetWhy(rt.records.get(live.step), live.output.locale),
    };
  if (status === "failed")
    return { ...common, event: "failed", why: result.errors.at(-1)?.split("\n")[0] ?? words.failed };
  return null;
}

/** What every live command shares: who to stop, where to report, how to be picked up again, whom to tell. */
export type Supervised = Pick<LiveRun, "rt" | "output" | "sink" | "step" | "continueCommand" | "notify">;

/**
 * Runs `action` with Ctrl-C and SIGTERM wired to rt.stop() (a second signal, or SIGTERM's grace period,
 * quits at once), then lets `end` decide the outcome (it is told the exit code of the stop signal that
 * came, null for none, and may `tell` the notifier a notice); closes the sink and the runtime whatever
 * happens. Errors are rethrown after clean-up. The notice (an error's: `failed`) goes to `--notify`
 * last, once everything is printed and the runtime closed.
 */
export async function supervise<T, O>(
  live: Supervised,
  action: () => Promise<T>,
  end: (value: T, stopCode: number | null, tell: (notice: Notice | null) => void) => O,
): Promise<O> {
  const told: { notice: Notice | null } = { notice: null };
  try {
    return await superviseRun(live, action, (value, stopCode) =>
      end(value, stopCode, (notice) => (told.notice = notice)),
    );
  } catch (error) {
    if (live.notify)
      told.notice = failedNotice(error, live.rt, live.step, live.continueCommand, live.output.locale);
    throw error;
  } finally {
    if (live.notify && told.notice)
      await notifyAfterRun(live.notify, live.step, told.notice, live.output.locale);
  }
}

async function superviseRun<T, O>(
  live: Supervised,
  action: () => Promise<T>,
  end: (value: T, stopCode: number | null) => O,
): Promise<O> {
  const { rt, output, sink } = live;
  const text = CLI_TEXT[output.locale];
  /** The first stop signal decides the exit code, whatever comes after it. */
  let stoppedBy: StopSignal | null = null;
  let grace: NodeJS.Timeout | undefined;
  const quit = () => {
    sink.close();
    process.stderr.write(`${text.stopped(live.continueCommand)}\n`);
    process.exit(STOP_CODE[stoppedBy ?? "SIGINT"]);
  };
  const onSignal = (signal: StopSignal) => {
    if (stoppedBy !== null) return quit();
    stoppedBy = signal;
    rt.stop();
    if (output.tty) process.stdout.write("\n");
    process.stderr.write(`${signal === "SIGINT" ? text.stopping : text.terminating(TERM_GRACE_MS / 1000)}\n`);
    if (signal === "SIGTERM") grace = setTimeout(quit, TERM_GRACE_MS);
  };
  const onSigint = () => onSignal("SIGINT");
  const onSigterm = () => onSignal("SIGTERM");
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onSigterm);
  try {
    const value = await action();
    sink.close();
    return end(value, stoppedBy === null ? null : STOP_CODE[stoppedBy]);
  } catch (error) {
    sink.close();
    if (output.json) {
      const message = error instanceof Error ? error.message : String(error);
      process.stdout.write(
        `${JSON.stringify({ type: "result", status: "failed", step: live.step, error: message })}\n`,
      );
    }
    if ((error as { code?: string }).code === "step-failed")
      process.stderr.write(`${text.failed(live.continueCommand)}\n`);
    throw error;
  } finally {
    clearTimeout(grace);
    process.off("SIGINT", onSigint);
    process.off("SIGTERM", onSigterm);
    rt.close();
  }
}

/** A path as the user should type it: relative to the current directory when inside it. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") ? rel : path;
}
