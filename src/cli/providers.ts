/**
 * Which way to Claude the `claude` child will take, read from an environment object at the CLI
 * boundary: the Anthropic API (key, auth token or an `apiKeyHelper` in Claude Code's settings, through
 * a gateway when ANTHROPIC_BASE_URL is set), Amazon Bedrock, Google Vertex AI, Microsoft Foundry,
 * Claude Platform on AWS or on Google Cloud, and Bedrock's Mantle endpoint.
 *
 * Why this mirrors the binary: `flower` used to refuse to start without ANTHROPIC_API_KEY or
 * ANTHROPIC_AUTH_TOKEN, so teams on a cloud provider could not use it although the `claude` binary
 * could. The flags, their precedence and the defaults below are the binary's own (CLI 2.1.332, read
 * from its strings): Bedrock wins over Foundry, then Claude Platform on AWS, on Google Cloud, Mantle,
 * Vertex, and the Anthropic API last; a flag is on for 1/true/yes/on. The child also applies the `env`
 * block of Claude Code's settings over its environment, so that block is read here too.
 *
 * A claude.ai subscription login (CLAUDE_CODE_OAUTH_TOKEN) is not a way in: the SDK's terms ask
 * products built on it to use API keys or a cloud provider.
 *
 * Pure: the environment and the settings come in as values; nothing here reads process.env or a file.
 */
import { FlowerError } from "../errors.js";
import type { Locale } from "../locale/locale.js";
import type { ClaudeSettings } from "./claude-settings.js";
import { PROVIDER_TEXT } from "./provider-text.js";

export type ProviderId =
  "anthropic" | "bedrock" | "vertex" | "foundry" | "anthropic-aws" | "anthropic-google-cloud" | "mantle";

/** Where the credential comes from, and what of it may be shown. */
export interface ProviderCredential {
  /** The variable or setting it comes from (`ANTHROPIC_API_KEY`, `AWS_PROFILE`, `apiKeyHelper`, ...). */
  source: string;
  /**
   * What `-v` may print: a secret masked to its first 4 characters (`sk-a****`); a profile name or a
   * file path as it is; empty when the provider's own default chain finds the credential.
   */
  shown: string;
}

export interface Provider {
  provider: ProviderId;
  /** The provider's name as the binary prints it ("Amazon Bedrock", "Google Vertex AI", ...). */
  label: string;
  /** A base URL that replaces the provider's default endpoint (gateway, proxy), user info redacted. */
  endpoint?: string;
  /** AWS region, Vertex region or Google Cloud location. */
  region?: string;
  /** Google Cloud project. */
  project?: string;
  /** Claude Platform workspace id. */
  workspace?: string;
  /** Microsoft Foundry resource name. */
  resource?: string;
  credential: ProviderCredential;
  /** --model, else ANTHROPIC_MODEL, else "default" (the binary's own choice for the provider). */
  model: string;
}

export interface DetectProviderOptions {
  /** Claude Code settings (`apiKeyHelper`, `env`) as read by readClaudeSettings. */
  settings?: ClaudeSettings;
  /** The --model option. */
  model?: string;
  /** Language of the error messages. @default "en" */
  locale?: Locale;
}

/** Nothing is configured: the message lists every way in. */
export class NoProviderError extends FlowerError {
  constructor(message: string) {
    super("usage", message);
  }
}

/** A provider is chosen but a piece it cannot work without is missing; the message names it. */
export class IncompleteProviderError extends FlowerError {
  readonly provider: ProviderId;
  readonly missing: readonly string[];

  constructor(provider: ProviderId, missing: readonly string[], message: string) {
    super("usage", message);
    this.provider = provider;
    this.missing = missing;
  }
}

type Environment = Readonly<Record<string, string | undefined>>;

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

/**
 * The first 4 characters and a fixed `****`, never more: `sk-ant-abcdef...` → `sk-a****`. The mask has
 * a fixed length so it does not give away the secret's length either; a secret of 8 characters or less
 * shows nothing at all, since 4 of them would be half of it.
 */
export function maskSecret(secret: string | null | undefined): string {
  if (!secret) return "(none)";
  const chars = Array.from(secret);
  if (chars.length <= 8) return "****";
  return `${chars.slice(0, 4).join("")}****`;
}

