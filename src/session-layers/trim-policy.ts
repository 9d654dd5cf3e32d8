import { DEFAULTS } from "../defaults.js";
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";

export interface TrimPolicyOptions {
  /**
   * The newest tool results (any tool, any size) that are never trimmed.
   * @default 20
   */
  keepRecent?: number;
  /**
   * Tool results with at least this many characters are moved to `<workspace>/.flower/spill/` on load.
   * @default 2000
   */
  minChars?: number;
}

const KNOWN = { keepRecent: true, minChars: true } as const satisfies Record<keyof TrimPolicyOptions, true>;

/** How the store trims long tool results when a session is loaded for resume. `trim: true` means `new TrimPolicy()`. */
export class TrimPolicy {
  readonly keepRecent: number;
  readonly minChars: number;

  constructor(options: TrimPolicyOptions = {}) {
    if (typeof options !== "object" || options === null)
      throw new ConfigurationError("options", options, "an object of TrimPolicy options");
    refuseUnknownOptions(options, KNOWN);
    const { keepRecent = DEFAULTS.trimKeepRecent, minChars = DEFAULTS.trimMinChars } = options;
    if (!Number.isInteger(keepRecent) || keepRecent < 0)
      throw new ConfigurationError("keepRecent", keepRecent, "a non-negative integer");
    if (!Number.isInteger(minChars) || minChars < 1)
      throw new ConfigurationError("minChars", minChars, "a positive integer");
    this.keepRecent = keepRecent;
    this.minChars = minChars;
  }
}
