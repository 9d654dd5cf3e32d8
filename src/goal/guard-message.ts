/**
 * What a coordinator is told when the goal's checks fail (a guard round), and the one-line
 * status for the live view.
 *
 * The message goes into the coordinator's context, which has to last the whole run, so it is bounded:
 * a few failing checks get their last lines, many failing checks get one line each and a pointer to
 * the logs. It names exactly what flower ran and what came out, because the coordinator's own picture
 * is built from subagent reports that lean optimistic.
 */
import path from "node:path";
import { ConfigurationError } from "../errors.js";
import type { Locale } from "../locale/locale.js";
import type { CheckResult } from "./checks.js";
import { formatSeconds } from "./checks.js";

/** The parts of a check result a message needs; a stored result (from the run record) has them too. */
export type CheckOutcome = Pick<
  CheckResult,
  | "index"
  | "command"
  | "passed"
  | "exitCode"
  | "signal"
  | "timedOut"
  | "notFound"
  | "expectedExitCode"
  | "pattern"
  | "timeoutMs"
  | "logPath"
  | "tail"
  | "reason"
>;

export interface GuardRoundMessageOptions {
  /** This round, 1-based. */
  round: number;
  /** The most rounds there will be (`guardRounds`). */
  rounds: number;
  /** Every check's result of this round, passing ones included (they are counted, not listed). */
  results: readonly CheckOutcome[];
  locale: Locale;
  /**
   * Further findings for this round, shown before the instruction (e.g. a reviewer's "not met"
   * criteria). Counted against `maxChars`.
   */
  notes?: readonly string[];
  /**
   * Upper bound on the message's length in characters (the instruction lines always fit).
   * @default 4_000
   */
  maxChars?: number;
}

const DEFAULT_MAX_CHARS = 4_000;
/** Lines of output per failing check in the message; the log has the rest. */
const MESSAGE_TAIL_LINES = 12;
const MESSAGE_TAIL_CHARS = 900;
/** Below this many characters a tail says nothing; the check gets its status line only. */
const MIN_TAIL_CHARS = 120;
const COMMAND_CHARS = 160;
/** More failing checks than this are summarised: past ten, the list crowds out every tail. */
const MAX_LISTED = 10;

const TEXT = {
  en: {
    header: (round: number, rounds: number, failing: number, total: number) =>
      `[flower goal guard] Round ${round} of ${rounds}: ${failing} of ${total} ${total === 1 ? "check" : "checks"} failed. flower ran the goal's checks itself in the workspace; the work is not done until they pass.`,
    lastRound: "This is the last round: if a check still fails after it, the step ends goal-not-met.",
    log: "log",
    lastLines: "last lines",
    more: (count: number, directory: string) =>
      `…and ${count} more failing ${count === 1 ? "check" : "checks"}; logs in ${directory}`,
    instruction:
      "Keep working on the failing checks. Do not claim success without running these checks: have a worker run each command and report the command and its result. When you are done, end your turn; flower runs the checks again.",
    timedOut: (seconds: string) => `timed out after ${seconds} s`,
    notFound: "command not found (exit 127)",
    notExecutable: "command not executable (exit 126)",
    exit: (code: number, expected: number) => `exit ${code} (expected ${expected})`,
    signal: (signal: string) => `ended by ${signal}`,
    noMatch: (code: number, pattern: string) => `exit ${code}, but the output does not match /${pattern}/`,
    status: (round: number, rounds: number, failing: number, total: number) =>
      failing === 0
        ? `guard round ${round}/${rounds} · all ${total} ${total === 1 ? "check passes" : "checks pass"}`
        : `guard round ${round}/${rounds} · ${failing} of ${total} ${total === 1 ? "check" : "checks"} failing`,
  },
  zh: {
    header: (round: number, rounds: number, failing: number, total: number) =>
      `[flower 目标守门] 第 ${round}/${rounds} 轮:${total} 项检查中 ${failing} 项未通过。检查由 flower 自己在工作区里运行;检查通过之前,工作没有完成。`,
    lastRound: "这是最后一轮:之后仍有检查不通过,这一步就以 goal-not-met 结束。",
    log: "日志",
    lastLines: "最后几行",
    more: (count: number, directory: string) => `……另有 ${count} 项检查未通过,日志在 ${directory}`,
    instruction:
      "继续处理未通过的检查。没有跑过这些检查,就不要声称成功:让执行者逐条运行命令,并在汇报里写出命令和结果。做完后结束本轮,flower 会重新运行检查。",
    timedOut: (seconds: string) => `超时(${seconds} 秒后被终止)`,
    notFound: "命令不存在(退出码 127)",
    notExecutable: "命令无法执行(退出码 126)",
    exit: (code: number, expected: number) => `退出码 ${code}(应为 ${expected})`,
    signal: (signal: string) => `被信号 ${signal} 终止`,
    noMatch: (code: number, pattern: string) => `退出码 ${code},但输出不匹配 /${pattern}/`,
    status: (round: number, rounds: number, failing: number, total: number) =>
      failing === 0
        ? `守门第 ${round}/${rounds} 轮 · ${total} 项检查全部通过`
        : `守门第 ${round}/${rounds} 轮 · ${total} 项检查中 ${failing} 项未通过`,
  },
} as const satisfies Record<Locale, unknown>;