/** A URL with its user name and password replaced, as the binary prints it. */
export function redactUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed?.host) {
    if (!parsed.username && !parsed.password) return url;
    parsed.username = "***";
    parsed.password = "";
    return parsed.href;
  }
  // Not a URL with a host (`user:pw@host` parses as scheme `user:`): cut everything before the `@`.
  const at = url.lastIndexOf("@");
  if (at < 0) return url;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? "";
  return `${scheme}***${url.slice(at)}`;
}

function read(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function secret(source: string, value: string): ProviderCredential {
  return { source, shown: maskSecret(value) };
}

/** AWS credentials, in the order the AWS SDK's chain looks for them; the chain's rest is not in env. */
function awsCredential(env: Environment, bearerVariable?: string, skipVariable?: string): ProviderCredential {
  if (bearerVariable) {
    const bearer = read(env, bearerVariable);
    if (bearer) return secret(bearerVariable, bearer);
  }
  const keyId = read(env, "AWS_ACCESS_KEY_ID");
  if (keyId && read(env, "AWS_SECRET_ACCESS_KEY")) return secret("AWS_ACCESS_KEY_ID", keyId);
  const profile = read(env, "AWS_PROFILE");
  if (profile) return { source: "AWS_PROFILE", shown: profile };
  const identityFile = read(env, "AWS_WEB_IDENTITY_TOKEN_FILE");
  if (identityFile && read(env, "AWS_ROLE_ARN")) {
    return { source: "AWS_WEB_IDENTITY_TOKEN_FILE", shown: identityFile };
  }
  for (const name of ["AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"]) {
    if (read(env, name)) return { source: name, shown: "" };
  }
  if (skipVariable && isFlagOn(env[skipVariable])) return { source: skipVariable, shown: "" };
  // ~/.aws/credentials, SSO, an instance role: the AWS chain finds them, and only the binary can look.
  return { source: "aws-default-chain", shown: "" };
}

function googleCredential(env: Environment, skipVariable: string): ProviderCredential {
  const file = read(env, "GOOGLE_APPLICATION_CREDENTIALS");
  if (file) return { source: "GOOGLE_APPLICATION_CREDENTIALS", shown: file };
  if (isFlagOn(env[skipVariable])) return { source: skipVariable, shown: "" };
  return { source: "gcloud-application-default", shown: "" };
}

function awsRegion(env: Environment): string {
  return read(env, "AWS_REGION") ?? read(env, "AWS_DEFAULT_REGION") ?? DEFAULT_AWS_REGION;
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

/**
 * The provider the `claude` child will use, with what `-v` shows of it. Throws NoProviderError when
 * nothing is configured and IncompleteProviderError when a chosen provider lacks a required piece.
 */
export function detectProvider(processEnv: Environment, options: DetectProviderOptions = {}): Provider {
  const locale = options.locale ?? "en";
  const text = PROVIDER_TEXT[locale];
  const env = effectiveEnvironment(processEnv, options.settings);
  const provider = chosenProvider(env);
  const model = options.model?.trim() || read(env, "ANTHROPIC_MODEL") || "default";
  const base = { provider, label: PROVIDER_LABELS[provider], model };
  const endpoint = (name: string) => {
    const url = read(env, name);
    return url ? { endpoint: redactUrl(url) } : {};
  };
  const incomplete = (missing: string[]) =>
    new IncompleteProviderError(provider, missing, text.incomplete(PROVIDER_LABELS[provider], missing));

  switch (provider) {
    case "bedrock":
      return {
        ...base,
        ...endpoint("ANTHROPIC_BEDROCK_BASE_URL"),
        region: awsRegion(env),
        credential: awsCredential(env, "AWS_BEARER_TOKEN_BEDROCK", "CLAUDE_CODE_SKIP_BEDROCK_AUTH"),
      };
    case "mantle":
      return {
        ...base,
        ...endpoint("ANTHROPIC_BEDROCK_MANTLE_BASE_URL"),
        region: awsRegion(env),
        credential: awsCredential(env, "AWS_BEARER_TOKEN_BEDROCK", "CLAUDE_CODE_SKIP_MANTLE_AUTH"),
      };
    case "anthropic-aws": {
      const workspace = read(env, "ANTHROPIC_AWS_WORKSPACE_ID");
      if (!workspace) throw incomplete(["ANTHROPIC_AWS_WORKSPACE_ID"]);
      return {
        ...base,
        ...endpoint("ANTHROPIC_AWS_BASE_URL"),
        region: awsRegion(env),
        workspace,
        credential: awsCredential(env, "ANTHROPIC_AWS_API_KEY", "CLAUDE_CODE_SKIP_ANTHROPIC_AWS_AUTH"),
      };
    }
    case "vertex": {
      const project =
        read(env, "ANTHROPIC_VERTEX_PROJECT_ID") ??
        read(env, "GCLOUD_PROJECT") ??
        read(env, "GOOGLE_CLOUD_PROJECT");
      return {
        ...base,
        ...endpoint("ANTHROPIC_VERTEX_BASE_URL"),
        region: read(env, "CLOUD_ML_REGION") ?? DEFAULT_VERTEX_REGION,
        ...(project ? { project } : {}),
        credential: googleCredential(env, "CLAUDE_CODE_SKIP_VERTEX_AUTH"),
      };
    }
    case "anthropic-google-cloud": {
      const project = read(env, "ANTHROPIC_GOOGLE_CLOUD_PROJECT") ?? read(env, "GOOGLE_CLOUD_PROJECT");
      const workspace = read(env, "ANTHROPIC_GOOGLE_CLOUD_WORKSPACE_ID");
      return {
        ...base,
        ...endpoint("ANTHROPIC_GOOGLE_CLOUD_BASE_URL"),
        region: read(env, "ANTHROPIC_GOOGLE_CLOUD_LOCATION") ?? DEFAULT_GOOGLE_CLOUD_LOCATION,
        ...(project ? { project } : {}),
        ...(workspace ? { workspace } : {}),
        credential: googleCredential(env, "CLAUDE_CODE_SKIP_ANTHROPIC_GOOGLE_CLOUD_AUTH"),
      };
    }
    case "foundry": {
      const resource = read(env, "ANTHROPIC_FOUNDRY_RESOURCE");
      const url = endpoint("ANTHROPIC_FOUNDRY_BASE_URL");
      if (!resource && !url.endpoint) {
        throw incomplete(["ANTHROPIC_FOUNDRY_RESOURCE", "ANTHROPIC_FOUNDRY_BASE_URL"]);
      }
      const key = read(env, "ANTHROPIC_FOUNDRY_API_KEY");
      const token = read(env, "ANTHROPIC_FOUNDRY_AUTH_TOKEN");
      const credential: ProviderCredential = key
        ? secret("ANTHROPIC_FOUNDRY_API_KEY", key)
        : token
          ? secret("ANTHROPIC_FOUNDRY_AUTH_TOKEN", token)
          : isFlagOn(env.CLAUDE_CODE_SKIP_FOUNDRY_AUTH)
            ? { source: "CLAUDE_CODE_SKIP_FOUNDRY_AUTH", shown: "" }
            : { source: "azure-default-credential", shown: "" };
      return { ...base, ...url, ...(resource ? { resource } : {}), credential };
    }
    case "anthropic": {
      for (const name of TOKEN_VARIABLES) {
        const token = read(env, name);
        if (token) return { ...base, ...endpoint("ANTHROPIC_BASE_URL"), credential: secret(name, token) };
      }
      const helper = options.settings?.apiKeyHelper?.trim();
      if (helper) {
        return {
          ...base,
          ...endpoint("ANTHROPIC_BASE_URL"),
          // The helper is a command, not the key; it may still hold one inline (`echo sk-...`).
          credential: secret("apiKeyHelper", helper),
        };
      }
      throw new NoProviderError(text.nothingConfigured(read(env, "CLAUDE_CODE_OAUTH_TOKEN") !== undefined));
    }
  }
}

/** The `-v` lines for a provider, aligned like the CLI's other `-v` lines. */
export function describeProvider(provider: Provider, locale: Locale): string[] {
  const text = PROVIDER_TEXT[locale];
  const lines = [text.providerLine(provider.label)];
  if (provider.endpoint) lines.push(text.endpointLine(provider.endpoint));
  if (provider.region) lines.push(text.regionLine(provider.region));
  if (provider.project) lines.push(text.projectLine(provider.project));
  if (provider.workspace) lines.push(text.workspaceIdLine(provider.workspace));
  if (provider.resource) lines.push(text.resourceLine(provider.resource));
  lines.push(text.modelLine(provider.model));
  lines.push(text.credentialLine(provider.credential));
  return lines;
}
