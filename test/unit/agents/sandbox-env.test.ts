import { describe, expect, it } from "vitest";
import { childEnv } from "../../../src/agents/build-options.js";
import { runningAsRoot, sandboxSetting } from "../../../src/agents/sandbox-env.js";

describe("IS_SANDBOX for a child started by root", () => {
  it("unset or empty becomes 1; 1 stays; another spelling of yes becomes 1 with a note", () => {
    expect(sandboxSetting(undefined, true)).toEqual({ value: "1", note: null });
    expect(sandboxSetting("", true)).toEqual({ value: "1", note: null });
    expect(sandboxSetting("1", true)).toEqual({ value: "1", note: null });
    for (const yes of ["yes", "true", "TRUE", " on ", " 1"]) {
      const setting = sandboxSetting(yes, true);
      expect(setting.value, yes).toBe("1");
      expect(setting.note).toContain(`IS_SANDBOX=${JSON.stringify(yes)}`);
    }
  });

  it("a value that says no is left to the person (the binary then refuses, and says why)", () => {
    for (const no of ["0", "false", "no", "maybe"])
      expect(sandboxSetting(no, true)).toEqual({ value: no, note: null });
  });

  it("not root: left alone", () => {
    expect(sandboxSetting(undefined, false)).toEqual({ value: undefined, note: null });
    expect(sandboxSetting("yes", false)).toEqual({ value: "yes", note: null });
  });

  it("the child's environment carries the normalised value", () => {
    const env = childEnv(
      { name: "a", instructions: "x", role: "agent" },
      { workspace: "/tmp", locale: "en", handoffEnabled: true, env: { IS_SANDBOX: "yes" } },
    );
    expect(env.IS_SANDBOX).toBe(runningAsRoot() ? "1" : "yes");
  });
});
