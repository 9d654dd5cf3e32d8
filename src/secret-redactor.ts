/**
 * Security (SECURITY.md, "Redaction"): the credentials flower hands the `claude` child (the API key, the auth
 * token, a provider's key) must not end up in what flower writes. They get there through tool results: a
 * subagent that runs `env` or `printenv` puts them in its Bash output, which flows into the session store, a
 * spill file, the record and the events. The redactor replaces every exact occurrence of such a secret by a
 * marker naming the variable (`[redacted ANTHROPIC_API_KEY]`) and keeping none of its characters: `-v`
 * already shows the first 4, and a marker keeping any others would put more than 4 on record in total.
 *
 * Cheap by design: one `includes` per secret per string (or per serialised value), and a copy is made only
 * when a secret is found. Values shorter than MIN_SECRET_CHARS are not redacted (a 3-character "key"
 * would blank out common words, and the empty string would match everywhere).
 */

/** A credential by the variable it comes from. */
export interface Secret {
  name: string;
  value: string;
}

/** Shorter values are not treated as secrets (they would match ordinary text). */
export const MIN_SECRET_CHARS = 8;

/**
 * The variables whose values are secrets the `claude` child receives: the first-party token variables and
 * the provider keys the CLI knows (src/cli/providers/providers.ts reads the same names).
 */
export const SECRET_VARIABLES: readonly string[] = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "ANTHROPIC_FOUNDRY_API_KEY",
  "ANTHROPIC_FOUNDRY_AUTH_TOKEN",
  "ANTHROPIC_AWS_API_KEY",
  "AWS_BEARER_TOKEN_BEDROCK",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
];

/** The secrets set in an environment (process.env with the runtime's `env` over it). */
export function secretsOf(env: Readonly<Record<string, string | undefined>>): Secret[] {
  const secrets: Secret[] = [];
  for (const name of SECRET_VARIABLES) {
    const value = env[name]?.trim();
    if (value !== undefined && value.length >= MIN_SECRET_CHARS) secrets.push({ name, value });
  }
  return secrets;
}

/** What a secret becomes: the variable's name, none of its characters. */
export function redactionMarker(secret: Secret): string {
  return `[redacted ${secret.name}]`;
}

export class SecretRedactor {
  /** Longest first: a secret containing another is replaced whole, not around the shorter one. */
  readonly #secrets: ReadonlyArray<Secret & { marker: string; escaped: string }>;

  constructor(secrets: readonly Secret[]) {
    const seen = new Set<string>();
    this.#secrets = secrets
      .filter((secret) => {
        if (typeof secret.value !== "string" || secret.value.length < MIN_SECRET_CHARS) return false;
        if (seen.has(secret.value)) return false;
        seen.add(secret.value);
        return true;
      })
      .sort((a, b) => b.value.length - a.value.length)
      .map((secret) => ({
        ...secret,
        marker: redactionMarker(secret),
        // How the secret reads inside JSON text (a quote or backslash in it is escaped there).
        escaped: JSON.stringify(secret.value).slice(1, -1),
      }));
  }

  /** False when there is nothing to redact: callers may skip the work entirely. */
  get active(): boolean {
    return this.#secrets.length > 0;
  }

  /** The text with every secret replaced by its marker. */
  text(text: string): string {
    let result = text;
    for (const secret of this.#secrets) {
      if (result.includes(secret.value)) result = result.split(secret.value).join(secret.marker);
    }
    return result;
  }

  /** Whether a JSON-like value holds a secret anywhere (one serialisation, one `includes` per secret). */
  holds(value: unknown): boolean {
    if (!this.active) return false;
    if (typeof value === "string") return this.#secrets.some((secret) => value.includes(secret.value));
    let serialised: string | undefined;
    try {
      serialised = JSON.stringify(value);
    } catch {
      return true; // A cycle: let the walk decide.
    }
    if (serialised === undefined) return false;
    return this.#secrets.some((secret) => serialised.includes(secret.escaped));
  }

  /**
   * The value with every secret in its strings (and object keys) replaced; the same object when it holds
   * none, a copy of only the changed branches otherwise. The input is never modified.
   */
  value<T>(value: T): T {
    if (!this.holds(value)) return value;
    return this.#walk(value, new WeakSet()) as T;
  }

  #walk(value: unknown, seen: WeakSet<object>): unknown {
    if (typeof value === "string") return this.text(value);
    if (typeof value !== "object" || value === null) return value;
    // Only a cycle is cut short: an object shared by two branches is redacted in both.
    if (seen.has(value)) return value;
    seen.add(value);
    try {
      return this.#walkObject(value, seen);
    } finally {
      seen.delete(value);
    }
  }

  #walkObject(value: object, seen: WeakSet<object>): unknown {
    if (Array.isArray(value)) {
      const items = value as unknown[];
      let copy: unknown[] | null = null;
      items.forEach((item, index) => {
        const next = this.#walk(item, seen);
        if (next !== item) (copy ??= [...items])[index] = next;
      });
      return copy ?? items;
    }
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return value;
    let copy: Record<string, unknown> | null = null;
    for (const [key, item] of Object.entries(value)) {
      const next = this.#walk(item, seen);
      const nextKey = this.text(key);
      if (next !== item || nextKey !== key) {
        copy ??= { ...(value as Record<string, unknown>) };
        if (nextKey !== key) delete copy[key];
        copy[nextKey] = next;
      }
    }
    return copy ?? value;
  }
}
