/**
 * Whether this machine can reach Claude for real: the live suite and the live bench run only then, and
 * otherwise say so in one line ("skipped: no key") and exit 0 — never "passed". The ways in are the
 * `claude` binary's own, as flower's CLI checks them before a run (src/cli/providers/provider-flags.ts:
 * a first-party token, a cloud provider's flag, or an `apiKeyHelper` in Claude Code's settings);
 * test/unit/bench/live-credentials.test.ts keeps this list equal to flower's.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** A first-party token (the Anthropic API, or a gateway in ANTHROPIC_BASE_URL). */
export const LIVE_TOKEN_VARIABLES = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"] as const;

/** A cloud provider's switch (Bedrock, Vertex, Foundry, Claude Platform on AWS or Google Cloud, Mantle). */
export const LIVE_PROVIDER_FLAGS = [
  "CLAUDE_CODE_USE_BEDROCK",
  "CLAUDE_CODE_USE_FOUNDRY",
  "CLAUDE_CODE_USE_ANTHROPIC_AWS",
  "CLAUDE_CODE_USE_ANTHROPIC_GOOGLE_CLOUD",
  "CLAUDE_CODE_USE_MANTLE",
  "CLAUDE_CODE_USE_VERTEX",
] as const;

export type Environment = Readonly<Record<string, string | undefined>>;

/** The way in, named (never the secret), or null when there is none. */
export function liveCredentials(env: Environment, home: string = homedir()): string | null {
  for (const name of LIVE_TOKEN_VARIABLES) if (env[name]?.trim()) return name;
  for (const name of LIVE_PROVIDER_FLAGS)
    if (["1", "true", "yes", "on"].includes(env[name]?.trim().toLowerCase() ?? "")) return name;
  const configDir = env.CLAUDE_CONFIG_DIR?.trim();
  const settings = join(configDir ? configDir : join(home, ".claude"), "settings.json");
  if (!existsSync(settings)) return null;
  try {
    const parsed = JSON.parse(readFileSync(settings, "utf8")) as { apiKeyHelper?: unknown };
    return typeof parsed.apiKeyHelper === "string" && parsed.apiKeyHelper.trim() !== ""
      ? `apiKeyHelper in ${settings}`
      : null;
  } catch {
    return null;
  }
}

/** The one line without a way in: says what to set, and that nothing was run (so nothing passed). */
export function skippedLine(what: string): string {
  return `${what}: skipped: no key (set ANTHROPIC_API_KEY, or a provider's variables as for flower itself; nothing was run)`;
}
