/**
 * Ways to Claude other than ANTHROPIC_API_KEY, through the CLI and the real binary: an `apiKeyHelper`
 * in Claude Code's user settings is accepted by `flower`, shown masked by `-v`, and is the key the
 * binary then sends.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { text } from "../../../src/testing/index.js";
import { cleanEnv, runFlower, useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const HELPER_KEY = "sk-ant-from-helper-0042";

describe("flower with an apiKeyHelper in the user's Claude Code settings", () => {
  it("starts without ANTHROPIC_API_KEY, shows the helper masked, and the binary sends the helper's key", async () => {
    const model = await startModel({ policy: () => text("Helper key accepted.") });
    const { ANTHROPIC_API_KEY: _dropped, ...kit } = model.env();
    // A settings file the test owns: the kit's config dir belongs to the kit.
    const configDir = mkdtempSync(join(tmpdir(), "flower-helper-config-"));
    dirs.push(configDir);
    writeFileSync(join(configDir, "settings.json"), JSON.stringify({ apiKeyHelper: `echo ${HELPER_KEY}` }));
    const root = temp.make("flower-cli-");
    const run = await runFlower(
      ["-v", "--direct", "--workspace", root, "--run-dir", join(root, "runs"), "Say something."],
      { env: cleanEnv({ ...kit, CLAUDE_CONFIG_DIR: configDir }), cwd: root, timeoutMs: 60_000 },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n").slice(0, 4)).toEqual([
      "provider  Anthropic API",
      `endpoint  ${model.url}`,
      "model     default",
      "auth      echo**** (apiKeyHelper)",
    ]);
    expect(run.stdout).not.toContain(HELPER_KEY);
    expect(run.stdout).toContain("Helper key accepted.");
    const sent = model.requests.map(
      (request) => request.headers["x-api-key"] ?? request.headers.authorization,
    );
    expect(sent.length).toBeGreaterThan(0);
    for (const key of sent) expect(String(key)).toContain(HELPER_KEY);
    model.assertNoErrors();
  });

  it("refuses a settings file that is not JSON, naming it", async () => {
    const configDir = mkdtempSync(join(tmpdir(), "flower-helper-config-"));
    dirs.push(configDir);
    writeFileSync(join(configDir, "settings.json"), "{ apiKeyHelper: ");
    const root = temp.make("flower-cli-");
    const run = await runFlower(["--workspace", root, "x"], {
      env: cleanEnv({ CLAUDE_CONFIG_DIR: configDir }),
      cwd: root,
      timeoutMs: 15_000,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(join(configDir, "settings.json"));
    expect(run.stderr).toContain("is not valid JSON");
  });
});
