#!/usr/bin/env node
/**
 * The `flower` command: parse, dispatch, and map errors to exit codes. Each command lives in
 * commands/; this file stays thin.
 */
import { EXIT, EXIT_CODES, FlowerError } from "../errors.js";
import { localeOfTag, resolveLocale, unknownLanguageSetting, type Locale } from "../locale/locale.js";
import { parseCommandLine, type ParsedCommand } from "./command-line/args.js";
import { COMMANDS, type CommandName } from "./command-line/command-options.js";
import { helpText } from "./command-line/help.js";
import { detectInvocation } from "./command-line/invocation.js";
import { setInvocation } from "../locale/invocation.js";
import { packageVersion } from "./command-line/package-version.js";
import { USAGE_TEXT } from "./command-line/usage-text.js";

/**
 * Each command's module is imported when the command runs: the runtime, the SDK and the database drivers
 * cost a third of a second to load, which `--help`, `--version` and a mistyped flag should not pay.
 */
const HANDLERS: Record<CommandName, (parsed: ParsedCommand) => Promise<number>> = {
  run: async (parsed) => (await import("./commands/run.js")).runCommand(parsed),
  continue: async (parsed) => (await import("./commands/continue.js")).continueCommandRun(parsed),
  runs: async (parsed) => (await import("./commands/runs.js")).runsCommand(parsed),
  show: async (parsed) => (await import("./commands/show.js")).showCommand(parsed),
  report: async (parsed) => (await import("./commands/report.js")).reportCommand(parsed),
  forget: async (parsed) => (await import("./commands/forget.js")).forgetCommand(parsed),
  handoff: async (parsed) => (await import("./commands/handoff.js")).handoffCommand(parsed),
  say: async (parsed) => (await import("./commands/say.js")).sayCommand(parsed),
  demo: async (parsed) => (await import("./commands/demo.js")).demoCommand(parsed),
  submit: async (parsed) => (await import("./commands/submit.js")).submitCommand(parsed),
  worker: async (parsed) => (await import("./commands/worker.js")).workerCommand(parsed),
  approve: async (parsed) => (await import("./commands/approve.js")).approveCommand(parsed),
  cancel: async (parsed) => (await import("./commands/cancel.js")).cancelCommand(parsed),
  serve: async (parsed) => (await import("./commands/serve.js")).serveCommand(parsed),
  diff: async (parsed) => (await import("./commands/diff.js")).diffCommand(parsed),
  apply: async (parsed) => (await import("./commands/apply.js")).applyCommand(parsed),
  discard: async (parsed) => (await import("./commands/discard.js")).discardCommand(parsed),
  fetch: async (parsed) => (await import("./commands/fetch.js")).fetchCommand(parsed),
  rewind: async (parsed) => (await import("./commands/rewind.js")).rewindCommand(parsed),
};

export async function main(argv: string[]): Promise<number> {
  noteUnknownLanguage(argv);
  try {
    const parsed = parseCommandLine(argv);
    if ("help" in parsed) {
      process.stdout.write(helpText(undefined, resolveLocale()));
      return EXIT.ok;
    }
    if (parsed.values.help === true) {
      process.stdout.write(
        helpText(
          parsed.command === "run" && !argv.some((arg) => COMMANDS.includes(arg as CommandName))
            ? undefined
            : parsed.command,
          helpLocale(parsed),
        ),
      );
      return EXIT.ok;
    }
    // `--version` is an option of the bare command only (`flower --version`); `version` stays a word.
    if (parsed.command === "run" && parsed.values.version === true) {
      process.stdout.write(`${packageVersion()}\n`);
      return EXIT.ok;
    }
    return await HANDLERS[parsed.command](parsed);
  } catch (error) {
    if (error instanceof FlowerError) {
      const message = error.message.startsWith("flower") ? error.message : `flower: ${error.message}`;
      process.stderr.write(`${message}\n`);
      return EXIT_CODES[error.code] ?? EXIT.failed;
    }
    // Not one of ours (a database locked by another program, a disk that filled up): one line saying
    // what happened; the stack trace only on request, it tells a user nothing they can act on.
    const debug = process.env.FLOWER_DEBUG === "1";
    const line =
      error instanceof Error
        ? debug
          ? (error.stack ?? error.message)
          : `${error.message.replace(/\s+/g, " ").trim()} (${error.name}; FLOWER_DEBUG=1 shows where)`
        : String(error);
    process.stderr.write(`flower: ${line}\n`);
    return EXIT.failed;
  }
}

/** Help in `--lang` when it is valid; asking for help never fails on another option's value. */
function helpLocale(parsed: ParsedCommand): Locale {
  const lang = parsed.values.lang;
  return resolveLocale(typeof lang === "string" ? localeOfTag(lang) : undefined);
}

/**
 * FLOWER_LANG=fr is passed over (LANG decides); one line says so, unless `--lang` on the line decides
 * anyway. A usage error on `--lang` itself is the flag's own.
 */
function noteUnknownLanguage(argv: string[]): void {
  const unknown = unknownLanguageSetting();
  if (unknown === undefined || argv.some((arg) => arg === "--lang" || arg.startsWith("--lang="))) return;
  const used = resolveLocale();
  process.stderr.write(`${USAGE_TEXT[used].langVariable(unknown, used)}\n`);
}

// `flower show | head` closes the pipe early: that is the reader being done, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// `flower …` or `npx flower …` in every line printed for the person to type (invocation.ts).
setInvocation(detectInvocation(process.env, process.argv[1]));
const code = await main(process.argv.slice(2));
process.exitCode = code;
// Whatever still holds the event loop (a child the SDK has not reaped yet) must not keep the command alive.
setTimeout(() => process.exit(code), 2_000).unref();
