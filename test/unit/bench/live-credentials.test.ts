/**
 * The live suite and the live bench run only with a way to reach Claude (bench/live/credentials.ts):
 * the same ways flower's CLI accepts (src/cli/providers/provider-flags.ts), so a user whose `flower`
 * runs is never told "skipped: no key", and one without is never told anything passed.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  LIVE_PROVIDER_FLAGS,
  LIVE_TOKEN_VARIABLES,
  liveCredentials,
} from "../../../bench/live/credentials.js";
import { parseLiveArguments } from "../../../bench/live/main.js";
import { PROVIDER_FLAGS, TOKEN_VARIABLES } from "../../../src/cli/providers/provider-flags.js";

describe("the live runs' check for a way to Claude", () => {
  it("knows exactly flower's tokens and provider flags", () => {
    expect([...LIVE_TOKEN_VARIABLES]).toEqual([...TOKEN_VARIABLES]);
    expect([...LIVE_PROVIDER_FLAGS]).toEqual(PROVIDER_FLAGS.map(([, flag]) => flag));
  });

  it("finds a token, a provider switched on, or an apiKeyHelper; nothing else", () => {
    const home = mkdtempSync(join(tmpdir(), "flower-live-home-"));
    try {
      expect(liveCredentials({}, home)).toBeNull();
      expect(liveCredentials({ ANTHROPIC_API_KEY: "  " }, home)).toBeNull();
      expect(liveCredentials({ ANTHROPIC_API_KEY: "sk-x" }, home)).toBe("ANTHROPIC_API_KEY");
      expect(liveCredentials({ CLAUDE_CODE_USE_BEDROCK: "0" }, home)).toBeNull();
      expect(liveCredentials({ CLAUDE_CODE_USE_VERTEX: "true" }, home)).toBe("CLAUDE_CODE_USE_VERTEX");
      writeFileSync(join(home, "settings.json"), JSON.stringify({ apiKeyHelper: "pass show anthropic" }));
      expect(liveCredentials({ CLAUDE_CONFIG_DIR: home }, "/nonexistent")).toBe(
        `apiKeyHelper in ${join(home, "settings.json")}`,
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("parses its options, naming a bad one", () => {
    expect(parseLiveArguments(["--model", "sonnet", "--only", "say,goal", "--keep"])).toEqual({
      model: "sonnet",
      only: ["say", "goal"],
      keep: true,
    });
    expect(() => parseLiveArguments(["--budget-scale", "-1"])).toThrow(
      /--budget-scale must be a positive number, got -1/,
    );
    expect(() => parseLiveArguments(["--colour"])).toThrow(/unknown option --colour/);
  });
});
