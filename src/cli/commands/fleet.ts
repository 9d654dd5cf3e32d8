/**
 * The fleet's one-shot commands: `flower submit "<task>"` (a run into the queue; prints its name),
 * `flower approve <run>` (a paused run goes on) and `flower cancel <run>` (stops it wherever it runs).
 * `flower worker` is worker.ts; the fleet's statuses in `flower runs --store` are in inspect.ts.
 */
import { EXIT, UsageError } from "../../errors.js";
import { resolveLocale } from "../../locale/locale.js";
import { resolve } from "node:path";
import {
  parseBudget,
  parseHandoffRule,
  parseLang,
  parseNotify,
  parseRunDir,
  parseWindow,
  type ParsedCommand,
} from "../args.js";
import { FLEET_TEXT } from "../fleet-text.js";
import { fleetStore } from "../fleet-store-option.js";

export async function submitCommand(parsed: ParsedCommand): Promise<number> {
  const locale = resolveLocale(parseLang(parsed.values.lang));
  const text = FLEET_TEXT[locale];
  if (parsed.positionals.length !== 1) throw new UsageError(text.oneTask(parsed.positionals.length));
  const task = parsed.positionals[0]!.trim();
  if (task === "") throw new UsageError(text.oneTask(0));
  const window = parseWindow(parsed.values.window, locale);
  const rule = parseHandoffRule(parsed.values["handoff-rule"], locale);
  const notify = parseNotify(parsed.values.notify, locale);
  const budgetUsd = parseBudget(parsed.values.budget, locale, "--budget");
  const store = fleetStore("submit", parsed.values, locale);
  const { submit } = await import("../../fleet/submit.js");
  // The checkout as the person sees it goes with the run: commit, uncommitted changes, unpushed commits.
  const workspace = resolve(typeof parsed.values.workspace === "string" ? parsed.values.workspace : ".");
  const runDir = parseRunDir(parsed.values["run-dir"], locale);
  const submitted = await submit(store.spec, task, {
    direct: parsed.values.direct === true,
    yes: parsed.values.yes === true,
    ...(window !== undefined ? { window } : {}),
    ...(rule !== undefined ? { rule } : {}),
    ...(budgetUsd !== undefined ? { budgetUsd } : {}),
    workspace,
    runDir,
    ...(notify !== undefined ? { notify: String(parsed.values.notify).trim() } : {}),
  });
  // The name alone on stdout: `run=$(flower submit …)` in a script.
  process.stdout.write(parsed.values.json === true ? `${JSON.stringify(submitted)}\n` : `${submitted.run}\n`);
  return EXIT.ok;
}

export async function approveCommand(parsed: ParsedCommand): Promise<number> {
  const { locale, run, store } = fleetAction("approve", parsed);
  const { approveRun } = await import("../../fleet/fleet-runs.js");
  const view = await approveRun(store.spec, run);
  say(parsed, view, FLEET_TEXT[locale].approved(run));
  return EXIT.ok;
}

export async function cancelCommand(parsed: ParsedCommand): Promise<number> {
  const { locale, run, store } = fleetAction("cancel", parsed);
  const { cancelRun } = await import("../../fleet/fleet-runs.js");
  const view = await cancelRun(store.spec, run);
  const text = FLEET_TEXT[locale];
  say(
    parsed,
    view,
    view.status === "cancelled"
      ? text.cancelled(run)
      : text.cancelAsked(run, view.machine ? `pid ${view.pid}@${view.machine}` : text.status[view.status]),
  );
  return EXIT.ok;
}

function fleetAction(command: string, parsed: ParsedCommand) {
  const locale = resolveLocale(parseLang(parsed.values.lang));
  if (parsed.positionals.length !== 1 || parsed.positionals[0]!.trim() === "")
    throw new UsageError(FLEET_TEXT[locale].oneRun(command));
  return { locale, run: parsed.positionals[0]!.trim(), store: fleetStore(command, parsed.values, locale) };
}

function say(parsed: ParsedCommand, view: object, line: string): void {
  process.stdout.write(parsed.values.json === true ? `${JSON.stringify(view)}\n` : `${line}\n`);
}
