/**
 * Guessing the context window from the model name. The SDK does not report the window reliably, so the
 * name is all there is. Guessing too large is made safe by `isOverflow` (a hard API error becomes a
 * degraded handoff); guessing too small cuts long work into shreds (measured: 5× too many
 * generations when a `claude-opus-5[1m]` gateway was treated as 200k) — hence the 1M default.
 */
import { DEFAULTS } from "../defaults.js";

/**
 * The only two variables consulted, in priority order. `ANTHROPIC_MODEL` wins: it names the model the
 * session actually runs, while `ANTHROPIC_DEFAULT_OPUS_MODEL` only remaps the `opus` alias.
 */
export const WINDOW_ENV_VARIABLES = ["ANTHROPIC_MODEL", "ANTHROPIC_DEFAULT_OPUS_MODEL"] as const;

/** `1m` as a token of its own (`[1m]`, `-1m`, `1m` alone), not inside a word like `v11m` or `1mx`. */
const ONE_MILLION_TOKEN = /(?<![a-z0-9])1m(?![a-z0-9])/i;

/** The model name `defaultWindow` reads: the first of the two variables that is set and not blank. */
export function modelNameFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const name of WINDOW_ENV_VARIABLES) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/**
 * The window for a model name. Order matters: `1m` is checked first, so `claude-haiku[1m]` is 1M.
 */
export function windowForModel(model: string | undefined): number {
  if (!model) return DEFAULTS.window;
  if (ONE_MILLION_TOKEN.test(model)) return 1_000_000;
  if (/haiku/i.test(model)) return DEFAULTS.haikuWindow;
  return DEFAULTS.window;
}

/** The default window: from `ANTHROPIC_MODEL`, else `ANTHROPIC_DEFAULT_OPUS_MODEL`, else 1M. */
export function defaultWindow(env: NodeJS.ProcessEnv = process.env): number {
  return windowForModel(modelNameFromEnv(env));
}

/**
 * The one place the window of a step is decided: the window given explicitly, else the model's (the
 * model the step asks for, else the one the environment names), else 1M. The Runtime calls it at its
 * door with its `env` over process.env; the CLI passes `--window` and `--model` through to it.
 */
export function resolveWindow(input: {
  window?: number | undefined;
  model?: string | undefined;
  env?: NodeJS.ProcessEnv;
}): number {
  if (input.window !== undefined) return input.window;
  return windowForModel(input.model ?? modelNameFromEnv(input.env ?? {}));
}
