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

/** A help string in both display languages. */
export type Localized = Readonly<Record<Locale, string>>;

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** Placeholder of the value in the help, e.g. `N`. */
  value?: string;
  /** The default as shown in the help. */
  default: Localized;
  help: Localized;
}

/** The smallest --window: below 10k a handoff cannot even be written (the `at` floor). */
export const MIN_WINDOW = 10_000;

const HELP: Record<string, OptionSpec> = {
  help: {
    type: "boolean",
    short: "h",
    default: { en: "off", zh: "关" },
    help: { en: "Show this help.", zh: "显示这份帮助。" },
  },
};

const LANG: Record<string, OptionSpec> = {
  lang: {
    type: "string",
    value: "zh|en",
    default: {
      en: "FLOWER_LANG, else LANG (zh* → zh), else en",
      zh: "FLOWER_LANG,其次 LANG(zh* → zh),否则 en",
    },
    help: { en: "Language of the display and the handoff documents.", zh: "界面和交接书用的语言。" },
  },
};

const RUN_DIR: Record<string, OptionSpec> = {
  "run-dir": {
    type: "string",
    value: "DIR",
    default: { en: "runs", zh: "runs" },
    help: {
      en: "Where manifest.json and the session database live.",
      zh: "manifest.json 和会话数据库所在的目录。",
    },
  },
};

const JSON_OUT: Record<string, OptionSpec> = {
  json: {
    type: "boolean",
    default: { en: "off", zh: "关" },
    help: {
      en: "One JSON object per line on stdout, nothing else there (human lines go to stderr).",
      zh: "stdout 上每行一个 JSON 对象,别的都不写(给人看的行去 stderr)。",
    },
  },
};

const VERBOSE_RUN: OptionSpec = {
  type: "boolean",
  short: "v",
  default: { en: "off", zh: "关" },
  help: {
    en: "Before starting, print endpoint, model and token (first 4 chars only); also show every tool call.",
    zh: "开始前打印端点、模型名和 token(只露前 4 个字符);并显示每次工具调用。",
  },
};

/** Options of a live run (`flower "<task>"`, `flower continue`). */
const LIVE: Record<string, OptionSpec> = {
  window: {
    type: "string",
    value: "N",
    default: {
      en: "guessed from the model name: 1000000, 200000 for haiku",
      zh: "按模型名猜:1000000,haiku 为 200000",
    },
    help: {
      en: `The model's context window in tokens (integer >= ${MIN_WINDOW}). The handoff line is window - 50000.`,
      zh: `模型的上下文窗口,单位 token(整数,>= ${MIN_WINDOW})。换代线是 window - 50000。`,
    },
  },
  "no-handoff": {
    type: "boolean",
    default: { en: "off (handoff on)", zh: "关(换代开着)" },
    help: {
      en: "No handoff generations: the SDK's auto-compact stays on.",
      zh: "不换代:SDK 的自动压缩保持开启。",
    },
  },
  verbose: VERBOSE_RUN,
  workspace: {
    type: "string",
    value: "DIR",
    default: { en: ". (the current directory)", zh: ".(当前目录)" },
    help: { en: "The agent's working directory.", zh: "智能体的工作目录。" },
  },
  ...RUN_DIR,
  model: {
    type: "string",
    value: "NAME",
    default: { en: "ANTHROPIC_MODEL, else the CLI's default", zh: "ANTHROPIC_MODEL,否则用 CLI 的默认值" },
    help: {
      en: "Model alias or id of the coordinator (workers inherit it).",
      zh: "协调者的模型别名或 id(工人继承它)。",
    },
  },
  "max-budget-usd": {
    type: "string",
    value: "USD",
    default: { en: "no cap", zh: "不设上限" },
    help: {
      en: "Budget cap per session, in dollars (not for the handoff-writing turn).",
      zh: "每个会话的预算上限,单位美元(写交接的那一轮不受限)。",
    },
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
      default: { en: "made from the task's first words", zh: "取任务的开头几个词" },
      help: { en: "Name of the step in the manifest.", zh: "这一步在 manifest 里的名字。" },
    },
    ...HELP,
  },
  continue: {
    ...LIVE,
    prompt: {
      type: "string",
      value: "TEXT",
      default: { en: '"Continue the task." (zh: "继续。")', zh: '"继续。"(en: "Continue the task.")' },
      help: { en: "What the resumed session is told.", zh: "对接着做的会话说的话。" },
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
      default: { en: "a fresh temporary directory", zh: "新建的临时目录" },
      help: {
        en: "Run the demo here (must be new or empty; it is kept).",
        zh: "在这里跑演示(必须是新的或空的目录;跑完保留)。",
      },
    },
    keep: {
      type: "boolean",
      default: { en: "off (the temporary workspace is removed)", zh: "关(临时工作区跑完删除)" },
      help: {
        en: "Keep the temporary workspace and its run directory.",
        zh: "保留临时工作区和它的运行目录。",
      },
    },
    verbose: {
      type: "boolean",
      short: "v",
      default: { en: "off", zh: "关" },
      help: { en: "Also show every tool call.", zh: "同时显示每次工具调用。" },
    },
    ...JSON_OUT,
    ...LANG,
    ...HELP,
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
