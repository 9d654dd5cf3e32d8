/**
 * The `flower approve <run>` and `flower continue <run>` lines a person is told to type for a fleet run,
 * with the store as `flower continue` lines carry it. `flower worker` prints them (commands/worker.ts);
 * kept out of the commands so a command imports no other command.
 */
import type { Locale } from "../../locale/locale.js";
import { invocation, shellQuote } from "../../locale/invocation.js";
import { storeHint } from "../store-hint.js";
import type { StoreOption } from "../command-line/store-option.js";

/** `flower approve <run>` as the user should type it, with the store as `flower continue` lines carry it. */
export function approveCommandLine(run: string, store: StoreOption, locale: Locale): string {
  const hint = storeHint(store, locale);
  return [invocation(), "approve", shellQuote(run), ...hint.args.map(shellQuote)].join(" ");
}

/** `flower continue <run>` of a fleet run (after it failed or missed its goal), with the store as above. */
export function continueCommandLine(run: string, store: StoreOption, locale: Locale): string {
  const hint = storeHint(store, locale);
  return [invocation(), "continue", shellQuote(run), ...hint.args.map(shellQuote)].join(" ");
}
