/**
 * Argument parsing for every command, on node's `util.parseArgs`, over the option table in
 * command-options.ts. Values are validated here, before any side effect, and a bad one fails with one
 * line naming the option and the value (exit code 2).
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { DEFAULTS } from "../../defaults.js";
import { UsageError } from "../../errors.js";
import { notADirectoryOnPath } from "../../fs/directory-path.js";
import type { HandoffRule } from "../../handoff/policy.js";
import { formatTokensShort } from "../../handoff/handoff-document-text.js";
import { typed } from "../../locale/invocation.js";
import { localeOfTag, resolveLocale, type Locale } from "../../locale/locale.js";
import { parseNotifyTarget, shownTarget, type NotifyTarget } from "../../notify/index.js";
import { runDirectory } from "../../storage/files.js";
import { optionLike } from "./command-like.js";
import { COMMAND_OPTIONS, COMMANDS, MIN_WINDOW, type CommandName } from "./command-options.js";
import { USAGE_TEXT } from "./usage-text.js";

export interface ParsedCommand {
  command: CommandName;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /** The positionals came after `--`: `flower -- list` runs the word as a task, whatever it looks like. */
  literal?: boolean;
}

/**
 * Finds the command (the first positional, when it is a command name) and parses the rest strictly
 * with that command's options. Anything else is the run command: `flower -v "fix the build"`.
 */
