import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../src/errors.js";
import { CompactPolicy, effectiveCompact } from "../../../src/handoff/compact.js";
import { HandoffPolicy, defaultWindow } from "../../../src/handoff/policy.js";
import { modelNameFromEnv, windowForModel } from "../../../src/handoff/window.js";
import { properties } from "../../support/properties.js";

describe("defaultWindow", () => {
  const cases: Array<[string | undefined, number]> = [
    [undefined, 1_000_000],
    ["", 1_000_000],
    ["claude-opus-4-1", 1_000_000],
    ["claude-sonnet-4-5", 1_000_000],
    ["claude-haiku-4-5", 200_000],
    ["Claude-HAIKU-3", 200_000],
    ["claude-haiku[1m]", 1_000_000],
    ["claude-haiku-4-5-1m", 1_000_000],
    ["claude-opus-5[1m]", 1_000_000],
    ["1m", 1_000_000],
    ["claude-haiku 1M", 1_000_000],
    ["claude-haiku-1mx", 200_000],
    ["claude-haiku-v11m", 200_000],
    ["claude-haiku-1m2", 200_000],
    ["haiku_1m", 1_000_000], // any non-alphanumeric delimits the token, `_` included
  ];
  for (const [model, window] of cases) {
    it(`${JSON.stringify(model)} → ${window}`, () => {
      expect(windowForModel(model)).toBe(window);
      expect(defaultWindow(model === undefined ? {} : { ANTHROPIC_MODEL: model })).toBe(window);
    });
  }

  it("reads only ANTHROPIC_MODEL, then ANTHROPIC_DEFAULT_OPUS_MODEL", () => {
    expect(defaultWindow({ ANTHROPIC_DEFAULT_OPUS_MODEL: "claude-haiku-4" })).toBe(200_000);
    expect(
      defaultWindow({ ANTHROPIC_MODEL: "claude-opus-4", ANTHROPIC_DEFAULT_OPUS_MODEL: "claude-haiku-4" }),
    ).toBe(1_000_000);
    expect(defaultWindow({ ANTHROPIC_MODEL: "  ", ANTHROPIC_DEFAULT_OPUS_MODEL: "claude-haiku-4" })).toBe(
      200_000,
    );
    expect(defaultWindow({ ANTHROPIC_SMALL_FAST_MODEL: "claude-haiku-4", CLAUDE_MODEL: "haiku" })).toBe(
      1_000_000,
    );
    expect(modelNameFromEnv({ ANTHROPIC_MODEL: " m " })).toBe("m");
  });
});

