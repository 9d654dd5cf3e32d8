import { DEFAULTS } from "../defaults.js";
import { ConfigurationError } from "../errors.js";

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

/** How the store trims long tool results when a session is loaded for resume. `trim: true` means `new TrimPolicy()`. */
export class TrimPolicy {
  readonly keepRecent: number;
  readonly minChars: number;

  constructor(options: TrimPolicyOptions = {}) {
    const { keepRecent = DEFAULTS.trimKeepRecent, minChars = DEFAULTS.trimMinChars } = options;
    if (!Number.isInteger(keepRecent) || keepRecent < 0)
      throw new ConfigurationError("keepRecent", keepRecent, "a non-negative integer");
    if (!Number.isInteger(minChars) || minChars < 1)
      throw new ConfigurationError("minChars", minChars, "a positive integer");
    this.keepRecent = keepRecent;
    this.minChars = minChars;
  }
}
