/**
 * The runtime's store (docs/handoffs.md, "Context economy"): PruningSessionStore ⊃ TrimmingSessionStore, a
 * layer over any `SessionStore` (SQLite by default, Postgres, a user's adapter). On top of trimming it prunes
 * in `load()`, before every resume: expiry of glance results (on), denied calls (the newest stays) and
 * disconnect remnants. `trim: false` only turns off trimming long results; the other three always run.
 * Subagent transcripts (loaded on resume too) get the same rewrite.
 */
import type { SessionStore } from "@anthropic-ai/claude-agent-sdk";
import { isEphemeral as glanceTable } from "../glance/is-ephemeral.js";
import { DEFAULTS } from "../defaults.js";
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import type { RewriteOptions } from "./passes/rewrite.js";
import {
  TRIMMING_OPTION_NAMES,
  TrimmingSessionStore,
  type TrimmingSessionStoreOptions,
} from "./trimming-store.js";

export interface PruningSessionStoreOptions extends TrimmingSessionStoreOptions {
  /**
   * Newest ephemeral command results kept verbatim; older ones become the expiry hint. `Infinity` turns expiry off.
   * @default 6
   */
  keepEphemeral?: number;
  /**
   * Newest denied calls kept; older ones are removed with their tool_use. `Infinity` keeps all.
   * @default 1
   */
  keepDenials?: number;
  /**
   * The glance table deciding which Bash results go stale. Defaults to the guard's table, so what the
   * coordinator may run itself and what expires can never drift apart.
   * @default isEphemeral from src/glance/is-ephemeral.ts
   */
  isEphemeral?: (command: string) => boolean;
}

/** Every option name, checked against PruningSessionStoreOptions by the compiler. */
const KNOWN = {
  ...TRIMMING_OPTION_NAMES,
  keepEphemeral: true,
  keepDenials: true,
  isEphemeral: true,
} as const satisfies Record<keyof PruningSessionStoreOptions, true>;

export class PruningSessionStore extends TrimmingSessionStore {
  readonly keepEphemeral: number;
  readonly keepDenials: number;
  readonly #isEphemeral: (command: string) => boolean;

  constructor(options: PruningSessionStoreOptions) {
    const {
      keepEphemeral = DEFAULTS.keepEphemeral,
      keepDenials = DEFAULTS.keepDenials,
      isEphemeral = glanceTable,
    } = options ?? {};
    checkCount("keepEphemeral", keepEphemeral);
    checkCount("keepDenials", keepDenials);
    if (typeof isEphemeral !== "function")
      throw new ConfigurationError("isEphemeral", isEphemeral, "a function (command) => boolean");
    super(options);
    if (new.target === PruningSessionStore) refuseUnknownOptions(options, KNOWN);
    this.keepEphemeral = keepEphemeral;
    this.keepDenials = keepDenials;
    this.#isEphemeral = isEphemeral;
  }

  protected override rewriteOptions(): RewriteOptions {
    return {
      ...super.rewriteOptions(),
      disconnects: true,
      denials: this.keepDenials === Infinity ? null : { keepDenials: this.keepDenials },
      expire:
        this.keepEphemeral === Infinity
          ? null
          : { keepEphemeral: this.keepEphemeral, isEphemeral: this.#isEphemeral },
    };
  }
}

/** The four rewrite layers over `store`: `withRewrites(new PostgresSessionStore({ url }), { workspace })`. */
export function withRewrites(
  store: SessionStore,
  options: Omit<PruningSessionStoreOptions, "inner">,
): PruningSessionStore {
  return new PruningSessionStore({ ...options, inner: store });
}

function checkCount(option: string, value: unknown): void {
  if (value === Infinity) return;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
    throw new ConfigurationError(option, value, "a non-negative integer or Infinity");
}
