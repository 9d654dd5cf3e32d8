/**
 * The credentials the `claude` child will use, read from the usual ANTHROPIC_* variables at the CLI
 * boundary. `-v` prints them before a run starts so a wrong gateway or model name is seen before it
 * costs anything; the token is never shown beyond its first 4 characters.
 */

export const DEFAULT_ENDPOINT = "https://api.anthropic.com";

/** The variables a token is read from, in the order the CLI prefers them. */
export const TOKEN_VARIABLES = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"] as const;

export interface Credentials {
  /** ANTHROPIC_BASE_URL, else the public API. */
  endpoint: string;
  /** --model, else ANTHROPIC_MODEL, else "default" (the CLI's own choice). */
  model: string;
  /** The variable the token came from, or null when none is set. */
  tokenVariable: (typeof TOKEN_VARIABLES)[number] | null;
  /** The token itself: never print it, use maskToken(). */
  token: string | null;
}

export function resolveCredentials(env: NodeJS.ProcessEnv, model: string | undefined): Credentials {
  let tokenVariable: Credentials["tokenVariable"] = null;
  let token: string | null = null;
  for (const name of TOKEN_VARIABLES) {
    const value = env[name]?.trim();
    if (value) {
      tokenVariable = name;
      token = value;
      break;
    }
  }
  const endpoint = env.ANTHROPIC_BASE_URL?.trim() || DEFAULT_ENDPOINT;
  return { endpoint, model: model ?? (env.ANTHROPIC_MODEL?.trim() || "default"), tokenVariable, token };
}

/**
 * The first 4 characters and a fixed `****`, never more: `sk-ant-abcdef...` → `sk-a****`. The mask has
 * a fixed length so it does not give away the token's length either; a token of 8 characters or less
 * shows nothing at all, since 4 of them would be half the secret.
 */
export function maskToken(token: string | null): string {
  if (!token) return "(none)";
  const chars = Array.from(token);
  if (chars.length <= 8) return "****";
  return `${chars.slice(0, 4).join("")}****`;
}
