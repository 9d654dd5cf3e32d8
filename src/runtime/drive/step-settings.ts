/**
 * Where a step's settings are decided — model, handoff line, budget, reviewer, language — from what was
 * given, what was recorded and the environment, by one function (`effectiveSettings`). The step driver
 * calls it once per step and runs the step with its result, the handoff trigger reads its policy; the
 * CLI calls it once per process for its `-v` line and `continue` (before the runtime starts: a missing key
 * must write nothing); a workflow reads only the language (`effectiveLocale`, by the same rule). Nothing else
 * derives a window or a line, and no policy is built from settings that were read out of one.
 *
 * The settings are recorded when a step starts (`StepRecord.settings`), so `continue` runs it the same
 * way in any process. An option named explicitly for the continuation overrides one recorded setting
 * and is reported as an override event (the CLI prints one line per override). Nothing here reads the
 * environment: the caller passes the one it resolved at its door.
 */
import { DEFAULTS } from "../../defaults.js";
import { HandoffPolicy, type HandoffRule } from "../../handoff/policy.js";
import { resolveWindow } from "../../handoff/window.js";
import type { Locale } from "../../locale/locale.js";
import type { SettingName, SettingOverride, SettingValue } from "../../events/flower-events.js";
import type { StepRecord, StepSettings } from "../../records/step-record.js";

/** What the caller named explicitly (a flag, a Runtime option, a step option); undefined: not named. */
export interface GivenSettings {
  model?: string | undefined;
  handoff?: boolean | undefined;
  window?: number | undefined;
  headroom?: number | undefined;
  rule?: HandoffRule | undefined;
  /** Not recorded with the step: it applies to the call that names it. */
  maxGenerations?: number | undefined;
  /** Not recorded with the step: it applies to the call that names it. */
  handoffOutputTokens?: number | undefined;
  driftAfter?: number | undefined;
  maxBudgetUsd?: number | undefined;
  budgetUsd?: number | undefined;
  review?: boolean | undefined;
  locale?: Locale | undefined;
}

/** What applies when a setting is neither given nor recorded. */
export interface SettingDefaults {
  /** The environment the `claude` child sees (for the window guessed from ANTHROPIC_MODEL). */
  env: NodeJS.ProcessEnv;
  locale: Locale;
}

/** A step's settings as it runs, and where those that messages name came from. */
export interface EffectiveSettings {
  /** What is recorded with the step (a `continue` starts from these). */
  settings: StepSettings;
  /** The handoff line the step runs with: the recorded handoff settings and the unrecorded knobs. */
  policy: HandoffPolicy;
  /** Each given setting that differs from a recorded one, with what it replaced. */
  overrides: SettingOverride[];
  /**
   * Where the window in effect came from: named by the caller, kept from the record, or guessed from the
   * model (given, else the environment's), else 1M. A small window is noted once, when it is named.
   */
  windowFrom: "given" | "recorded" | "guessed";
}

/**
 * The settings a step runs with. Without `recorded` (a new step, or a record written before settings
 * were kept): what is given, else the defaults, the window from `resolveWindow`. With `recorded`: the
 * recorded settings, except what is given and differs — each such difference is one override. A window
 * that was guessed from the model follows a model given on the continuation.
 */
export function effectiveSettings(
  given: GivenSettings,
  recorded: StepSettings | undefined,
  defaults: SettingDefaults,
): EffectiveSettings {
  const { settings, overrides } = decideSettings(given, recorded, defaults);
  const policy = new HandoffPolicy({
    enabled: settings.handoff.enabled,
    window: settings.handoff.window,
    headroom: settings.handoff.headroom,
    rule: settings.handoff.rule ?? "line",
    ...(given.maxGenerations !== undefined ? { maxGenerations: given.maxGenerations } : {}),
    ...(given.handoffOutputTokens !== undefined ? { handoffOutputTokens: given.handoffOutputTokens } : {}),
  });
  const windowFrom =
    given.window !== undefined
      ? "given"
      : recorded !== undefined && settings.handoff.window === recorded.handoff.window
        ? "recorded"
        : "guessed";
  return { settings, policy, overrides, windowFrom };
}

/** The handoff fields that a handoff option and the given settings name alike (`enabled` is `handoff`). */
const HANDOFF_FIELDS = ["window", "headroom", "rule", "maxGenerations", "handoffOutputTokens"] as const;
type HandoffField = (typeof HANDOFF_FIELDS)[number];

/** Only the handoff fields `from` names: an unnamed one stays absent, so whoever reads it decides it. */
function namedHandoffFields(from: Pick<GivenSettings, HandoffField>): Pick<GivenSettings, HandoffField> {
  const named: Pick<GivenSettings, HandoffField> = {};
  for (const field of HANDOFF_FIELDS)
    if (from[field] !== undefined) Object.assign(named, { [field]: from[field] });
  return named;
}

/**
 * The settings a handoff option names explicitly (`handoff: true` names `enabled`). A value that is not
 * a policy or a boolean fails here, as in `HandoffPolicy.from`.
 */
