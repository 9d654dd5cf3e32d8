/**
 * `flower worker --store URL`: a fleet worker in the foreground (fleet/worker.ts), a line per action.
 * Options: command-line/command-options.ts `worker`, parsed by command-line/args.ts; settings and
 * credentials: live/live-settings.ts; store: command-line/fleet-store-option.ts; the lines it prints:
 * fleet-commands/fleet-command-lines.ts, fleet-commands/fleet-text.ts.
 */
import { hostname } from "node:os";
import { EXIT, UsageError } from "../../errors.js";
import type { FleetEvent } from "../../fleet/fleet-events.js";
import { formatUsd } from "../../records/run-spend.js";
import { parseBudget, type ParsedCommand } from "../command-line/args.js";
import { FLEET_TEXT } from "../fleet-commands/fleet-text.js";
import { displayPath, TERM_GRACE_MS } from "../live/live-run.js";
import { liveSettings, requireCredentials } from "../live/live-settings.js";
import { approveCommandLine, continueCommandLine } from "../fleet-commands/fleet-command-lines.js";
import { fleetStore } from "../command-line/fleet-store-option.js";
import { USAGE_TEXT } from "../command-line/usage-text.js";

/**
 * `flower worker --store postgres://… [--concurrency N]`: a fleet worker in the foreground, one line per
 * thing it does with a run. It drives each run as `flower "<task>"` / `flower continue` would (the
 * library's Worker, src/fleet/worker.ts), in --workspace with --run-dir, --model and --max-budget-usd.
 *
 * Ctrl-C or SIGTERM: every run stops at its next message boundary and goes back to the queue, then the
 * worker exits 0 (a stopped worker is its normal end). A second signal, or SIGTERM's grace period
 * (TERM_GRACE_MS, as for `flower "<task>"`), quits at once: the runs stay with this dead worker until
 * another worker takes them back (at once on this machine, after the lease's staleness elsewhere).
 */
