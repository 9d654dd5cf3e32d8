/**
 * The settings a live command (`flower "<task>"`, `flower continue`) is run with: the flags validated
 * before anything is written, a continued step's recorded settings adopted, credentials checked, the
 * runtime made, and the `flower continue` line printed for the user to type.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../../errors.js";
import { formatTokensShort } from "../../handoff/handoff-document-text.js";
import { resolveLocale, type Locale } from "../../locale/locale.js";
import type { NotifyTarget } from "../../notify/index.js";
import { notifyFor } from "./remembered-notify.js";
import { isDefaultRunDirectory } from "../../storage/files.js";
import type { StepRecord, StepSettings } from "../../records/step-record.js";
import {
  effectiveSettings,
  handoffOptionOf,
  type EffectiveSettings,
  type GivenSettings,
} from "../../runtime/drive/step-settings.js";
import type { Runtime } from "../../runtime/runtime.js";
import {
  parseBudget,
  parseLang,
  parseNonEmpty,
  parseNotify,
  parseRunDir,
  parseDriftAfter,
  parseHandoffRule,
  parseWindow,
  windowNote,
  type ParsedCommand,
} from "../command-line/args.js";
import { resolveProvider } from "../providers/credentials.js";
import { invocation, shellQuote } from "../../locale/invocation.js";
import { displayPath, makeOutput, type Output, type Supervised } from "./live-run.js";
import { describeProvider } from "../providers/providers.js";
import { storeHint } from "../store-hint.js";
import { storeOption, type StoreOption } from "../command-line/store-option.js";
import { CLI_TEXT } from "../cli-text.js";
import { USAGE_TEXT } from "../command-line/usage-text.js";
import { joinStore } from "../join-store.js";

export interface LiveSettings {
  output: Output;
  verbose: boolean;
  workspace: string;
  runDir: string;
  /**
   * What the flags name (--model, --max-budget-usd, --budget, --drift-after, --no-handoff, --window,
   * --handoff-rule, --lang), passed to the runtime as its options: only these override what a continued
   * step recorded (FLOWER_LANG / LANG and ANTHROPIC_MODEL do not).
   */
  given: GivenSettings;
  /**
   * The settings the step runs with, as `effectiveSettings` decides them in the runtime: for `continue`
   * with the step's record (`adoptRecorded`), else from the flags and the environment when first read
   * (`decided`). Decided once per process: the -v line and the small-window note read them.
   */
  effective: EffectiveSettings | undefined;
  /** The language of everything printed: --lang, else a continued step's, else FLOWER_LANG / LANG. */
  locale: Locale;
  /** `--review`: the goal guard's reviewer after the work. */
  review: boolean;
  /** `--store` / FLOWER_STORE. */
  store: StoreOption;
  /** `--notify`: told when the run pauses for a person or ends. */
  notify: NotifyTarget | undefined;
  /**
   * The run's own worktree (`--worktree`, or a continued run that was started with it): the runtime works
   * there, not in `workspace` (the checkout, where records and the printed lines stay).
   */
  worktree?: string;
}

/** Validates the options shared by run and continue, before anything is written. */
export function liveSettings(values: ParsedCommand["values"]): LiveSettings {
  // The language first: every usage error after it is in that language.
  const locale = resolveLocale(parseLang(values.lang));
  const window = parseWindow(values.window, locale);
  const rule = parseHandoffRule(values["handoff-rule"], locale);
  const model = parseNonEmpty("--model", values.model, locale);
  const maxBudgetUsd = parseBudget(values["max-budget-usd"], locale);
  const driftAfter = parseDriftAfter(values["drift-after"], locale);
  const budgetUsd = parseBudget(values.budget, locale, "--budget");
  const workspace = resolve(parseNonEmpty("--workspace", values.workspace, locale) ?? ".");
  if (!existsSync(workspace) || !statSync(workspace).isDirectory()) {
    throw new UsageError(USAGE_TEXT[locale].workspaceMissing(workspace));
  }
  const runDir = parseRunDir(values["run-dir"], locale);
  const store = storeOption(values);
  const notify = parseNotify(values.notify, locale);
  const given: GivenSettings = {
    ...(model !== undefined ? { model } : {}),
    ...(values["no-handoff"] === true ? { handoff: false } : {}),
    ...(window !== undefined ? { window } : {}),
    ...(rule !== undefined ? { rule } : {}),
    ...(maxBudgetUsd !== undefined ? { maxBudgetUsd } : {}),
    ...(budgetUsd !== undefined ? { budgetUsd } : {}),
    ...(driftAfter !== undefined ? { driftAfter } : {}),
    ...(values.lang !== undefined ? { locale } : {}),
  };
  const json = values.json === true;
  return {
    output: makeOutput(json, locale),
    verbose: values.verbose === true,
    workspace,
    runDir,
    given,
    effective: undefined,
    locale,
    review: values.review === true,
    store,
    notify,
  };
}

/**
 * `flower continue` shows and runs a step as it was started: its language (for the live view too) and
 * its handoff line, unless a flag names them — decided by `effectiveSettings`, as the runtime will
 * decide them. The runtime reports each override.
 */
export function adoptRecorded(settings: LiveSettings, recorded: StepSettings | undefined): void {
  if (!recorded) return;
  // The runtime passes the child process.env too (makeRuntime gives it no `env` of its own).
  settings.effective = effectiveSettings(settings.given, recorded, {
    env: process.env,
    locale: settings.locale,
  });
  const locale = settings.effective.settings.locale;
  if (locale !== settings.locale) {
    settings.locale = locale;
    settings.output = makeOutput(settings.output.json, locale);
  }
}

