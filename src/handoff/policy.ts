/**
 * When to hand off. A handoff replaces auto-compact: when the main thread's context reaches `at`, the
 * session writes a handoff document and a new session takes over from it.
 */
import { DEFAULTS } from "../defaults.js";
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";

export {
  defaultWindow,
  modelNameFromEnv,
  resolveWindow,
  windowForModel,
  WINDOW_ENV_VARIABLES,
} from "./window.js";

export interface HandoffPolicyOptions {
  /**
   * Hand off at the threshold. Enabling it also turns auto-compact off for specs without an explicit
   * `compact` (see `effectiveCompact`).
   * @default true
   */
  enabled?: boolean;
  /**
   * The model's context window in tokens. The most important knob when changing model or gateway.
   * The policy never reads the environment. Left out, a Runtime given this policy decides it at its
   * door (`resolveWindow`): from the Runtime's `model`, else ANTHROPIC_MODEL /
   * ANTHROPIC_DEFAULT_OPUS_MODEL, else 1M — the CLI's rule. Given, it also overrides the window a step
   * was started with when that step is continued.
   * @default 1_000_000 when the policy is used on its own (see `given`)
   */
  window?: number;
  /**
   * Tokens kept free below the window. Auto-compact fires at window − 33k and writing the handoff costs
   * one more turn; 50k covers both.
   * @default 50_000
   */
  headroom?: number;
  /**
   * A cap on generations, for a job that should stop after so many. Not needed as a brake: generations
   * that hand off before doing any work (a line below the role's start-up floor) are stopped by the loop
   * brake after two (generation-switch.ts), however many a long healthy job needs.
   * @default no cap
   */
  maxGenerations?: number;
  /**
   * When to switch below the line. `"line"`: at `at` (window − headroom), the first rule. `"cost"`: as
   * soon as staying costs more than a handoff (`costDue` in trigger.ts: the extra input this session
   * has re-read above its start-up floor reaches the priced cost of one handoff), and at `at` at the
   * latest. The cost rule hands off far earlier and far more often (every few dozen turns when each
   * turn adds a few hundred tokens): that is the plan, and no brake stops it.
   * @default "line"
   */
  rule?: HandoffRule;
  /**
   * The cost rule's estimate of a handoff document's length in output tokens (priced at 5× input).
   * @default 2_000
   */
  handoffOutputTokens?: number;
}

export type HandoffRule = "line" | "cost";

/** Every option name, checked against HandoffPolicyOptions by the compiler. */
const KNOWN = {
  enabled: true,
  window: true,
  headroom: true,
  maxGenerations: true,
  rule: true,
  handoffOutputTokens: true,
} as const satisfies Record<keyof HandoffPolicyOptions, true>;

export class HandoffPolicy {
  readonly enabled: boolean;
  readonly window: number;
  readonly headroom: number;
  readonly maxGenerations: number;
  readonly rule: HandoffRule;
  readonly handoffOutputTokens: number;
  /**
   * The options as they were given: a field left out is one the Runtime may decide (the window from the
   * model) or take from the step's record on `continue`. Only given fields override a recorded setting.
   */
  readonly given: Readonly<HandoffPolicyOptions>;

  constructor(options: HandoffPolicyOptions = {}) {
    if (typeof options !== "object" || options === null)
      throw new ConfigurationError("options", options, "an object of HandoffPolicy options");
    // `windw: 200000` must not leave the window at its 1M default unnoticed.
    refuseUnknownOptions(options, KNOWN);
    const {
      enabled = true,
      window = DEFAULTS.window,
      headroom = DEFAULTS.headroom,
      maxGenerations = Number.POSITIVE_INFINITY,
      rule = "line",
      handoffOutputTokens = DEFAULTS.handoffOutputTokens,
    } = options;
    if (typeof enabled !== "boolean") throw new ConfigurationError("enabled", enabled, "a boolean");
    requirePositiveInteger("window", window);
    requirePositiveInteger("headroom", headroom);
    if (
      maxGenerations !== Number.POSITIVE_INFINITY &&
      (!Number.isSafeInteger(maxGenerations) || maxGenerations < 1)
    ) {
      throw new ConfigurationError("maxGenerations", maxGenerations, "an integer >= 1");
    }
    if (rule !== "line" && rule !== "cost") throw new ConfigurationError("rule", rule, '"line" or "cost"');
    requirePositiveInteger("handoffOutputTokens", handoffOutputTokens);
    this.enabled = enabled;
    this.rule = rule;
    this.handoffOutputTokens = handoffOutputTokens;
    this.window = window;
    this.headroom = headroom;
    this.maxGenerations = maxGenerations;
    this.given = Object.freeze(
      Object.fromEntries(
        Object.entries(options).filter(([, value]) => value !== undefined),
      ) as HandoffPolicyOptions,
    );
  }

  /**
   * `true`/`false` mean `new HandoffPolicy({ enabled })` (window 1M: no environment is read here; the
   * Runtime resolves its own `handoff` option with the window guessed from its environment). A policy
   * is taken as is.
   */
  static from(value: HandoffPolicy | boolean | HandoffPolicyOptions | undefined): HandoffPolicy {
    if (value instanceof HandoffPolicy) return value;
    if (value === undefined) return new HandoffPolicy();
    if (typeof value === "boolean") return new HandoffPolicy({ enabled: value });
    if (typeof value === "object" && value !== null) return new HandoffPolicy(value);
    throw new ConfigurationError("handoff", value, "a HandoffPolicy or a boolean");
  }

  /** The handoff line. The 10k floor is mandatory: below it a handoff cannot even be written. */
  get at(): number {
    return Math.max(DEFAULTS.handoffFloor, this.window - this.headroom);
  }

  /** The near-warning line, once per generation. */
  get warnAt(): number {
    return Math.max(DEFAULTS.warnFloor, this.at - DEFAULTS.warnBefore);
  }
}

function requirePositiveInteger(option: string, value: unknown): asserts value is number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new ConfigurationError(option, value, "a positive integer (tokens)");
  }
}
