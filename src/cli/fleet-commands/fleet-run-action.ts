/**
 * What `flower approve <run>` and `flower cancel <run>` share: the one run they act on, the display
 * language and the fleet's store read from the command line, and the answer printed as a line (or, with
 * --json, the run's fleet view). Shared by commands/approve.ts and commands/cancel.ts, so it is in neither.
 */
import { UsageError } from "../../errors.js";
import { resolveLocale, type Locale } from "../../locale/locale.js";
import { parseLang, type ParsedCommand } from "../command-line/args.js";
import { fleetStore } from "../command-line/fleet-store-option.js";
import { FLEET_TEXT } from "./fleet-text.js";
import type { StoreOption } from "../command-line/store-option.js";
import type { PostgresStoreSpec } from "../../storage/store-spec.js";

export interface FleetRunAction {
  locale: Locale;
  /** The run named on the line, trimmed. */
  run: string;
  store: StoreOption & { spec: PostgresStoreSpec };
}

/** The run, the locale and the store of a one-run fleet command; a usage error naming it without one run. */
export function fleetRunAction(command: string, parsed: ParsedCommand): FleetRunAction {
  const locale = resolveLocale(parseLang(parsed.values.lang));
  if (parsed.positionals.length !== 1 || parsed.positionals[0]!.trim() === "")
    throw new UsageError(FLEET_TEXT[locale].oneRun(command));
  return { locale, run: parsed.positionals[0]!.trim(), store: fleetStore(command, parsed.values, locale) };
}

/** The answer on stdout: `line`, or with --json the run's fleet view. */
export function sayFleetRun(parsed: ParsedCommand, view: object, line: string): void {
  process.stdout.write(parsed.values.json === true ? `${JSON.stringify(view)}\n` : `${line}\n`);
}
