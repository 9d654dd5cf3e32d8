/**
 * Where a provider's credential comes from, and what of it may be shown: the AWS and Google lookups in
 * their SDKs' order, the mask for a secret, and the redaction of a URL's user info. Its own file because
 * it is the one place that touches secrets, so what leaves it (`shown`) can be reviewed in one read.
 */
import { DEFAULT_AWS_REGION, isFlagOn, type Environment } from "./provider-flags.js";

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

/** A variable's value, trimmed; undefined when unset or blank. */
export function read(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** A credential read from a secret: only its mask is kept. */
export function secret(source: string, value: string): ProviderCredential {
  return { source, shown: maskSecret(value) };
}

/** AWS credentials, in the order the AWS SDK's chain looks for them; the chain's rest is not in env. */
export function awsCredential(
  env: Environment,
  bearerVariable?: string,
  skipVariable?: string,
): ProviderCredential {
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

/** Google credentials: a key file, else the skip flag, else gcloud's application default. */
export function googleCredential(env: Environment, skipVariable: string): ProviderCredential {
  const file = read(env, "GOOGLE_APPLICATION_CREDENTIALS");
  if (file) return { source: "GOOGLE_APPLICATION_CREDENTIALS", shown: file };
  if (isFlagOn(env[skipVariable])) return { source: skipVariable, shown: "" };
  return { source: "gcloud-application-default", shown: "" };
}

/** AWS_REGION, else AWS_DEFAULT_REGION, else the binary's default. */
export function awsRegion(env: Environment): string {
  return read(env, "AWS_REGION") ?? read(env, "AWS_DEFAULT_REGION") ?? DEFAULT_AWS_REGION;
}