export function givenHandoff(value: HandoffPolicy | boolean | undefined): GivenSettings {
  if (value === undefined) return {};
  if (typeof value === "boolean") return { handoff: value };
  const given = HandoffPolicy.from(value).given;
  return {
    ...(given.enabled !== undefined ? { handoff: given.enabled } : {}),
    ...namedHandoffFields(given),
  };
}

/**
 * The handoff option the given settings name, as a Runtime or step option: only the named fields, so
 * the runtime decides the rest (the window from the model) or keeps what a continued step recorded. None
 * named: no option (the runtime decides it all; no policy is built only to be read back as nothing).
 */
export function handoffOptionOf(given: GivenSettings): HandoffPolicy | undefined {
  const named = namedHandoffFields(given);
  if (given.handoff === undefined && Object.keys(named).length === 0) return undefined;
  return new HandoffPolicy({ ...(given.handoff !== undefined ? { enabled: given.handoff } : {}), ...named });
}

/** The recorded form: `effectiveSettings` without the policy. */
function decideSettings(
  given: GivenSettings,
  recorded: StepSettings | undefined,
  defaults: SettingDefaults,
): { settings: StepSettings; overrides: SettingOverride[] } {
  if (!recorded) {
    return {
      settings: {
        model: given.model ?? null,
        handoff: {
          enabled: given.handoff ?? true,
          window: resolveWindow({ window: given.window, model: given.model, env: defaults.env }),
          headroom: given.headroom ?? DEFAULTS.headroom,
          windowGuessed: given.window === undefined,
          rule: given.rule ?? "line",
        },
        maxBudgetUsd: given.maxBudgetUsd ?? null,
        review: given.review ?? false,
        locale: given.locale ?? defaults.locale,
        ...(given.driftAfter !== undefined ? { driftAfter: given.driftAfter } : {}),
        ...(given.budgetUsd !== undefined ? { budgetUsd: given.budgetUsd } : {}),
      },
      overrides: [],
    };
  }
  const overrides: SettingOverride[] = [];
  const pick = <T extends SettingValue>(setting: SettingName, value: T | undefined, kept: T): T => {
    if (value === undefined || value === kept) return kept;
    overrides.push({ setting, recorded: kept, now: value, by: setting });
    return value;
  };
  const model = pick("model", given.model, recorded.model);
  const handoff = { ...recorded.handoff };
  handoff.enabled = pick("handoff", given.handoff, recorded.handoff.enabled);
  handoff.headroom = pick("headroom", given.headroom, recorded.handoff.headroom);
  handoff.rule = pick("rule", given.rule, recorded.handoff.rule ?? "line");
  if (given.window !== undefined) {
    handoff.window = pick("window", given.window, recorded.handoff.window);
    handoff.windowGuessed = false;
  } else if (model !== recorded.model && recorded.handoff.windowGuessed) {
    const window = resolveWindow({ model: model ?? undefined, env: defaults.env });
    if (window !== recorded.handoff.window)
      overrides.push({ setting: "window", recorded: recorded.handoff.window, now: window, by: "model" });
    handoff.window = window;
  }
  return {
    settings: {
      model,
      handoff,
      maxBudgetUsd: pick("maxBudgetUsd", given.maxBudgetUsd, recorded.maxBudgetUsd),
      review: pick("review", given.review, recorded.review),
      locale: pick("locale", given.locale, recorded.locale),
      ...(given.driftAfter !== undefined || recorded.driftAfter !== undefined
        ? { driftAfter: pick("driftAfter", given.driftAfter, recorded.driftAfter ?? DEFAULTS.driftAfter) }
        : {}),
      ...budgetOf(pick, given.budgetUsd, recorded.budgetUsd),
    },
    overrides,
  };
}

/**
 * The language alone, by the rule `effectiveSettings` applies (given, else recorded, else the default):
 * a workflow needs it for its step's agent before the step's settings are decided, and no handoff line.
 */
export function effectiveLocale(
  given: GivenSettings,
  recorded: StepSettings | undefined,
  defaults: SettingDefaults,
): Locale {
  return given.locale ?? recorded?.locale ?? defaults.locale;
}

/** The run's budget: the given one (an override of a recorded one), else the recorded one; none: absent. */
function budgetOf(
  pick: <T extends SettingValue>(setting: SettingName, value: T | undefined, kept: T) => T,
  given: number | undefined,
  recorded: number | undefined,
): { budgetUsd?: number } {
  if (given === undefined) return recorded === undefined ? {} : { budgetUsd: recorded };
  const kept: number | null = recorded ?? null;
  return { budgetUsd: pick<number | null>("budgetUsd", given, kept) ?? given };
}

/**
 * The settings recorded under a name: the step's own, else — for a workflow run's id, or a step of a
 * run that has none yet — those its run was started with (see `runSettings`). Undefined when nothing
 * was recorded (older records).
 */
export function recordedSettings(records: readonly StepRecord[], name: string): StepSettings | undefined {
  const own = records.find((record) => record.step === name);
  return own?.settings ?? runSettings(records, own?.run ?? name);
}

/** The settings a workflow run was started with: those of its earliest-started step that has them. */
export function runSettings(records: readonly StepRecord[], run: string): StepSettings | undefined {
  return records
    .filter((record) => record.run === run && record.settings !== undefined)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt))[0]?.settings;
}