/** How a failing check failed, in the coordinator's language. */
export function describeFailure(result: CheckOutcome, locale: Locale): string {
  const text = TEXT[locale];
  if (result.timedOut) return text.timedOut(formatSeconds(result.timeoutMs));
  if (result.notFound && result.expectedExitCode !== 127) return text.notFound;
  if (result.exitCode === 126 && result.expectedExitCode !== 126) return text.notExecutable;
  if (result.exitCode === null) return result.signal ? text.signal(result.signal) : (result.reason ?? "?");
  if (result.expectedExitCode !== null && result.exitCode !== result.expectedExitCode)
    return text.exit(result.exitCode, result.expectedExitCode);
  if (result.pattern !== null) return text.noMatch(result.exitCode, result.pattern);
  return result.reason ?? "?";
}

/**
 * The message that sends the coordinator back to work after a failed guard round: the round, each
 * failing check with its command, how it failed, its log path and its last lines, and the instruction
 * not to claim success without running the checks. At most `maxChars` long.
 */
export function guardRoundMessage(options: GuardRoundMessageOptions): string {
  const { round, rounds, results, locale } = validate(options);
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const text = TEXT[locale];
  const failing = results.filter((result) => !result.passed);
  const head = [text.header(round, rounds, failing.length, results.length)];
  if (round === rounds) head.push(text.lastRound);
  const opening = head.join(" ");
  const notes = (options.notes ?? []).map((note) => note.trim()).filter((note) => note !== "");
  const closing = [...notes, text.instruction].join("\n\n");

  // Entries without tails first: as many as fit, the rest summarised in one line.
  const entries = failing.map((result) => entryLines(result, locale));
  let budget = maxChars - opening.length - closing.length - 4;
  const shown: string[][] = [];
  for (const [position, entry] of entries.entries()) {
    const length = entry.join("\n").length + 2;
    const rest = entries.length - position - 1;
    const reserve = rest > 0 ? text.more(rest, logDirectory(failing)).length + 2 : 0;
    if (shown.length === MAX_LISTED || (length + reserve > budget && shown.length > 0)) break;
    shown.push(entry);
    budget -= length;
  }
  const hidden = failing.length - shown.length;
  if (hidden > 0) budget -= text.more(hidden, logDirectory(failing)).length + 2;

  // Then the tails, shared out evenly among the shown checks.
  const blocks = shown.map((entry, position) => {
    const share = Math.min(MESSAGE_TAIL_CHARS, Math.floor(budget / (shown.length - position)));
    const tail = tailBlock(failing[position]!.tail, share, text.lastLines);
    budget -= tail.length === 0 ? 0 : tail.length + 1;
    return tail.length === 0 ? entry.join("\n") : `${entry.join("\n")}\n${tail}`;
  });
  if (hidden > 0) blocks.push(text.more(hidden, logDirectory(failing)));
  const message = [opening, ...blocks, closing].join("\n\n");
  if (message.length <= maxChars) return message;
  // Only long notes or a small maxChars get here: cut the middle, keep the instruction.
  return `${message.slice(0, maxChars - text.instruction.length - 3)}…\n\n${text.instruction}`;
}

