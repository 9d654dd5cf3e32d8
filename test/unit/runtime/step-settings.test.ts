import { describe, expect, it } from "vitest";
import { newStepRecord, type StepSettings } from "../../../src/records/step-record.js";
import {
  recordedSettings,
  resolveStepSettings,
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

describe("resolveStepSettings: a new step", () => {
  it("takes what is given, else the defaults, the window from model > environment > 1M", () => {
    expect(resolveStepSettings({}, undefined, defaults)).toEqual({
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
    expect(resolveStepSettings({}, undefined, { env, locale: "en" }).settings.handoff.window).toBe(200_000);
    expect(
      resolveStepSettings({ model: "claude-opus-5[1m]" }, undefined, { env, locale: "en" }).settings.handoff
        .window,
    ).toBe(1_000_000);
    const given = resolveStepSettings(
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

describe("resolveStepSettings: a continued step", () => {
  it("keeps every recorded setting when nothing is given, whatever the environment says now", () => {
    const env = { ANTHROPIC_MODEL: "claude-opus-5-5" };
    const { settings, overrides } = resolveStepSettings({}, started, { env, locale: "en" });
    expect(settings).toEqual(started);
    expect(overrides).toEqual([]);
  });

  it("a given setting that differs overrides, one override each; one that agrees is no override", () => {
    const { settings, overrides } = resolveStepSettings(
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
    expect(resolveStepSettings({}, old, defaults)).toMatchObject({
      settings: { handoff: { rule: "line" } },
      overrides: [],
    });
    expect(resolveStepSettings({ rule: "cost" }, old, defaults)).toMatchObject({
      settings: { handoff: { rule: "cost" } },
      overrides: [{ setting: "rule", recorded: "line", now: "cost", by: "rule" }],
    });
  });

  it("handoff off, and a model named where none was", () => {
    const none: StepSettings = { ...started, model: null, maxBudgetUsd: null };
    const { settings, overrides } = resolveStepSettings({ handoff: false, model: "x" }, none, defaults);
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
    const moved = resolveStepSettings({ model: "claude-haiku-4-5" }, guessed, defaults);
    expect(moved.settings.handoff).toMatchObject({ window: 200_000, windowGuessed: true });
    expect(moved.overrides).toContainEqual({
      setting: "window",
      recorded: 1_000_000,
      now: 200_000,
      by: "model",
    });
    const kept = resolveStepSettings({ model: "claude-haiku-4-5" }, started, defaults);
    expect(kept.settings.handoff.window).toBe(90_000);
    expect(kept.overrides.map((o) => o.setting)).toEqual(["model"]);
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

describe("resolveStepSettings: the run's budget", () => {
  it("a new step records the budget given; a continue keeps it, a given one overrides it and says so", () => {
    expect(resolveStepSettings({ budgetUsd: 0.5 }, undefined, defaults).settings.budgetUsd).toBe(0.5);
    expect(resolveStepSettings({}, undefined, defaults).settings).not.toHaveProperty("budgetUsd");
    const recorded = { ...started, budgetUsd: 0.5 };
    expect(resolveStepSettings({}, recorded, defaults)).toMatchObject({
      settings: { budgetUsd: 0.5 },
      overrides: [],
    });
    expect(resolveStepSettings({ budgetUsd: 2 }, recorded, defaults)).toMatchObject({
      settings: { budgetUsd: 2 },
      overrides: [{ setting: "budgetUsd", recorded: 0.5, now: 2, by: "budgetUsd" }],
    });
    // A budget given to a step recorded without one: recorded as none before.
    expect(resolveStepSettings({ budgetUsd: 1 }, started, defaults).overrides).toEqual([
      { setting: "budgetUsd", recorded: null, now: 1, by: "budgetUsd" },
    ]);
  });
});
