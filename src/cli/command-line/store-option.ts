/**
 * `--store` and `FLOWER_STORE`: where a command keeps (or finds) its state. The flag wins over the
 * variable; an empty flag is a usage error, an empty variable means the default. The value is parsed
 * here, once, before anything is opened, and the error names where it came from: the runtime and the
 * fleet take the parsed spec, so no later parse can name `store` instead.
 */
import { parseStoreSpec, type StoreSpec } from "../../storage/store-spec.js";
import { parseNonEmpty, type ParsedCommand } from "./args.js";

export interface StoreOption {
  /**
   * The value as the flag or the variable held it, only to be printed again (the `--store` of a
   * `flower continue` line, store-hint.ts); undefined for the default.
   */
  text: string | undefined;
  /** What the runtime and the fleet are given. */
  spec: StoreSpec;
}

export function storeOption(values: ParsedCommand["values"], env = process.env): StoreOption {
  const flag = parseNonEmpty("--store", values.store);
  const variable = env.FLOWER_STORE?.trim() || undefined;
  const text = flag ?? variable;
  return { text, spec: parseStoreSpec(text, flag === undefined ? "FLOWER_STORE" : "--store") };
}