function entryLines(result: CheckOutcome, locale: Locale): string[] {
  const text = TEXT[locale];
  const command = oneLine(result.command, COMMAND_CHARS);
  return [
    `${result.index}. \`${command}\` — ${describeFailure(result, locale)}`,
    `   ${text.log}: ${result.logPath}`,
  ];
}

/** The last lines that fit in `chars`, indented; empty when not even a useful piece fits. */
function tailBlock(tail: string, chars: number, label: string): string {
  if (tail.trim() === "" || chars < MIN_TAIL_CHARS) return "";
  const room = chars - label.length - 6;
  const kept: string[] = [];
  let used = 0;
  for (const line of tail.split("\n").slice(-MESSAGE_TAIL_LINES).reverse()) {
    const shown = `   | ${line.length > 200 ? `${line.slice(0, 199)}…` : line}`;
    if (used + shown.length + 1 > room) break;
    kept.unshift(shown);
    used += shown.length + 1;
  }
  return kept.length === 0 ? "" : [`   ${label}:`, ...kept].join("\n");
}

function oneLine(command: string, max: number): string {
  const flat = command.replace(/\s*\n\s*/g, " ⏎ ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function logDirectory(results: readonly CheckOutcome[]): string {
  const logPath = results[0]?.logPath ?? "";
  return path.dirname(logPath);
}

export interface GuardStatusOptions {
  round: number;
  rounds: number;
  results: readonly Pick<CheckOutcome, "passed">[];
  locale: Locale;
}

/** The live view's line: `guard round 2/3 · 1 of 4 checks failing` / `守门第 2/3 轮 · 4 项检查中 1 项未通过`. */
export function guardStatusLine(options: GuardStatusOptions): string {
  const { round, rounds, results, locale } = validate(options);
  const failing = results.filter((result) => !result.passed).length;
  return TEXT[locale].status(round, rounds, failing, results.length);
}

function validate<T extends { round: number; rounds: number; results: readonly unknown[]; locale: Locale }>(
  options: T,
): T {
  if (!Number.isInteger(options.rounds) || options.rounds < 1)
    throw new ConfigurationError("rounds", options.rounds, "a whole number of at least 1");
  if (!Number.isInteger(options.round) || options.round < 1 || options.round > options.rounds)
    throw new ConfigurationError(
      "round",
      options.round,
      `a whole number from 1 to rounds (${options.rounds})`,
    );
  if (!Array.isArray(options.results))
    throw new ConfigurationError("results", options.results, "an array of check results");
  if (options.locale !== "en" && options.locale !== "zh")
    throw new ConfigurationError("locale", options.locale, '"en" or "zh"');
  const notes = (options as { notes?: unknown }).notes;
  if (notes !== undefined && (!Array.isArray(notes) || notes.some((note) => typeof note !== "string")))
    throw new ConfigurationError("notes", notes, "an array of strings");
  const maxChars = (options as { maxChars?: unknown }).maxChars;
  if (
    maxChars !== undefined &&
    (typeof maxChars !== "number" || !Number.isInteger(maxChars) || maxChars < 600)
  )
    throw new ConfigurationError("maxChars", maxChars, "a whole number of at least 600");
  return options;
}
