/**
 * The CLI's door to provider detection: reads Claude Code's settings files (the only part that touches
 * the disk) and hands them, with the environment, to the pure `detectProvider`. `-v` prints the result
 * before a run starts, so a wrong provider, region or model is seen before it costs anything.
 */
import { homedir } from "node:os";
import type { Locale } from "../../locale/locale.js";
import { claudeSettingsPaths, readClaudeSettings } from "./claude-settings.js";
import { maskSecret } from "./provider-credentials.js";
import { detectProvider, type Provider } from "./providers.js";

export interface ResolveProviderOptions {
  /** The --model option. */
  model?: string | undefined;
  locale: Locale;
  /** The workspace, whose `.claude/settings*.json` the child will read too. */
  workspace: string;
  /** @default the user's home directory */
  home?: string;
}

/** The provider the `claude` child will use; throws NoProviderError / IncompleteProviderError. */
export function resolveProvider(
  env: Readonly<Record<string, string | undefined>>,
  options: ResolveProviderOptions,
): Provider {
  const settings = readClaudeSettings(claudeSettingsPaths(env, options.workspace, options.home ?? homedir()));
  return detectProvider(env, {
    settings,
    locale: options.locale,
    ...(options.model !== undefined ? { model: options.model } : {}),
  });
}

/** Kept for callers of the old name: the first 4 characters and a fixed `****`. */
export const maskToken = maskSecret;
