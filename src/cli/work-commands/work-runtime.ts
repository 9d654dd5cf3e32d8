/**
 * What the commands on a run's work share: one name (a run, or a step), the checkout (`--workspace`),
 * the run directory and the store, and a runtime on them that reads the run's records (from the store
 * too) before it answers.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../../errors.js";
import { resolveLocale, type Locale } from "../../locale/locale.js";
import { runDirectory } from "../../storage/files.js";
import type { Runtime } from "../../runtime/runtime.js";
import { parseLang, parseNonEmpty, type ParsedCommand } from "../command-line/args.js";
import { storeOption } from "../command-line/store-option.js";
import { USAGE_TEXT } from "../command-line/usage-text.js";
import { WORK_TEXT, type WorkText } from "./work-text.js";
import { joinStore } from "../join-store.js";

export interface WorkCommand {
  rt: Runtime;
  name: string;
  locale: Locale;
  text: WorkText;
  workspace: string;
  runDir: string;
}

/** Validates the command line, then opens the runtime (an unreachable store is one line, exit 1). */
export async function workCommand(
  parsed: ParsedCommand,
  command: string,
  what: string,
): Promise<WorkCommand> {
  const locale = resolveLocale(parseLang(parsed.values.lang));
  const text = WORK_TEXT[locale];
  const [name, extra] = parsed.positionals;
  if (name === undefined || name.trim() === "") throw new UsageError(text.oneName(command, what));
  if (extra !== undefined) throw new UsageError(USAGE_TEXT[locale].unexpected(command, extra));
  const workspace = resolve(parseNonEmpty("--workspace", parsed.values.workspace, locale) ?? ".");
  if (!existsSync(workspace) || !statSync(workspace).isDirectory())
    throw new UsageError(USAGE_TEXT[locale].workspaceMissing(workspace));
  const runDir = runDirectory(parseNonEmpty("--run-dir", parsed.values["run-dir"], locale));
  const store = storeOption(parsed.values);
  // Nothing is made in a folder that has no runs: the name cannot be found there.
  if (store.spec.kind !== "postgres" && !existsSync(runDir)) throw new UsageError(text.noRuns(runDir));
  // A shared store is reached before the runtime makes the run directory: an unreachable one leaves nothing.
  // Its connection is the runtime's: one pool per process.
  const { reachStore, handOver } = await import("../../storage/backing-store.js");
  const reached = await reachStore(store.spec);
  const { Runtime } = await import("../../runtime/runtime.js");
  const rt = await handOver(
    reached,
    () =>
      new Runtime({
        workspace,
        runDir,
        locale,
        store: store.spec,
        ...(reached ? { _internal: { reached } } : {}),
      }),
  );
  await joinStore(rt);
  return { rt, name: name.trim(), locale, text, workspace, runDir };
}