describe("HandoffPolicy", () => {
  it("has the seed's defaults", () => {
    const policy = new HandoffPolicy({ window: 200_000 });
    expect(policy.enabled).toBe(true);
    expect(policy.headroom).toBe(50_000);
    // No cap: the loop brake, not a count, stops generations that do no work.
    expect(policy.maxGenerations).toBe(Number.POSITIVE_INFINITY);
    expect(policy.at).toBe(150_000);
    expect(policy.warnAt).toBe(130_000);
  });

  it("never reads the environment: without a window it is 1M, whatever ANTHROPIC_MODEL says", () => {
    const before = process.env.ANTHROPIC_MODEL;
    process.env.ANTHROPIC_MODEL = "claude-haiku-4-5";
    try {
      expect(defaultWindow()).toBe(200_000);
      expect(new HandoffPolicy().window).toBe(1_000_000);
      expect(HandoffPolicy.from(true).window).toBe(1_000_000);
    } finally {
      if (before === undefined) delete process.env.ANTHROPIC_MODEL;
      else process.env.ANTHROPIC_MODEL = before;
    }
  });

  it("keeps the 10k and 1k floors", () => {
    const tiny = new HandoffPolicy({ window: 30_000, headroom: 25_000 });
    expect(tiny.at).toBe(10_000);
    expect(tiny.warnAt).toBe(1_000);
    expect(new HandoffPolicy({ window: 80_000, headroom: 50_000 }).warnAt).toBe(10_000);
  });

  it("at and warnAt follow the formulas for any valid window and headroom (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000_000 }),
        fc.integer({ min: 1, max: 5_000_000 }),
        (window, headroom) => {
          const policy = new HandoffPolicy({ window, headroom });
          expect(policy.at).toBe(Math.max(10_000, window - headroom));
          expect(policy.warnAt).toBe(Math.max(1_000, policy.at - 20_000));
          expect(policy.warnAt).toBeLessThan(policy.at);
        },
      ),
      properties(100),
    );
  });

  const invalid: Array<[string, Record<string, unknown>]> = [
    ["window", { window: 0 }],
    ["window", { window: -5 }],
    ["window", { window: 1.5 }],
    ["window", { window: Number.NaN }],
    ["window", { window: "200000" }],
    ["window", { window: null }],
    ["headroom", { headroom: 0 }],
    ["headroom", { headroom: 10.5 }],
    ["maxGenerations", { maxGenerations: 0 }],
    ["maxGenerations", { maxGenerations: 2.5 }],
    ["enabled", { enabled: "yes" }],
    ["rule", { rule: "cheapest" }],
    ["handoffOutputTokens", { handoffOutputTokens: 0 }],
  ];
  for (const [option, options] of invalid) {
    it(`rejects ${JSON.stringify(options)} naming ${option}`, () => {
      let configuration: ConfigurationError | undefined;
      try {
        new HandoffPolicy({ window: 200_000, ...options });
      } catch (caught) {
        if (caught instanceof ConfigurationError) configuration = caught;
      }
      if (!configuration) throw new Error("expected a ConfigurationError");
      expect(configuration.option).toBe(option);
      expect(configuration.value).toBe(options[option]);
      expect(configuration.message).toContain(option);
    });
  }

  it("switches at the line unless told to weigh the cost", () => {
    expect(new HandoffPolicy({ window: 200_000 })).toMatchObject({
      rule: "line",
      handoffOutputTokens: 2_000,
    });
    expect(new HandoffPolicy({ window: 200_000, rule: "cost" }).rule).toBe("cost");
  });

  it("accepts maxGenerations 1", () => {
    expect(new HandoffPolicy({ window: 1, maxGenerations: 1 }).maxGenerations).toBe(1);
  });

  it("from() takes a boolean or a policy", () => {
    expect(HandoffPolicy.from(false).enabled).toBe(false);
    expect(HandoffPolicy.from(true).enabled).toBe(true);
    const policy = new HandoffPolicy({ window: 200_000 });
    expect(HandoffPolicy.from(policy)).toBe(policy);
    expect(() => HandoffPolicy.from("on" as never)).toThrow(ConfigurationError);
  });
});

describe("CompactPolicy and effectiveCompact (H3)", () => {
  it("no_summary disables auto-compact in the child env", () => {
    expect(new CompactPolicy({ mode: "no_summary" }).env()).toEqual({ DISABLE_AUTO_COMPACT: "1" });
    expect(new CompactPolicy({ mode: "auto" }).env()).toEqual({});
    expect(new CompactPolicy().mode).toBe("auto");
    expect(() => new CompactPolicy({ mode: "off" as never })).toThrow(ConfigurationError);
  });

  it("turns auto-compact off only when handoff is on and the spec says nothing", () => {
    expect(effectiveCompact(undefined, true)?.mode).toBe("no_summary");
    expect(effectiveCompact(null, true)?.env()).toEqual({ DISABLE_AUTO_COMPACT: "1" });
    expect(effectiveCompact(undefined, false)).toBeUndefined();
    const auto = new CompactPolicy({ mode: "auto" });
    expect(effectiveCompact(auto, true)).toBe(auto);
    expect(effectiveCompact(auto, false)).toBe(auto);
    const none = new CompactPolicy({ mode: "no_summary" });
    expect(effectiveCompact(none, false)).toBe(none);
  });
});
