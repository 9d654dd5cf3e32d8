/**
 * Auto-compact and handoff must not both run: when the context drops, nobody could tell which of the
 * two did it. So an enabled handoff turns auto-compact off unless the spec asks for it explicitly.
 */
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";

export type CompactMode = "auto" | "no_summary";

export interface CompactPolicyOptions {
  /**
   * `auto`: the SDK's auto-compact (fires at window − 33k). `no_summary`: never compact
   * (`DISABLE_AUTO_COMPACT=1` in the child process).
   * @default "auto"
   */
  mode?: CompactMode;
}

const KNOWN = { mode: true } as const satisfies Record<keyof CompactPolicyOptions, true>;

export class CompactPolicy {
  readonly mode: CompactMode;

  constructor(options: CompactPolicyOptions = {}) {
    if (typeof options !== "object" || options === null)
      throw new ConfigurationError("compact", options, "an object { mode? }");
    refuseUnknownOptions(options, KNOWN, "compact.");
    const { mode = "auto" } = options;
    if (mode !== "auto" && mode !== "no_summary") {
      throw new ConfigurationError("compact.mode", mode, '"auto" or "no_summary"');
    }
    this.mode = mode;
  }

  /** Environment for the Claude Code child process. */
  env(): Record<string, string> {
    return this.mode === "no_summary" ? { DISABLE_AUTO_COMPACT: "1" } : {};
  }
}

/**
 * The compact policy a spec actually runs with: with handoff enabled and no explicit `compact`,
 * auto-compact is switched off; an explicit policy (even `auto`) is respected.
 */
export function effectiveCompact(
  specCompact: CompactPolicy | null | undefined,
  handoffEnabled: boolean,
): CompactPolicy | undefined {
  if (specCompact) return specCompact;
  return handoffEnabled ? new CompactPolicy({ mode: "no_summary" }) : undefined;
}
