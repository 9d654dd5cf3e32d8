import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ClaudeSettingsError,
  claudeSettingsPaths,
  readClaudeSettings,
  userSettingsPath,
} from "../../../src/cli/providers/claude-settings.js";
import { detectProvider } from "../../../src/cli/providers/providers.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "flower-settings-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function write(path: string, content: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
  return path;
}

describe("userSettingsPath", () => {
  it("is $CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json", () => {
    expect(userSettingsPath({ CLAUDE_CONFIG_DIR: "/cfg" }, "/home/a")).toBe("/cfg/settings.json");
    expect(userSettingsPath({ CLAUDE_CONFIG_DIR: " " }, "/home/a")).toBe("/home/a/.claude/settings.json");
    expect(userSettingsPath({}, "/home/a")).toBe("/home/a/.claude/settings.json");
  });

  it("layers user, project and local settings, lowest first", () => {
    expect(claudeSettingsPaths({}, "/repo", "/home/a")).toEqual([
      "/home/a/.claude/settings.json",
      "/repo/.claude/settings.json",
      "/repo/.claude/settings.local.json",
    ]);
  });
});

describe("readClaudeSettings", () => {
  it("reads apiKeyHelper and env, later files winning, missing files skipped", () => {
    const user = write(
      join(root, "home", "settings.json"),
      JSON.stringify({ apiKeyHelper: "user-helper", env: { AWS_REGION: "eu-west-1", A: "1" }, model: "x" }),
    );
    const project = write(
      join(root, "repo", ".claude", "settings.json"),
      JSON.stringify({ env: { AWS_REGION: "us-west-2", CLAUDE_CODE_USE_BEDROCK: 1 } }),
    );
    const settings = readClaudeSettings([user, join(root, "missing.json"), project]);
    expect(settings).toEqual({
      apiKeyHelper: "user-helper",
      env: { AWS_REGION: "us-west-2", A: "1", CLAUDE_CODE_USE_BEDROCK: "1" },
    });
    expect(readClaudeSettings([join(root, "none.json")])).toEqual({});
  });

  it("names the file and the problem when a settings file is broken", () => {
    const broken = write(join(root, "broken.json"), "{ apiKeyHelper: ");
    expect(() => readClaudeSettings([broken])).toThrow(ClaudeSettingsError);
    expect(() => readClaudeSettings([broken])).toThrow(`${broken}: is not valid JSON`);
    const list = write(join(root, "list.json"), "[]");
    expect(() => readClaudeSettings([list])).toThrow(/list\.json: is not a JSON object/);
    const helper = write(join(root, "helper.json"), JSON.stringify({ apiKeyHelper: ["x"] }));
    expect(() => readClaudeSettings([helper])).toThrow(/"apiKeyHelper" is object/);
    const env = write(join(root, "env.json"), JSON.stringify({ env: { A: { b: 1 } } }));
    expect(() => readClaudeSettings([env])).toThrow(/"env\.A" is not a string/);
    const directory = join(root, "a-directory");
    mkdirSync(directory);
    expect(() => readClaudeSettings([directory])).toThrow(/a-directory: cannot be read/);
  });

  it("a key helper in the user's settings is a way in", () => {
    const configDir = join(root, "config");
    write(join(configDir, "settings.json"), JSON.stringify({ apiKeyHelper: "/usr/local/bin/anthropic-key" }));
    const env = { CLAUDE_CONFIG_DIR: configDir };
    const settings = readClaudeSettings(claudeSettingsPaths(env, join(root, "repo")));
    expect(detectProvider(env, { settings }).credential).toEqual({
      source: "apiKeyHelper",
      shown: "/usr****",
    });
  });
});