/**
 * The goal option of a direct run: with --review and no frozen goal, the reviewer judges the work
 * against the task as typed. (A workflow's work step passes the frozen goal's checks instead.)
 */
export function reviewGoal(settings: Pick<LiveSettings, "review">) {
  return settings.review ? { goal: { checks: [], review: true } } : {};
}

/**
 * The settings the step runs with: a continued step's as `adoptRecorded` decided them, else a new step's,
 * decided here when first read — once per process either way.
 */
export function decidedSettings(settings: LiveSettings): EffectiveSettings {
  return (settings.effective ??= effectiveSettings(settings.given, undefined, {
    env: process.env,
    locale: settings.locale,
  }));
}

/**
 * Refuses to start when no way to Claude is configured (the message lists every way in and points to
 * the offline demo); with -v, shows the provider, its region/project, the model and a masked credential.
 */
export function requireCredentials(settings: LiveSettings): void {
  // A window that works but is small: said once, before the run (and before a missing key is), when
  // --window is typed; a continued step's recorded window was noted when it started.
  const effective = decidedSettings(settings);
  const policy = effective.policy;
  const note =
    policy.enabled && effective.windowFrom === "given"
      ? windowNote(policy.window, policy.at, settings.locale)
      : undefined;
  if (note) settings.output.say(note);
  const provider = resolveProvider(process.env, {
    model: settings.given.model,
    locale: settings.locale,
    workspace: settings.workspace,
  });
  const text = CLI_TEXT[settings.locale];
  if (!settings.verbose) return;
  const say = settings.output.say;
  for (const line of describeProvider(provider, settings.locale)) say(line);
  say(
    policy.enabled
      ? text.window(formatTokensShort(policy.window), formatTokensShort(policy.at))
      : text.handoffOff,
  );
  say(text.workspace(settings.workspace));
}

/**
 * The runtime of a live command. Imported here, not at the top: a usage error found before this point
 * should not load the SDK. With a shared store, the store is reached first (an unreachable server is one
 * line, and nothing is written: the runtime makes the run directory and its records.db at once), then
 * joined (join-store.ts).
 */
export async function makeRuntime(
  settings: LiveSettings,
  onEvent: Runtime["options"]["onEvent"],
): Promise<Runtime> {
  const { reachStore, handOver } = await import("../../storage/backing-store.js");
  // The connection that reached the store is the runtime's: one pool per process.
  const reached = await reachStore(settings.store.spec);
  const { Runtime } = await import("../../runtime/runtime.js");
  const given = settings.given;
  const handoff = handoffOptionOf(given);
  const rt = await handOver(
    reached,
    () =>
      new Runtime({
        workspace: settings.worktree ?? settings.workspace,
        runDir: settings.runDir,
        workbench: true,
        ...(settings.worktree !== undefined ? { work: { isolated: true } } : {}),
        ...(handoff !== undefined ? { handoff } : {}),
        ...(given.locale !== undefined ? { locale: given.locale } : {}),
        ...(given.model ? { model: given.model } : {}),
        ...(given.maxBudgetUsd !== undefined ? { maxBudgetUsd: given.maxBudgetUsd } : {}),
        ...(given.driftAfter !== undefined ? { driftAfter: given.driftAfter } : {}),
        ...(given.budgetUsd !== undefined ? { budgetUsd: given.budgetUsd } : {}),
        ...(onEvent ? { onEvent } : {}),
        store: settings.store.spec,
        ...(reached ? { _internal: { reached } } : {}),
      }),
  );
  // A shared store is joined before any step starts; SQLite in the run directory has nothing to join.
  if (settings.store.spec.kind === "postgres") await joinStore(rt);
  return rt;
}

/**
 * `flower continue <step>` as the user should type it (`npx flower …` where that is how:
 * command-line/invocation.ts), with --store (see store-hint.ts), --run-dir and --workspace when not the
 * defaults. A store whose password was left out gets a note on the next line.
 */
export function continueCommand(
  step: string,
  settings: Pick<LiveSettings, "runDir" | "workspace"> & Partial<Pick<LiveSettings, "store" | "locale">>,
): string {
  const parts = [invocation(), "continue", shellQuote(step)];
  const store = storeHint(settings.store, settings.locale ?? "en");
  parts.push(...store.args.map(shellQuote));
  if (!isDefaultRunDirectory(settings.runDir))
    parts.push("--run-dir", shellQuote(displayPath(settings.runDir)));
  if (settings.workspace !== resolve("."))
    parts.push("--workspace", shellQuote(displayPath(settings.workspace)));
  return parts.join(" ") + (store.note === null ? "" : `\n  ${store.note}`);
}

/**
 * How a live run or continue of `name` (a step, or a workflow run's id) is supervised: the runtime, where
 * its lines go, and the `flower continue` line a stop prints.
 */
export function supervised(
  rt: Runtime,
  sink: Supervised["sink"],
  settings: LiveSettings,
  name: string,
): Supervised {
  return {
    rt,
    output: settings.output,
    sink,
    step: name,
    continueCommand: continueCommand(name, settings),
    // Given once, told on every continue of the run on this machine (remembered-notify.ts).
    notify: notifyFor(settings.runDir, name, settings.notify),
  };
}

/** The worktree a recorded run (or step) of its own works in, when it has one on this machine. */
export function recordedWorktree(records: readonly StepRecord[], name: string): string | undefined {
  const mine = records.filter((record) => record.step === name || record.run === name);
  const work = mine.map((record) => record.work).find((one) => one?.isolated === true);
  return work !== undefined && existsSync(work.workspace) ? work.workspace : undefined;
}
