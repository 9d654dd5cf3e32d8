/**
 * The fleet's store, as `flower submit`, `approve`, `cancel` and `worker` take it: --store / FLOWER_STORE
 * must name a PostgreSQL database (the queue lives there), else a usage error naming the command. Shared
 * by the fleet's commands (commands/submit.ts, approve.ts, cancel.ts, worker.ts), so it is in none of them.
 */
import { UsageError } from "../../errors.js";
import type { Locale } from "../../locale/locale.js";
import type { PostgresStoreSpec } from "../../storage/store-spec.js";
import type { ParsedCommand } from "./args.js";
import { FLEET_TEXT } from "../fleet-commands/fleet-text.js";
import { storeOption, type StoreOption } from "./store-option.js";

/** The fleet's store from --store / FLOWER_STORE: PostgreSQL, else a usage error naming the command. */
export function fleetStore(
  command: string,
  values: ParsedCommand["values"],
  locale: Locale,
): StoreOption & { spec: PostgresStoreSpec } {
  const store = storeOption(values);
  const spec = store.spec;
  if (spec.kind !== "postgres") throw new UsageError(FLEET_TEXT[locale].needsStore(command));
  return { ...store, spec };
}
