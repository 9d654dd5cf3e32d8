/**
 * Argument parsing for every command, on node's `util.parseArgs`, over the option table in
 * command-options.ts. Values are validated here, before any side effect, and a bad one fails with one
 * line naming the option and the value (exit code 2).
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../errors.js";
import { isLocale, resolveLocale, type Locale } from "../locale/locale.js";
import { COMMAND_OPTIONS, COMMANDS, MIN_WINDOW, type CommandName } from "./command-options.js";

export interface ParsedCommand {
  command: CommandName;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
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
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    const result = parseArgs({ args: rest, options, strict: true, allowPositionals: true });
    parsed = {
      values: result.values as Record<string, string | boolean | undefined>,
      positionals: result.positionals,
    };
  } catch (error) {
    throw new UsageError(describeParseError(error, command, usageLocale(argv, environment)));
  }
  return { command, values: parsed.values, positionals: parsed.positionals };
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
    if (value !== undefined && isLocale(value)) return value;
  }
  return resolveLocale(undefined, environment);
}

const PARSE_ERRORS: Record<
  Locale,
  {
    unknown: (where: string, option: string) => string;
    needsValue: (where: string, option: string) => string;
    noValue: (where: string, option: string) => string;
    unexpected: (where: string) => string;
  }
> = {
  en: {
    unknown: (where, option) => `${where}: unknown option ${option} (see ${where} --help)`,
    needsValue: (where, option) => `${where}: option ${option} needs a value (see ${where} --help)`,
    noValue: (where, option) => `${where}: option ${option} takes no value (see ${where} --help)`,
    unexpected: (where) => `${where}: unexpected argument (see ${where} --help)`,
  },
  zh: {
    unknown: (where, option) => `${where}: 没有这个选项 ${option}(见 ${where} --help)`,
    needsValue: (where, option) => `${where}: 选项 ${option} 需要一个值(见 ${where} --help)`,
    noValue: (where, option) => `${where}: 选项 ${option} 不带值(见 ${where} --help)`,
    unexpected: (where) => `${where}: 多了一个参数(见 ${where} --help)`,
  },
};

function describeParseError(error: unknown, command: CommandName, locale: Locale): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const where = command === "run" ? "flower" : `flower ${command}`;
  const option = /'(-[^' ]+)/.exec(message)?.[1];
  const text = PARSE_ERRORS[locale];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return text.unknown(where, option ?? message);
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (/argument missing/.test(message)) return text.needsValue(where, option ?? "");
    return text.noValue(where, option ?? "");
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return text.unexpected(where);
  return `${where}: ${message.split("\n")[0]}`;
}

/** `--window N`: an integer of at least MIN_WINDOW (`200000` or `200_000`). */
export function parseWindow(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const n = /^\d[\d_]*$/.test(text) ? Number(text.replace(/_/g, "")) : Number.NaN;
  if (!Number.isSafeInteger(n)) {
    throw new UsageError(
      `flower: --window must be an integer number of tokens (>= ${MIN_WINDOW}), got "${text}"`,
    );
  }
  if (n < MIN_WINDOW) {
    throw new UsageError(
      `flower: --window must be at least ${MIN_WINDOW} (a handoff cannot be written below that), got ${n}`,
    );
  }
  return n;
}

export function parseBudget(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const n = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!(n > 0))
    throw new UsageError(`flower: --max-budget-usd must be a positive number of dollars, got "${text}"`);
  return n;
}

export function parseLang(value: string | boolean | undefined): Locale | undefined {
  if (value === undefined) return undefined;
  if (!isLocale(value)) throw new UsageError(`flower: --lang must be zh or en, got "${String(value)}"`);
  return value;
}

export function parseNonEmpty(option: string, value: string | boolean | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (text === "") throw new UsageError(`flower: ${option} must not be empty`);
  return text;
}
