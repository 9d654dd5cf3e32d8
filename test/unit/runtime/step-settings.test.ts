import { describe, expect, it } from "vitest";
import { HandoffPolicy } from "../../../src/handoff/policy.js";
import { newStepRecord, type StepSettings } from "../../../src/records/step-record.js";
import {
  effectiveLocale,
  effectiveSettings,
  givenHandoff,
  handoffOptionOf,
  recordedSettings,
  runSettings,
} from "../../../src/runtime/drive/step-settings.js";

const defaults = { env: {}, locale: "en" as const };

const started: StepSettings = {
  model: "claude-sonnet-4-5-20250929",
  handoff: { enabled: true, window: 90_000, headroom: 50_000, windowGuessed: false, rule: "line" },
  maxBudgetUsd: 3,
  review: true,
  locale: "zh",
};

describe("effectiveSettings: a new step", () => {
  it("takes what is given, else the defaults, the window from model > environment > 1M", () => {
    expect(effectiveSettings({}, undefined, defaults)).toMatchObject({
      settings: {
        model: null,
        handoff: { enabled: true, window: 1_000_000, headroom: 50_000, windowGuessed: true, rule: "line" },
        maxBudgetUsd: null,
        review: false,
        locale: "en",
      },
      overrides: [],
    });
    const env = { ANTHROPIC_MODEL: "claude-haiku-4-5" };
    expect(effectiveSettings({}, undefined, { env, locale: "en" }).settings.handoff.window).toBe(200_000);
    expect(
      effectiveSettings({ model: "claude-opus-5[1m]" }, undefined, { env, locale: "en" }).settings.handoff
        .window,
    ).toBe(1_000_000);
    const given = effectiveSettings(
      {
        model: "m",
        handoff: false,
        window: 300_000,
        rule: "cost",
        maxBudgetUsd: 1,
        review: true,
        locale: "zh",
      },
      undefined,
      defaults,
    ).settings;
    expect(given).toEqual({
      model: "m",
      handoff: { enabled: false, window: 300_000, headroom: 50_000, windowGuessed: false, rule: "cost" },
      maxBudgetUsd: 1,
      review: true,
      locale: "zh",
    });
  });
});

describe("effectiveSettings: a continued step", () => {
  it("keeps every recorded setting when nothing is given, whatever the environment says now", () => {
    const env = { ANTHROPIC_MODEL: "claude-opus-5-5" };
    const { settings, overrides } = effectiveSettings({}, started, { env, locale: "en" });
    expect(settings).toEqual(started);
    expect(overrides).toEqual([]);
  });

  it("a given setting that differs overrides, one override each; one that agrees is no override", () => {
    const { settings, overrides } = effectiveSettings(
      { window: 200_000, model: "claude-sonnet-4-5-20250929", maxBudgetUsd: 5, locale: "en" },
      started,
      defaults,
    );
    expect(settings.handoff.window).toBe(200_000);
    expect(settings.maxBudgetUsd).toBe(5);
    expect(settings.locale).toBe("en");
    expect(settings.review).toBe(true);
    expect(overrides).toEqual([
      { setting: "window", recorded: 90_000, now: 200_000, by: "window" },
      { setting: "maxBudgetUsd", recorded: 3, now: 5, by: "maxBudgetUsd" },
      { setting: "locale", recorded: "zh", now: "en", by: "locale" },
    ]);
  });

  it("a record from before the rule was kept ran with the line; a rule given on continue overrides it", () => {
    const { rule: _kept, ...older } = started.handoff;
    const old: StepSettings = { ...started, handoff: older };
    expect(effectiveSettings({}, old, defaults)).toMatchObject({
      settings: { handoff: { rule: "line" } },
      overrides: [],
    });
    expect(effectiveSettings({ rule: "cost" }, old, defaults)).toMatchObject({
      settings: { handoff: { rule: "cost" } },
      overrides: [{ setting: "rule", recorded: "line", now: "cost", by: "rule" }],
    });
  });

  it("handoff off, and a model named where none was", () => {
    const none: StepSettings = { ...started, model: null, maxBudgetUsd: null };
    const { settings, overrides } = effectiveSettings({ handoff: false, model: "x" }, none, defaults);
    expect([settings.handoff.enabled, settings.model]).toEqual([false, "x"]);
    expect(overrides).toEqual([
      { setting: "model", recorded: null, now: "x", by: "model" },
      { setting: "handoff", recorded: true, now: false, by: "handoff" },
    ]);
  });

  it("a window guessed from the model follows a model given on continue; a given window does not", () => {
    const guessed: StepSettings = {
      ...started,
      model: "claude-opus-5[1m]",
      handoff: { ...started.handoff, window: 1_000_000, windowGuessed: true },
    };
    const moved = effectiveSettings({ model: "claude-haiku-4-5" }, guessed, defaults);
    expect(moved.settings.handoff).toMatchObject({ window: 200_000, windowGuessed: true });
    expect(moved.overrides).toContainEqual({
      setting: "window",
      recorded: 1_000_000,
      now: 200_000,
      by: "model",
    });
    const kept = effectiveSettings({ model: "claude-haiku-4-5" }, started, defaults);
    expect(kept.settings.handoff.window).toBe(90_000);
    expect(kept.overrides.map((override) => override.setting)).toEqual(["model"]);
  });
});

