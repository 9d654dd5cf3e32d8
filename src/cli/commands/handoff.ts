/**
 * `flower handoff <step> [--next "…"]`: asks the step's live driver to hand off at its next boundary.
 * Options: command-line/command-options.ts `handoff`; store: command-line/store-option.ts; the request:
 * runtime/generations/ask-for-handoff.ts and storage/request-target.ts; words: handoff-text.ts.
 */
import { EXIT, UsageError } from "../../errors.js";
import { resolveLocale } from "../../locale/locale.js";
import { requestHandoff } from "../../runtime/generations/ask-for-handoff.js";
import { openRequestTarget, type OpenRequestTarget } from "../../storage/request-target.js";
import { runDirectory as runDirectoryPath } from "../../storage/files.js";
import { parseLang, parseNonEmpty, type ParsedCommand } from "../command-line/args.js";
import { HANDOFF_TEXT, type HandoffText } from "../handoff-text.js";
import { storeOption } from "../command-line/store-option.js";

/**
 * `flower handoff <step> [--next "…"]`: asks the step's live driver — in this run directory, or on any
 * machine of a shared store (`--store`, FLOWER_STORE) — to hand off at its next message boundary, with
 * the person's words first in the handoff's next step (handoff/person.ts).
 *
 * It writes no step record: the record has one writer, the driver (records/handoff-requests.ts says why).
 * It leaves a request addressed to the lease it found live, and returns; the driver acts on it and says
 * so in its own terminal. Without a live driver (no lease, or its owner is gone by the rules a takeover
 * uses) it says so and exits 1: a stopped step starts its next generation with `flower continue`.
 */
export async function handoffCommand(parsed: ParsedCommand): Promise<number> {
  // --workspace comes with a line carried from another command: taken, not needed here.
  const text = HANDOFF_TEXT[resolveLocale(parseLang(parsed.values.lang))];
  const [step, extra] = parsed.positionals;
  if (step === undefined) throw new UsageError(text.which);
  if (extra !== undefined) throw new UsageError(text.unexpected(extra));
  const given = parsed.values.next;
  if (typeof given === "string" && given.trim() === "") throw new UsageError(text.emptyNext);
  const next = typeof given === "string" ? given.trim() : null;
  const runDir = runDirectoryPath(parseNonEmpty("--run-dir", parsed.values["run-dir"]));
  const store = storeOption(parsed.values);
  const records = openRequestTarget(store.spec, runDir);
  try {
    return await ask(records, step, next, text);
  } finally {
    await records.close();
  }
}

async function ask(
  records: OpenRequestTarget,
  step: string,
  next: string | null,
  text: HandoffText,
): Promise<number> {
  const asked = await requestHandoff(records, step, { next: next ?? undefined });
  if (asked.kind === "unknown") throw new UsageError(text.unknown(step, records.where, asked.known));
  if (asked.kind === "no-driver") {
    process.stderr.write(`${text.noDriver(step, asked.status)}\n`);
    return EXIT.failed;
  }
  process.stdout.write(`${text.asked(step, asked.holder.pid, asked.holder.host, next)}\n`);
  return EXIT.ok;
}