export async function workerCommand(parsed: ParsedCommand): Promise<number> {
  const settings = liveSettings(parsed.values);
  const locale = settings.locale;
  const text = FLEET_TEXT[locale];
  if (parsed.positionals.length > 0)
    throw new UsageError(USAGE_TEXT[locale].unexpected("worker", parsed.positionals[0]!));
  const concurrency = parseConcurrency(parsed.values.concurrency, locale);
  const budgetPerRun = parseBudget(parsed.values["budget-per-run"], locale, "--budget-per-run");
  const budgetPerDay = parseBudget(parsed.values["budget-per-day"], locale, "--budget-per-day");
  const store = fleetStore("worker", parsed.values, locale);
  requireCredentials(settings);
  const { Worker } = await import("../../fleet/worker.js");
  const worker = new Worker({
    store: store.spec,
    concurrency,
    runtime: {
      workspace: settings.workspace,
      runDir: settings.runDir,
      workbench: true,
      ...(settings.given.locale !== undefined ? { locale } : {}),
      ...(settings.given.model ? { model: settings.given.model } : {}),
      ...(settings.given.maxBudgetUsd !== undefined ? { maxBudgetUsd: settings.given.maxBudgetUsd } : {}),
    },
    ...(budgetPerRun !== undefined ? { budgetPerRun } : {}),
    ...(budgetPerDay !== undefined ? { budgetPerDay } : {}),
    // --notify: told of every run; the lines it carries are the ones this worker prints.
    ...(typeof parsed.values.notify === "string" ? { notify: parsed.values.notify } : {}),
    commandFor: (action, run) =>
      action === "approve" ? approveCommandLine(run, store, locale) : continueCommandLine(run, store, locale),
  });
  const say = settings.output.say;
  /** Per run, the secrets its log has named (each once). */
  const secretsSaid = new Map<string, Set<string>>();
  worker.events.on((event) => {
    if (event.type === "run-status" && event.status !== "running") secretsSaid.delete(event.run);
    // A notifier that failed: on stderr, once per run (the Worker says it once).
    if (event.type === "notify-failed") return void process.stderr.write(`${event.message}\n`);
    const line = lineOf(event, text, (run) => approveCommandLine(run, store, locale), secretsSaid);
    if (line !== null) say(line);
  });
  const who = `pid ${process.pid}@${hostname()}`;
  let signals = 0;
  const stopped = new Promise<void>((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      signals += 1;
      const code = signal === "SIGINT" ? EXIT.interrupted : EXIT.terminated;
      if (signals > 1) process.exit(code);
      say(text.workerStopping);
      // Whoever sends SIGTERM sends SIGKILL later (docker after 10 s): a boundary that has not come by
      // then is not waited for; the runs left are taken back by another worker as after a kill.
      if (signal === "SIGTERM") setTimeout(() => process.exit(code), TERM_GRACE_MS).unref();
      worker.stop().then(resolve, resolve);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
  try {
    await worker.start();
  } catch (error) {
    await worker.stop();
    throw error;
  }
  say(text.workerStarted(who, store.spec.kind === "postgres" ? store.spec.shown : "", concurrency));
  // Resolves once the worker has stopped: its runs are back in the queue and its store is closed.
  await stopped;
  say(text.workerStopped(who));
  return EXIT.ok;
}

function parseConcurrency(value: string | boolean | undefined, locale: "en" | "zh"): number {
  if (value === undefined) return 1;
  const text = String(value).trim();
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(FLEET_TEXT[locale].concurrency(text));
  return n;
}

/** Of a run's secrets, those its log has not named yet (each said once: the submit's and the run's own). */
function unsaid(secretsSaid: Map<string, Set<string>>, run: string, paths: readonly string[]): string[] {
  const said = secretsSaid.get(run) ?? new Set<string>();
  secretsSaid.set(run, said);
  const fresh = paths.filter((path) => !said.has(path));
  for (const path of fresh) said.add(path);
  return fresh;
}

/** One line per thing a person watching the worker wants to know; null for the rest. */
function lineOf(
  event: FleetEvent,
  text: (typeof FLEET_TEXT)["en"],
  approve: (run: string) => string,
  secretsSaid: Map<string, Set<string>>,
): string | null {
  if (event.type === "worker-error") return text.storeTrouble(event.message);
  if (event.type === "notify-failed") return null;
  if (event.type === "day-budget-spent")
    return text.daySpent(formatUsd(event.spentUsd), formatUsd(event.budgetUsd), event.day);
  if (event.type === "run-workspace") {
    const lines = [text.workspace(event.run, displayPath(event.path), event.created, event.commit)];
    if (event.restored.length > 0) lines.push(text.restored(event.run, event.restored.length, 0, 0));
    const secrets = unsaid(secretsSaid, event.run, event.leftOut);
    if (secrets.length > 0) lines.push(text.leftOutSecrets(event.run, secrets.join(", ")));
    return lines.join("\n");
  }
  if (event.type === "run-setup") return text.setup(event.run, event.line);
  if (event.type === "run-event") {
    const inner = event.event;
    if (inner.type === "workflow-step" && inner.phase === "start")
      return text.step(event.run, inner.name, inner.resumed === true);
    if (inner.type === "work-restored")
      return text.restored(event.run, inner.restored.length, inner.kept.length, inner.dropped);
    if (inner.type === "work-warning") return text.workWarning(event.run, inner.message);
    if (inner.type === "work-checkpoint") {
      // A checkpoint that changed files names what it left out (a file the run wrote, too).
      const secrets = inner.leftOut.filter((entry) => entry.why === "secret").map((entry) => entry.path);
      const fresh = unsaid(secretsSaid, event.run, secrets);
      return fresh.length > 0 ? text.leftOutSecrets(event.run, fresh.join(", ")) : null;
    }
    return null;
  }
  if (event.status === "running") return text.taken(event.run);
  if (event.status === "lost") return text.lost(event.run);
  if (event.status === "cancelled" && event.why === "worker-gone")
    return text.ended(event.run, text.status.cancelled);
  if (event.status === "queued")
    return event.why === "worker-gone" && event.by
      ? text.takenBack(event.run, `pid ${event.by.pid}@${event.by.host}`)
      : text.released(event.run);
  if (event.status === "paused")
    return event.error
      ? text.pausedWhy(event.run, event.error, approve(event.run))
      : text.paused(event.run, approve(event.run));
  return text.ended(event.run, text.status[event.status], event.error);
}
