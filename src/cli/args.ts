/**
 * Argument parsing for every command, on node's `util.parseArgs`, over the option table in
 * command-options.ts. Values are validated here, before any side effect, and a bad one fails with one
 * line naming the option and the value (exit code 2).
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../errors.js";
import { isLocale, type Locale } from "../locale/locale.js";
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
export function parseCommandLine(argv: string[]): ParsedCommand | { help: true } {
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
    throw new UsageError(describeParseError(error, command));
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

function describeParseError(error: unknown, command: CommandName): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const where = command === "run" ? "flower" : `flower ${command}`;
  const option = /'(-[^' ]+)/.exec(message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    return `${where}: unknown option ${option ?? message} (see ${where} --help)`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (/argument missing/.test(message))
      return `${where}: option ${option ?? ""} needs a value (see ${where} --help)`;
    return `${where}: option ${option ?? ""} takes no value (see ${where} --help)`;
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL")
    return `${where}: unexpected argument (see ${where} --help)`;
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
