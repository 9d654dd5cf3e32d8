/**
 * The two things flower needs from Claude Code's settings: an `apiKeyHelper` (a command that prints a
 * key, a way in for the Anthropic API) and the `env` block (the child applies it over its environment,
 * which is how many teams turn on Bedrock or Vertex). The `claude` child reads the same files itself;
 * this only lets the CLI see before it starts what the child will see.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { FlowerError } from "../../errors.js";

export interface ClaudeSettings {
  /** Shell command that prints an API key. */
  apiKeyHelper?: string;
  /** Environment variables the child sets for itself. */
  env?: Record<string, string>;
}

/** A settings file exists but is not a JSON object of the expected shape; the message names the file. */
export class ClaudeSettingsError extends FlowerError {
  readonly path: string;

  constructor(path: string, problem: string, options?: { cause?: unknown }) {
    super("configuration", `Claude Code settings ${path}: ${problem}`, options);
    this.path = path;
  }
}

/** The user settings file: `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`. */
export function userSettingsPath(
  env: Readonly<Record<string, string | undefined>>,
  home: string = homedir(),
): string {
  const configDir = env.CLAUDE_CONFIG_DIR?.trim();
  return join(configDir ? configDir : join(home, ".claude"), "settings.json");
}

/**
 * The files Claude Code layers, lowest first: the user's, the project's and the project's local one
 * (`<workspace>/.claude/settings.json`, `settings.local.json`).
 */
export function claudeSettingsPaths(
  env: Readonly<Record<string, string | undefined>>,
  workspace: string,
  home: string = homedir(),
): string[] {
  return [
    userSettingsPath(env, home),
    join(workspace, ".claude", "settings.json"),
    join(workspace, ".claude", "settings.local.json"),
  ];
}

/**
 * Reads the settings files in order, later ones winning (user, then project, then local, as Claude
 * Code layers them). A file that does not exist is skipped; one that is not valid JSON, or has an
 * `apiKeyHelper` or `env` of the wrong type, is an error: a silently ignored key helper would turn into
 * a puzzling "no credentials".
 */
export function readClaudeSettings(paths: readonly string[]): ClaudeSettings {
  const merged: ClaudeSettings = {};
  for (const path of paths) {
    let raw: string;
    try {
      raw = readFileSync(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw new ClaudeSettingsError(path, "cannot be read", { cause: error });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      throw new ClaudeSettingsError(path, "is not valid JSON", { cause: error });
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new ClaudeSettingsError(path, "is not a JSON object");
    }
    const { apiKeyHelper, env } = parsed as { apiKeyHelper?: unknown; env?: unknown };
    if (apiKeyHelper !== undefined) {
      if (typeof apiKeyHelper !== "string") {
        throw new ClaudeSettingsError(
          path,
          `"apiKeyHelper" is ${typeof apiKeyHelper}, expected a command string`,
        );
      }
      merged.apiKeyHelper = apiKeyHelper;
    }
    if (env !== undefined) {
      if (typeof env !== "object" || env === null || Array.isArray(env)) {
        throw new ClaudeSettingsError(path, '"env" is not an object of strings');
      }
      const strings: Record<string, string> = {};
      for (const [name, value] of Object.entries(env)) {
        // The schema asks for strings; `"CLAUDE_CODE_USE_BEDROCK": 1` is read as its text rather than
        // refused, since the binary validates its own settings and this only predicts what it will do.
        if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
          strings[name] = String(value);
        } else {
          throw new ClaudeSettingsError(path, `"env.${name}" is not a string`);
        }
      }
      merged.env = { ...merged.env, ...strings };
    }
  }
  return merged;
}
