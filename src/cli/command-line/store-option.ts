/**
 * `--store` and `FLOWER_STORE`: where a command keeps (or finds) its state. The flag wins over the
 * variable; an empty flag is a usage error, an empty variable means the default. The value is checked
 * here, before anything is opened, and the error names where it came from.
 */
import { parseStoreSpec, type StoreSpec } from "../../storage/store-spec.js";
import { parseNonEmpty, type ParsedCommand } from "./args.js";

export interface StoreOption {
  /** The value as given (passed on to `Runtime({ store })`); undefined for the default. */
  given: string | undefined;
  spec: StoreSpec;
}

export function storeOption(values: ParsedCommand["values"], env = process.env): StoreOption {
  const flag = parseNonEmpty("--store", values.store);
  const variable = env.FLOWER_STORE?.trim() || undefined;
  const given = flag ?? variable;
  return { given, spec: parseStoreSpec(given, flag === undefined ? "FLOWER_STORE" : "--store") };
}
