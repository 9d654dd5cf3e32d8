/**
 * `flower submit "<task>" --store URL`: a run into the fleet's queue with this checkout (fleet/submit.ts);
 * prints its name. Options: command-line/command-options.ts `submit`, parsed by command-line/args.ts; its
 * store: command-line/fleet-store-option.ts; words: fleet-commands/fleet-text.ts.
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
} from "../command-line/args.js";
import { FLEET_TEXT } from "../fleet-commands/fleet-text.js";
import { fleetStore } from "../command-line/fleet-store-option.js";

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
  // What did not go (and what went on purpose), once, on stderr: stdout stays the name alone.
  if (submitted.leftOut.length > 0)
    process.stderr.write(`${text.submitLeftOut(submitted.leftOut.join(", "))}\n`);
  if (submitted.carried.length > 0)
    process.stderr.write(`${text.submitCarried(submitted.carried.join(", "))}\n`);
  // The name alone on stdout: `run=$(flower submit …)` in a script.
  process.stdout.write(parsed.values.json === true ? `${JSON.stringify(submitted)}\n` : `${submitted.run}\n`);
  return EXIT.ok;
}
