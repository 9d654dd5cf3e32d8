/**
 * Argument parsing for every command, on node's `util.parseArgs`. Each command declares its options
 * once, with the default shown in its help; values are validated here, before any side effect, and a
 * bad one fails with one line naming the option and the value (exit code 2).
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { FlowerError } from "../errors.js";
import { isLocale, type Locale } from "../locale/locale.js";

/** Wrong command-line usage: one line on stderr, exit code 2. */
export class UsageError extends FlowerError {
  constructor(message: string) {
    super("usage", message);
  }
}

export type CommandName = "run" | "continue" | "runs" | "show" | "forget" | "demo";

export const COMMANDS: readonly CommandName[] = ["run", "continue", "runs", "show", "forget", "demo"];

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** Placeholder of the value in the help, e.g. `N`. */
  value?: string;
  /** The default as shown in the help. */
  default: string;
  help: string;
}

/** The smallest --window: below 10k a handoff cannot even be written (the `at` floor). */
export const MIN_WINDOW = 10_000;

const HELP: Record<string, OptionSpec> = {
  help: { type: "boolean", short: "h", default: "off", help: "Show this help." },
};

const LANG: Record<string, OptionSpec> = {
  lang: {
    type: "string",
    value: "zh|en",
    default: "FLOWER_LANG, else LANG (zh* → zh), else en",
    help: "Language of the display and the handoff documents.",
  },
};

const RUN_DIR: Record<string, OptionSpec> = {
  "run-dir": {
    type: "string",
    value: "DIR",
    default: "runs",
    help: "Where manifest.json and the session database live.",
  },
};

const JSON_OUT: Record<string, OptionSpec> = {
  json: {
    type: "boolean",
    default: "off",
    help: "One JSON object per line on stdout, nothing else there (human lines go to stderr).",
  },
};

/** Options of a live run (`flower "<task>"`, `flower continue`). */
const LIVE: Record<string, OptionSpec> = {
  window: {
    type: "string",
    value: "N",
    default: "guessed from the model name: 1000000, 200000 for haiku",
    help: `The model's context window in tokens (integer >= ${MIN_WINDOW}). The handoff line is window - 50000.`,
  },
  "no-handoff": {
    type: "boolean",
    default: "off (handoff on)",
    help: "No handoff generations: the SDK's auto-compact stays on.",
  },
  verbose: {
    type: "boolean",
    short: "v",
    default: "off",
    help: "Before starting, print endpoint, model and token (first 4 chars only); also show every tool call.",
  },
  workspace: {
    type: "string",
    value: "DIR",
    default: ". (the current directory)",
    help: "The agent's working directory.",
  },
  ...RUN_DIR,
  model: {
    type: "string",
    value: "NAME",
    default: "ANTHROPIC_MODEL, else the CLI's default",
    help: "Model alias or id of the coordinator (workers inherit it).",
  },
  "max-budget-usd": {
    type: "string",
    value: "USD",
    default: "no cap",
    help: "Budget cap per session, in dollars (not for the handoff-writing turn).",
  },
  ...JSON_OUT,
  ...LANG,
};

export const COMMAND_OPTIONS: Record<CommandName, Record<string, OptionSpec>> = {
  run: {
    ...LIVE,
    step: {
      type: "string",
      value: "NAME",
      default: "made from the task's first words",
      help: "Name of the step in the manifest.",
    },
    ...HELP,
  },
  continue: {
    ...LIVE,
    prompt: {
      type: "string",
      value: "TEXT",
      default: '"Continue the task." (zh: "继续。")',
      help: "What the resumed session is told.",
    },
    ...HELP,
  },
  runs: { ...RUN_DIR, ...JSON_OUT, ...LANG, ...HELP },
  show: { ...RUN_DIR, ...JSON_OUT, ...LANG, ...HELP },
  forget: { ...RUN_DIR, ...HELP },
  demo: {
    workspace: {
      type: "string",
      value: "DIR",
      default: "a fresh temporary directory",
      help: "Run the demo here (must be new or empty; it is kept).",
    },
    keep: {
      type: "boolean",
      default: "off (the temporary workspace is removed)",
      help: "Keep the temporary workspace and its run directory.",
    },
    verbose: { type: "boolean", short: "v", default: "off", help: "Also show every tool call." },
    ...JSON_OUT,
    ...LANG,
    ...HELP,
  },
};

const USAGE: Record<CommandName, { usage: string; summary: string }> = {
  run: {
    usage: 'flower [options] "<task>"',
    summary: "Run a coordinator on the task, with the workspace as its cwd, workbench and handoff on.",
  },
  continue: {
    usage: "flower continue [step] [options]",
    summary: "Continue the last (or the named) step of the run directory, on its latest session.",
  },
  runs: {
    usage: "flower runs [options]",
    summary: "List the steps in the manifest: status, generations, cost, turns, last update.",
  },
  show: {
    usage: "flower show [step] [options]",
    summary:
      "Show one step (default: the last): generations, retired sessions, cost, turns, errors, handoffs.",
  },
  forget: {
    usage: "flower forget <step> [options]",
    summary: "Delete the step's sessions from the session store (retention); its manifest record stays.",
  },
  demo: {
    usage: "flower demo [options]",
    summary:
      "A scripted long-horizon run against the offline model kit and the real Claude Code binary: no key, no cost.",
  },
};

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

export function helpText(command?: CommandName): string {
  if (!command) {
    const lines = [
      "flower — long-horizon agents on the Claude Agent SDK: handoff generations instead of auto-compact.",
      "",
      "Usage:",
      ...COMMANDS.map((name) => `  ${USAGE[name].usage.padEnd(34)} ${USAGE[name].summary}`),
      "",
      optionsBlock("Options of a run", COMMAND_OPTIONS.run),
      "",
      "Credentials: ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN; ANTHROPIC_BASE_URL for a gateway; ANTHROPIC_MODEL.",
      "No key yet? `flower demo` shows a whole run offline.",
      "`flower <command> --help` lists each command's options. Exit codes: 0 ok, 1 step failed, 2 usage or configuration, 130 interrupted.",
    ];
    return `${lines.join("\n")}\n`;
  }
  const lines = [
    `${USAGE[command].summary}`,
    "",
    `Usage: ${USAGE[command].usage}`,
    "",
    optionsBlock("Options", COMMAND_OPTIONS[command]),
  ];
  if (command === "continue") {
    lines.push(
      "",
      "The step is continued with the default coordinator and workers, in --workspace (default: the current directory).",
    );
  }
  if (command === "demo") {
    lines.push(
      "",
      "Shows delegation, a glance, a denied Bash, a spill and two handoffs live, in well under a minute.",
    );
  }
  return `${lines.join("\n")}\n`;
}

function optionsBlock(title: string, specs: Record<string, OptionSpec>): string {
  const rows = Object.entries(specs).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : "    "}--${name}${spec.value ? ` ${spec.value}` : ""}`;
    return { flag, text: `${spec.help} [default: ${spec.default}]` };
  });
  const width = Math.max(...rows.map((row) => row.flag.length)) + 2;
  return [`${title}:`, ...rows.map((row) => `  ${row.flag.padEnd(width)}${row.text}`)].join("\n");
}