describe("recordedSettings", () => {
  const record = (step: string, at: string, settings?: StepSettings, run?: string) => ({
    ...newStepRecord(step, "a", "task", new Date(at)),
    ...(settings ? { settings } : {}),
    ...(run ? { run } : {}),
  });

  it("a step's own; a run's from its earliest step; nothing for records that predate settings", () => {
    const zh = { ...started, locale: "zh" as const };
    const en = { ...started, locale: "en" as const };
    const records = [
      record("r/goal", "2026-12-01T10:00:00Z", en, "r"),
      record("r/requirements", "2026-12-01T09:00:00Z", zh, "r"),
      record("r/work", "2026-12-01T11:00:00Z", undefined, "r"),
      record("old", "2026-12-01T08:00:00Z"),
    ];
    expect(recordedSettings(records, "r/goal")?.locale).toBe("en");
    expect(recordedSettings(records, "r")?.locale).toBe("zh");
    expect(recordedSettings(records, "r/work")?.locale).toBe("zh");
    expect(runSettings(records, "r")?.locale).toBe("zh");
    expect(recordedSettings(records, "old")).toBeUndefined();
    expect(recordedSettings(records, "missing")).toBeUndefined();
  });
});

describe("effectiveSettings: the run's budget", () => {
  it("a new step records the budget given; a continue keeps it, a given one overrides it and says so", () => {
    expect(effectiveSettings({ budgetUsd: 0.5 }, undefined, defaults).settings.budgetUsd).toBe(0.5);
    expect(effectiveSettings({}, undefined, defaults).settings).not.toHaveProperty("budgetUsd");
    const recorded = { ...started, budgetUsd: 0.5 };
    expect(effectiveSettings({}, recorded, defaults)).toMatchObject({
      settings: { budgetUsd: 0.5 },
      overrides: [],
    });
    expect(effectiveSettings({ budgetUsd: 2 }, recorded, defaults)).toMatchObject({
      settings: { budgetUsd: 2 },
      overrides: [{ setting: "budgetUsd", recorded: 0.5, now: 2, by: "budgetUsd" }],
    });
    // A budget given to a step recorded without one: recorded as none before.
    expect(effectiveSettings({ budgetUsd: 1 }, started, defaults).overrides).toEqual([
      { setting: "budgetUsd", recorded: null, now: 1, by: "budgetUsd" },
    ]);
  });
});

