/**
 * `flower say <run|step> "TEXT"`: a person's message to a run. Options: command-line/command-options.ts
 * `say`; store: command-line/store-option.ts; the message: runtime/person/say.ts and
 * storage/say-target.ts; words: say-text.ts.
 */
import { EXIT, UsageError } from "../../errors.js";
import { resolveLocale, type Locale } from "../../locale/locale.js";
import { sayToRun, type RunWaits } from "../../runtime/person/say.js";
import { openSayTarget, type OpenSayTarget } from "../../storage/say-target.js";
import { runDirectory as runDirectoryPath } from "../../storage/files.js";
import { parseLang, parseNonEmpty, type ParsedCommand } from "../command-line/args.js";
import { invocation } from "../../locale/invocation.js";
import { storeOption } from "../command-line/store-option.js";
import { SAY_TEXT, type SayText } from "../say-text.js";

/**
 * `flower say <run|step> "TEXT"`: leaves the words for the run — in this run directory, or on any
 * machine of a shared store (`--store`, FLOWER_STORE) — and returns. The run's driver gives them to the
 * main thread as a person's message at its next message boundary and says so in its own terminal; a run
 * that nobody drives now (stopped, paused, queued) keeps them for its next session. It writes no step
 * record (the record has one writer, the driver: records/person-messages.ts says why). A run that has
 * ended is refused in one line (exit 2): nobody would read the message.
 */
export async function sayCommand(parsed: ParsedCommand): Promise<number> {
  // --workspace comes with a line carried from another command: taken, not needed here.
  const locale = resolveLocale(parseLang(parsed.values.lang));
  const text = SAY_TEXT[locale];
  const [name, words, extra] = parsed.positionals;
  if (name === undefined) throw new UsageError(text.which);
  if (words === undefined || words.trim() === "") throw new UsageError(text.noText);
  if (extra !== undefined) throw new UsageError(text.unexpected(extra));
  const runDir = runDirectoryPath(parseNonEmpty("--run-dir", parsed.values["run-dir"]));
  const store = storeOption(parsed.values);
  const target = openSayTarget(store.spec, runDir);
  try {
    return await say(target, name, words, text, store.spec.kind === "postgres", locale);
  } finally {
    await target.close();
  }
}

async function say(
  target: OpenSayTarget,
  name: string,
  words: string,
  text: SayText,
  shared: boolean,
  locale: Locale,
): Promise<number> {
  const said = await sayToRun(target, name, words);
  if (said.kind === "unknown") throw new UsageError(text.unknown(name, target.where, said.known));
  if (said.kind === "ended") throw new UsageError(text.ended(said.run, said.status));
  if (said.waits === "driven" && said.holder !== null)
    process.stdout.write(
      `${text.driven(said.run, said.step ?? said.run, said.holder.pid, said.holder.host)}\n`,
    );
  else
    process.stdout.write(
      `${text.kept(said.run, waitsOf(said.waits), goOn(said.run, said.waits, said.fleet, shared, locale))}\n`,
    );
  return EXIT.ok;
}

function waitsOf(waits: RunWaits): Exclude<RunWaits, "driven"> {
  return waits === "driven" ? "stopped" : waits;
}

/** The line that starts the run's next session, as the person types it; empty when a worker will. */
function goOn(run: string, waits: RunWaits, fleet: boolean, shared: boolean, locale: Locale): string {
  const flower = invocation();
  const store = shared ? " --store …" : "";
  if (waits === "queued") return "";
  if (waits === "paused" && fleet) return `${flower} approve ${run}${store}`;
  const continueLine = `${flower} continue ${run}${store}`;
  return waits === "budget-reached"
    ? `${continueLine} --budget ${locale === "zh" ? "<更多>" : "<more>"}`
    : continueLine;
}
