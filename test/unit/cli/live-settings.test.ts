/**
 * What `-v` and `flower continue` show before the runtime starts (cli/live/live-settings.ts): the settings
 * `effectiveSettings` decides from the flags, the environment and — on continue — the step's record,
 * the same the runtime will run the step with.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { adoptRecorded, decidedSettings, liveSettings } from "../../../src/cli/live/live-settings.js";
import type { StepSettings } from "../../../src/records/step-record.js";

const started: StepSettings = {
  model: "claude-opus-5[1m]",
  handoff: { enabled: true, window: 1_000_000, headroom: 40_000, windowGuessed: true, rule: "cost" },
  maxBudgetUsd: null,
  review: false,
  locale: "zh",
};

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("liveSettings: what the flags name, and the line a new step runs with", () => {
  it("names only the flags given; the window of a new step comes from the environment's model", () => {
    vi.stubEnv("ANTHROPIC_MODEL", "claude-haiku-4-5");
    vi.stubEnv("FLOWER_LANG", "en");
    const settings = liveSettings({});
    expect(settings.given).toEqual({});
    const { policy, windowFrom } = decidedSettings(settings);
    expect([policy.enabled, policy.window, policy.at, windowFrom]).toEqual([
      true,
      200_000,
      150_000,
      "guessed",
    ]);
  });

  it("a typed window, --no-handoff, --model and --lang are named, and only these", () => {
    vi.stubEnv("ANTHROPIC_MODEL", "claude-haiku-4-5");
    const settings = liveSettings({ window: "300000", "no-handoff": true, model: "m", lang: "zh" });
    expect(settings.given).toEqual({ window: 300_000, handoff: false, model: "m", locale: "zh" });
    expect([decidedSettings(settings).policy.enabled, decidedSettings(settings).windowFrom]).toEqual([
      false,
      "given",
    ]);
  });
});

describe("adoptRecorded: continue shows the step as it was started unless a flag names it", () => {
  it("takes the recorded line and language, and remakes the output in that language", () => {
    vi.stubEnv("ANTHROPIC_MODEL", "claude-haiku-4-5");
    vi.stubEnv("FLOWER_LANG", "en");
    const settings = liveSettings({});
    const before = settings.output;
    adoptRecorded(settings, started);
    const { policy, windowFrom } = decidedSettings(settings);
    expect([policy.window, policy.at, policy.rule, windowFrom]).toEqual([
      1_000_000,
      960_000,
      "cost",
      "recorded",
    ]);
    expect(settings.locale).toBe("zh");
    expect(settings.output).not.toBe(before);
  });

  it("--lang and --window win over the record; --model moves a window that was guessed", () => {
    const named = liveSettings({ lang: "en", window: "500000" });
    adoptRecorded(named, started);
    expect([named.locale, decidedSettings(named).policy.window, decidedSettings(named).windowFrom]).toEqual([
      "en",
      500_000,
      "given",
    ]);
    const model = liveSettings({ model: "claude-haiku-4-5", lang: "en" });
    adoptRecorded(model, started);
    expect(decidedSettings(model).policy.window).toBe(200_000);
  });

  it("changes nothing for a record that predates settings", () => {
    const settings = liveSettings({ lang: "en" });
    const before = decidedSettings(settings);
    adoptRecorded(settings, undefined);
    expect(decidedSettings(settings)).toBe(before);
  });
});
