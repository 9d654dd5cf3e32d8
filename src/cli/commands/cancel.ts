/**
 * `flower cancel <run> --store URL`: stops a fleet run wherever it runs, or says which worker was asked
 * (fleet/fleet-runs.ts). Options: command-line/command-options.ts `cancel` (FLEET_ACTION); its run and store:
 * fleet-commands/fleet-run-action.ts; words: fleet-commands/fleet-text.ts.
 */
import { EXIT } from "../../errors.js";
import type { ParsedCommand } from "../command-line/args.js";
import { fleetRunAction, sayFleetRun } from "../fleet-commands/fleet-run-action.js";
import { FLEET_TEXT } from "../fleet-commands/fleet-text.js";

export async function cancelCommand(parsed: ParsedCommand): Promise<number> {
  const { locale, run, store } = fleetRunAction("cancel", parsed);
  const { cancelRun } = await import("../../fleet/fleet-runs.js");
  const view = await cancelRun(store.spec, run);
  const text = FLEET_TEXT[locale];
  sayFleetRun(
    parsed,
    view,
    view.status === "cancelled"
      ? text.cancelled(run)
      : text.cancelAsked(run, view.machine ? `pid ${view.pid}@${view.machine}` : text.status[view.status]),
  );
  return EXIT.ok;
}
