/**
 * `flower approve <run> --store URL`: a fleet run paused for a person goes on (fleet/fleet-runs.ts). Options:
 * command-line/command-options.ts `approve` (FLEET_ACTION); its run and store:
 * fleet-commands/fleet-run-action.ts; words: fleet-commands/fleet-text.ts.
 */
import { EXIT } from "../../errors.js";
import type { ParsedCommand } from "../command-line/args.js";
import { fleetRunAction, sayFleetRun } from "../fleet-commands/fleet-run-action.js";
import { FLEET_TEXT } from "../fleet-commands/fleet-text.js";

export async function approveCommand(parsed: ParsedCommand): Promise<number> {
  const { locale, run, store } = fleetRunAction("approve", parsed);
  const { approveRun } = await import("../../fleet/fleet-runs.js");
  const view = await approveRun(store.spec, run);
  sayFleetRun(parsed, view, FLEET_TEXT[locale].approved(run));
  return EXIT.ok;
}