export function parseCommandLine(
  argv: string[],
  environment: NodeJS.ProcessEnv = process.env,
): ParsedCommand | { help: true } {
  const first = firstPositional(argv);
  let command: CommandName = "run";
  let rest = argv;
  if (first !== undefined && (COMMANDS as readonly string[]).includes(argv[first]!)) {
    command = argv[first] as CommandName;
    rest = [...argv.slice(0, first), ...argv.slice(first + 1)];
  } else if (first !== undefined && argv[first] === "help") {
    return { help: true };
  }
  const specs = COMMAND_OPTIONS[command];
  const options: NonNullable<ParseArgsConfig["options"]> = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      { type: spec.type, ...(spec.short ? { short: spec.short } : {}) },
    ]),
  );
  let parsed: {
    values: Record<string, string | boolean | undefined>;
    positionals: string[];
    literal: boolean;
  };
  try {
    const result = parseArgs({
      args: joinDashedNumbers(rest, specs),
      options,
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
    const terminator = result.tokens.findIndex((token) => token.kind === "option-terminator");
    parsed = {
      values: result.values as Record<string, string | boolean | undefined>,
      positionals: result.positionals,
      literal:
        terminator >= 0 && result.tokens.some((token, i) => i > terminator && token.kind === "positional"),
    };
  } catch (error) {
    throw new UsageError(describeParseError(error, command, usageLocale(argv, environment)));
  }
  return {
    command,
    values: parsed.values,
    positionals: parsed.positionals,
    ...(parsed.literal ? { literal: true } : {}),
  };
}

/**
 * `--max-budget-usd -3` as `--max-budget-usd=-3`: node's parser takes a value starting with a dash for
 * an option and would say the option "takes no value"; for a number it is the value, and its own parser
 * refuses it with the real reason.
 */
function joinDashedNumbers(args: string[], specs: (typeof COMMAND_OPTIONS)[CommandName]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      out.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    const spec = arg.startsWith("--") ? specs[arg.slice(2)] : undefined;
    if (spec?.numeric && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** Index of the first positional argument, skipping option values (any long option may take one). */
function firstPositional(argv: string[]): number | undefined {
  const valued = new Set<string>();
  for (const specs of Object.values(COMMAND_OPTIONS)) {
    for (const [name, spec] of Object.entries(specs)) {
      if (spec.type !== "string") continue;
      valued.add(`--${name}`);
      if (spec.short) valued.add(`-${spec.short}`);
    }
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    // After `--` everything is the task, even a command word: `flower -- runs`.
    if (arg === "--") return undefined;
    if (arg.startsWith("-") && arg !== "-") {
      if (valued.has(arg)) i++;
      continue;
    }
    return i;
  }
  return undefined;
}

/**
 * The language of a usage error: a valid `--lang` on the line, else FLOWER_LANG, else LANG. The line
 * did not parse, so `--lang` is looked for by hand; a bad value falls back to the environment.
 */
function usageLocale(argv: string[], environment: NodeJS.ProcessEnv): Locale {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = arg === "--lang" ? argv[i + 1] : arg.startsWith("--lang=") ? arg.slice(7) : undefined;
    const locale = localeOfTag(value);
    if (locale) return locale;
  }
  return resolveLocale(undefined, environment);
}

const PARSE_ERRORS: Record<
  Locale,
  {
    /** `meant`: the command's option the unknown one is a typo of, when there is one. */
    unknown: (where: string, option: string, meant: string | undefined) => string;
    needsValue: (where: string, option: string) => string;
    dashedValue: (where: string, option: string) => string;
    noValue: (where: string, option: string) => string;
    unexpected: (where: string) => string;
  }
> = {
  en: {
    unknown: (where, option, meant) =>
      `${where}: unknown option ${option}${meant ? `; did you mean ${meant}?` : ""} (see ${helpOf(where)})`,
    needsValue: (where, option) => `${where}: option ${option} needs a value (see ${helpOf(where)})`,
    dashedValue: (where, option) =>
      `${where}: option ${option} needs a value; one that starts with a dash is written ${option}=-… (see ${helpOf(where)})`,
    noValue: (where, option) => `${where}: option ${option} takes no value (see ${helpOf(where)})`,
    unexpected: (where) => `${where}: unexpected argument (see ${helpOf(where)})`,
  },
  zh: {
    unknown: (where, option, meant) =>
      `${where}: 没有这个选项 ${option}${meant ? `;你是想 ${meant}?` : ""}(见 ${helpOf(where)})`,
    needsValue: (where, option) => `${where}: 选项 ${option} 需要一个值(见 ${helpOf(where)})`,
    dashedValue: (where, option) =>
      `${where}: 选项 ${option} 需要一个值;以减号开头的值要写成 ${option}=-…(见 ${helpOf(where)})`,
    noValue: (where, option) => `${where}: 选项 ${option} 不带值(见 ${helpOf(where)})`,
    unexpected: (where) => `${where}: 多了一个参数(见 ${helpOf(where)})`,
  },
};

/** `flower continue` (an error's prefix) as the help line to type: `npx flower continue --help` under npx. */
function helpOf(where: string): string {
  return typed(`${where.replace(/^flower ?/u, "")} --help`.trim());
}

function describeParseError(error: unknown, command: CommandName, locale: Locale): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const where = command === "run" ? "flower" : `flower ${command}`;
  const option = /'(-[^' ]+)/.exec(message)?.[1];
  const text = PARSE_ERRORS[locale];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION")
    return text.unknown(where, option ?? message, option ? optionLike(option, command) : undefined);
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (/argument missing/.test(message)) return text.needsValue(where, option ?? "");
    if (/ambiguous/.test(message)) return text.dashedValue(where, option ?? "");
    return text.noValue(where, option ?? "");
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return text.unexpected(where);
  return `${where}: ${message.split("\n")[0]}`;
}

/** `--handoff-rule line|cost` (HandoffPolicy's `rule`). */
export function parseHandoffRule(
  value: string | boolean | undefined,
  locale: Locale = "en",
): HandoffRule | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (text !== "line" && text !== "cost") throw new UsageError(USAGE_TEXT[locale].handoffRule(text));
  return text;
}

/**
 * `--window N`: an integer (`200000` or `200_000`) of at least MIN_WINDOW. Below it a coordinator could
 * not start and do one turn before the handoff line, so the run is refused with the numbers (DEFAULTS).
 */
export function parseWindow(value: string | boolean | undefined, locale: Locale = "en"): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const n = /^\d[\d_]*$/.test(text) ? Number(text.replace(/_/g, "")) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new UsageError(USAGE_TEXT[locale].windowNotInteger(text, MIN_WINDOW));
  if (n < MIN_WINDOW) {
    throw new UsageError(
      USAGE_TEXT[locale].windowTooSmall(
        n,
        formatTokensShort(Math.max(DEFAULTS.handoffFloor, n - DEFAULTS.headroom)),
        formatTokensShort(DEFAULTS.coordinatorStartupFloor),
        formatTokensShort(DEFAULTS.headroom),
        MIN_WINDOW,
      ),
    );
  }
  return n;
}

