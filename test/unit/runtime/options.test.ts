import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../src/errors.js";
import { HandoffPolicy } from "../../../src/handoff/policy.js";
import { resolveRuntimeOptions, type RuntimeOptions } from "../../../src/runtime/options.js";
import { effectiveSettings } from "../../../src/runtime/drive/step-settings.js";
import { useTempDirs } from "../../support/temp-dir.js";

const workspace = useTempDirs().make("flower-options-");

/** The handoff line a new step of a runtime with these options runs with. */
function newStepPolicy(options: RuntimeOptions) {
  const resolved = resolveRuntimeOptions(options);
  return effectiveSettings(resolved.given, undefined, { env: resolved.childEnv, locale: resolved.locale })
    .policy;
}

describe("resolveRuntimeOptions", () => {
  it("fills the documented defaults", () => {
    const resolved = resolveRuntimeOptions({ workspace, locale: "en" });
    expect(resolved.workbench).toBe(false);
    expect(newStepPolicy({ workspace }).enabled).toBe(true);
    expect(resolved.spillThreshold).toBe(4000);
    expect(resolved.trim).toBeNull();
    expect(resolved.maxAttempts).toBe(3);
    expect(resolved.recall).toBe(true);
    expect(resolveRuntimeOptions({ workspace, recall: false }).recall).toBe(false);
    expect(resolved.runDir).toBe(join(process.cwd(), "runs"));
  });

  it.each([
    [{}, /Invalid option workspace: got undefined/],
    [
      { workspace: "/no/such/dir/anywhere" },
      /Invalid option workspace: got "\/no\/such\/dir\/anywhere", expected the path of an existing directory/,
    ],
    [{ workspace, spillThreshold: -1 }, /Invalid option spillThreshold: got -1/],
    [{ workspace, maxAttempts: 0 }, /Invalid option maxAttempts: got 0/],
    [
      { workspace, handoff: "yes" },
      /Invalid option handoff: got "yes", expected a HandoffPolicy or a boolean/,
    ],
    [{ workspace, workbench: "true" }, /Invalid option workbench: got "true", expected a boolean/],
    [{ workspace, recall: "on" }, /Invalid option recall: got "on", expected a boolean/],
    [{ workspace, locale: "de" }, /Invalid option locale: got "de"/],
    [{ workspace, windw: 5 }, /Invalid option windw: got 5, expected a known option/],
    [{ workspace, env: { A: 1 } }, /Invalid option env/],
  ])("rejects %j", (options, message) => {
    expect(() => resolveRuntimeOptions(options as never)).toThrow(ConfigurationError);
    expect(() => resolveRuntimeOptions(options as never)).toThrow(message);
  });

  it("takes a boolean or a policy for handoff", () => {
    expect(newStepPolicy({ workspace, handoff: false }).enabled).toBe(false);
    const policy = new HandoffPolicy({ window: 200_000, headroom: 30_000 });
    const resolved = resolveRuntimeOptions({ workspace, handoff: policy });
    const line = newStepPolicy({ workspace, handoff: policy });
    expect([line.window, line.headroom]).toEqual([200_000, 30_000]);
    expect(resolved.given).toEqual({ window: 200_000, headroom: 30_000 });
  });

  it("decides a window the policy leaves out as the CLI does: model > environment > 1M", () => {
    const haiku = { ANTHROPIC_MODEL: "claude-haiku-4-5" };
    const headroomOnly = new HandoffPolicy({ headroom: 20_000 });
    // The library gap of issue 22: a policy without a window used to stay at 1M whatever the env said.
    expect(newStepPolicy({ workspace, env: haiku, handoff: headroomOnly }).window).toBe(200_000);
    // The Runtime's model informs the window, and wins over the environment.
    expect(newStepPolicy({ workspace, env: haiku, model: "claude-opus-5[1m]" }).window).toBe(1_000_000);
    expect(newStepPolicy({ workspace, model: "claude-haiku-4-5" }).window).toBe(200_000);
    // A given window wins over both.
    const given = new HandoffPolicy({ window: 300_000 });
    expect(newStepPolicy({ workspace, env: haiku, model: "claude-haiku-4-5", handoff: given }).window).toBe(
      300_000,
    );
  });

  it("remembers which settings were named (only those override a continued step)", () => {
    expect(resolveRuntimeOptions({ workspace }).given).toEqual({});
    expect(
      resolveRuntimeOptions({ workspace, handoff: false, model: "m", maxBudgetUsd: 2, locale: "zh" }).given,
    ).toEqual({ handoff: false, model: "m", maxBudgetUsd: 2, locale: "zh" });
    expect(resolveRuntimeOptions({ workspace, budgetUsd: 0.25 }).given).toEqual({ budgetUsd: 0.25 });
  });

  it("budgetUsd: a positive finite number of dollars, else one error naming the option and the value", () => {
    for (const budgetUsd of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, "1"])
      expect(() => resolveRuntimeOptions({ workspace, budgetUsd: budgetUsd as number })).toThrow(
        /^Invalid option budgetUsd: got .*, expected a positive finite number of dollars\.$/,
      );
  });

  it("guesses the window of handoff: true from its env option over process.env", () => {
    const haiku = { ANTHROPIC_MODEL: "claude-haiku-4-5" };
    expect(newStepPolicy({ workspace, env: haiku }).window).toBe(200_000);
    expect(newStepPolicy({ workspace, env: haiku, handoff: true }).window).toBe(200_000);
    const off = newStepPolicy({ workspace, env: haiku, handoff: false });
    expect([off.enabled, off.window]).toEqual([false, 200_000]);
    expect(newStepPolicy({ workspace, env: { ANTHROPIC_MODEL: "claude-opus-5[1m]" } }).window).toBe(
      1_000_000,
    );
  });
});
