/**
 * The binary's own table of ways to Claude: the provider flags in their order of precedence, the
 * providers' printed names, the default regions, and how a flag counts as on (CLI 2.1.332, read from
 * its strings). Kept apart from the detection in providers.ts because these are facts copied from the
 * binary, checked against it when the pinned version moves, while the detection is flower's own logic.
 */
import type { ClaudeSettings } from "./claude-settings.js";

export type ProviderId =
  "anthropic" | "bedrock" | "vertex" | "foundry" | "anthropic-aws" | "anthropic-google-cloud" | "mantle";

/** An environment as a value: process.env, or a copy with the settings' `env` block applied. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The provider flags in the binary's order of precedence. */
export const PROVIDER_FLAGS: ReadonlyArray<readonly [Exclude<ProviderId, "anthropic">, string]> = [
  ["bedrock", "CLAUDE_CODE_USE_BEDROCK"],
  ["foundry", "CLAUDE_CODE_USE_FOUNDRY"],
  ["anthropic-aws", "CLAUDE_CODE_USE_ANTHROPIC_AWS"],
  ["anthropic-google-cloud", "CLAUDE_CODE_USE_ANTHROPIC_GOOGLE_CLOUD"],
  ["mantle", "CLAUDE_CODE_USE_MANTLE"],
  ["vertex", "CLAUDE_CODE_USE_VERTEX"],
];

export const PROVIDER_LABELS: Readonly<Record<ProviderId, string>> = {
  anthropic: "Anthropic API",
  bedrock: "Amazon Bedrock",
  vertex: "Google Vertex AI",
  foundry: "Microsoft Foundry",
  "anthropic-aws": "Claude Platform on AWS",
  "anthropic-google-cloud": "Claude Platform on Google Cloud",
  mantle: "Amazon Bedrock (Mantle)",
};

/** The variables a first-party token is read from, in the order they are preferred. */
export const TOKEN_VARIABLES = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"] as const;

/** The binary's defaults when no region is set. */
export const DEFAULT_AWS_REGION = "us-east-1";
export const DEFAULT_VERTEX_REGION = "us-east5";
export const DEFAULT_GOOGLE_CLOUD_LOCATION = "global";

/** Whether a flag variable is on, the binary's way: 1, true, yes or on, in any case. */
export function isFlagOn(value: string | undefined): boolean {
  return value !== undefined && ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
}

/** The provider the flags choose, the binary's precedence; "anthropic" when no flag is on. */
export function chosenProvider(env: Environment): ProviderId {
  for (const [provider, flag] of PROVIDER_FLAGS) if (isFlagOn(env[flag])) return provider;
  return "anthropic";
}

/**
 * The environment the child will see: the settings' `env` block applied over `env`, as the binary
 * applies it over its own environment at start-up.
 */
export function effectiveEnvironment(env: Environment, settings?: ClaudeSettings): Environment {
  return settings?.env ? { ...env, ...settings.env } : env;
}