describe("effectiveSettings: the policy and where the window came from", () => {
  const haiku = { env: { ANTHROPIC_MODEL: "claude-haiku-4-5" }, locale: "en" as const };

  it("a new step: the line the trigger reads is the given window, else the model's, else the environment's", () => {
    const fromEnv = effectiveSettings({}, undefined, haiku);
    expect([fromEnv.policy.window, fromEnv.policy.at, fromEnv.windowFrom]).toEqual([
      200_000,
      150_000,
      "guessed",
    ]);
    const fromModel = effectiveSettings({ model: "claude-opus-5[1m]" }, undefined, haiku);
    expect([fromModel.policy.window, fromModel.windowFrom]).toEqual([1_000_000, "guessed"]);
    const named = effectiveSettings({ window: 300_000, headroom: 20_000, rule: "cost" }, undefined, haiku);
    expect([named.policy.window, named.policy.at, named.policy.rule, named.windowFrom]).toEqual([
      300_000,
      280_000,
      "cost",
      "given",
    ]);
  });

  it("a continued step: the recorded line, whatever the environment says now, unless a flag names it", () => {
    const kept = effectiveSettings({}, started, haiku);
    expect([kept.policy.enabled, kept.policy.window, kept.policy.at, kept.windowFrom]).toEqual([
      true,
      90_000,
      40_000,
      "recorded",
    ]);
    const off = effectiveSettings({ handoff: false, window: 120_000 }, started, haiku);
    expect([off.policy.enabled, off.policy.window, off.windowFrom]).toEqual([false, 120_000, "given"]);
    // A window guessed from the model moves with a model named on continue: the policy follows.
    const guessed: StepSettings = {
      ...started,
      model: "claude-opus-5[1m]",
      handoff: { ...started.handoff, window: 1_000_000, windowGuessed: true },
    };
    const moved = effectiveSettings({ model: "claude-haiku-4-5" }, guessed, defaults);
    expect([moved.policy.window, moved.windowFrom]).toEqual([200_000, "guessed"]);
  });

  it("the knobs that are not recorded apply when given, else their defaults", () => {
    const plain = effectiveSettings({}, started, defaults).policy;
    expect([plain.maxGenerations, plain.handoffOutputTokens]).toEqual([Number.POSITIVE_INFINITY, 2_000]);
    const named = effectiveSettings({ maxGenerations: 4, handoffOutputTokens: 3_000 }, started, defaults);
    expect([named.policy.maxGenerations, named.policy.handoffOutputTokens]).toEqual([4, 3_000]);
    expect(named.overrides).toEqual([]);
  });

  it("a continued step's language is its recorded one unless one is given (the CLI's --lang)", () => {
    expect(effectiveSettings({}, started, defaults).settings.locale).toBe("zh");
    expect(effectiveSettings({ locale: "en" }, started, defaults).settings.locale).toBe("en");
    expect(effectiveSettings({}, undefined, { env: {}, locale: "zh" }).settings.locale).toBe("zh");
  });
});

describe("givenHandoff and handoffOptionOf: only the named fields, both ways", () => {
  it("a policy names what its constructor got; a boolean names enabled; nothing names nothing", () => {
    expect(givenHandoff(undefined)).toEqual({});
    expect(givenHandoff(true)).toEqual({ handoff: true });
    expect(givenHandoff(new HandoffPolicy({ headroom: 20_000, maxGenerations: 3 }))).toEqual({
      headroom: 20_000,
      maxGenerations: 3,
    });
    expect(() => givenHandoff("yes" as never)).toThrow(/handoff/);
  });

  it("builds no policy when no handoff setting is named (the runtime decides them all)", () => {
    expect(handoffOptionOf({})).toBeUndefined();
    expect(handoffOptionOf({ model: "m", locale: "zh" })).toBeUndefined();
    expect(handoffOptionOf({ handoff: false })).toBeInstanceOf(HandoffPolicy);
  });

  it("round-trips: the option built from given settings names exactly them", () => {
    for (const given of [{}, { handoff: false }, { window: 200_000, rule: "cost" as const }]) {
      expect(givenHandoff(handoffOptionOf(given))).toEqual(given);
    }
  });
});

describe("effectiveLocale: the language alone, by effectiveSettings' rule", () => {
  it("agrees with effectiveSettings for a new and a continued step, named or not", () => {
    for (const given of [{}, { locale: "en" as const }, { locale: "zh" as const }])
      for (const recorded of [undefined, started, { ...started, locale: "en" as const }])
        for (const locale of ["en", "zh"] as const)
          expect(effectiveLocale(given, recorded, { env: {}, locale })).toBe(
            effectiveSettings(given, recorded, { env: {}, locale }).settings.locale,
          );
  });
});