/**
 * The one note for a window that works but is small (below DEFAULTS.comfortableWindow): each generation
 * spends much of its room starting. Undefined for a comfortable window.
 */
export function windowNote(window: number, at: number, locale: Locale): string | undefined {
  if (window >= DEFAULTS.comfortableWindow) return undefined;
  return USAGE_TEXT[locale].windowSmall(
    window,
    formatTokensShort(at),
    formatTokensShort(DEFAULTS.coordinatorStartupFloor),
    DEFAULTS.comfortableWindow,
  );
}

/** A dollar amount: a positive finite number; anything else is one line naming the option and the value. */
export function parseBudget(
  value: string | boolean | undefined,
  locale: Locale = "en",
  option = "--max-budget-usd",
): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const n = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!(n > 0 && Number.isFinite(n))) throw new UsageError(USAGE_TEXT[locale].budget(text, option));
  return n;
}

/** `--older-than 30d`: a duration in whole days, hours or weeks, as milliseconds; anything else is refused. */
export function parseOlderThan(
  value: string | boolean | undefined,
  locale: Locale = "en",
): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const match = /^(\d+)\s*(h|d|w)$/i.exec(text);
  const n = match ? Number(match[1]) : Number.NaN;
  if (!match || !(n > 0) || !Number.isSafeInteger(n))
    throw new UsageError(USAGE_TEXT[locale].olderThan(text));
  const hours = { h: 1, d: 24, w: 24 * 7 }[match[2]!.toLowerCase() as "h" | "d" | "w"];
  return n * hours * 60 * 60 * 1000;
}

/** `--drift-after N`: generations without progress before the drift watch pauses; 0 turns it off. */
export function parseDriftAfter(
  value: string | boolean | undefined,
  locale: Locale = "en",
): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new UsageError(USAGE_TEXT[locale].driftAfter(text));
  return n;
}

/**
 * `--lang`: any usual spelling of zh or en (`ZH`, `zh-CN`, `zh_CN.UTF-8`, `en_US`), read by the same
 * `localeOfTag` as FLOWER_LANG; anything else is refused (in the environment's language).
 */
export function parseLang(value: string | boolean | undefined): Locale | undefined {
  if (value === undefined) return undefined;
  const locale = typeof value === "string" ? localeOfTag(value) : undefined;
  if (!locale) throw new UsageError(USAGE_TEXT[resolveLocale()].lang(String(value)));
  return locale;
}

/**
 * `--run-dir` as an absolute path (the default when not given). A command that writes there refuses a
 * path that is a file or lies under one (`somefile/runs`) with one usage line, before anything is written.
 */
export function parseRunDir(value: string | boolean | undefined, locale: Locale = "en"): string {
  const given = parseNonEmpty("--run-dir", value, locale);
  const runDir = runDirectory(given);
  const notDirectory = notADirectoryOnPath(runDir);
  if (notDirectory !== null)
    throw new UsageError(USAGE_TEXT[locale].runDirNotDirectory(given ?? runDir, notDirectory));
  return runDir;
}

export function parseNonEmpty(
  option: string,
  value: string | boolean | undefined,
  locale: Locale = "en",
): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (text === "") throw new UsageError(USAGE_TEXT[locale].empty(option));
  return text;
}

/**
 * `--notify CMD|URL`: an http(s) URL is a webhook, anything else a shell command; another scheme
 * (`ftp://…`) is refused with one line naming the value (its secrets left out), before anything is written.
 */
export function parseNotify(
  value: string | boolean | undefined,
  locale: Locale = "en",
): NotifyTarget | undefined {
  const given = parseNonEmpty("--notify", value, locale);
  if (given === undefined) return undefined;
  const target = parseNotifyTarget(given);
  if (!("refused" in target)) return target;
  throw new UsageError(
    USAGE_TEXT[locale].notify(shownTarget(given), target.refused === "scheme" ? target.scheme : null),
  );
}

/** `--generation N` (diff), `--to N` and `--turn N` (rewind): a whole number >= 1. */
export function parseGeneration(
  value: string | boolean | undefined,
  option = "--generation",
): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new UsageError(
      `flower: ${option} must be a ${option === "--turn" ? "turn" : "generation"} number (1, 2, …), got "${text}"`,
    );
  return n;
}
