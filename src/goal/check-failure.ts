/**
 * How a goal check failed, as data, and its words in each language. The runner decides the failure
 * once (check-result.ts) and the record keeps it, so `flower show` and the live view say it in the
 * reader's language; the result's `reason` keeps the English line for the log file, the events'
 * readers and records written before the failure was kept.
 */
import type { Locale } from "../locale/locale.js";

export type CheckFailure =
  /** `/bin/sh` itself could not be started (the message is the system's). */
  | { kind: "spawn-error"; message: string }
  | { kind: "aborted" }
  | { kind: "timed-out"; timeoutMs: number }
  /** Ended by a signal that was not flower's timeout. */
  | { kind: "signal"; signal: string | null }
  /** Exit 127; `name` is the missing word when the shell's message names it. */
  | { kind: "not-found"; name: string | null }
  | { kind: "not-executable" }
  | { kind: "exit-code"; exitCode: number; expected: number }
  | { kind: "no-match"; pattern: string };

export const CHECK_FAILURE_TEXT = {
  en: {
    spawnError: (message: string) => `could not start /bin/sh: ${message}`,
    aborted: "aborted",
    timedOut: (seconds: string) => `timed out after ${seconds} s`,
    signal: (signal: string | null) => `ended by ${signal ?? "a signal"}`,
    notFound: (name: string | null) => `command not found${name ? `: ${name}` : ""} (exit 127)`,
    notExecutable: "command not executable (exit 126)",
    exitCode: (code: number, expected: number) => `exit code ${code}, expected ${expected}`,
    noMatch: (pattern: string) => `output does not match /${pattern}/`,
  },
  zh: {
    spawnError: (message: string) => `无法启动 /bin/sh:${message}`,
    aborted: "已中止",
    timedOut: (seconds: string) => `超时(${seconds} 秒后被终止)`,
    signal: (signal: string | null) => (signal ? `被信号 ${signal} 终止` : "被信号终止"),
    notFound: (name: string | null) => `命令不存在${name ? `:${name}` : ""}(退出码 127)`,
    notExecutable: "命令无法执行(退出码 126)",
    exitCode: (code: number, expected: number) => `退出码 ${code}(应为 ${expected})`,
    noMatch: (pattern: string) => `输出不匹配 /${pattern}/`,
  },
} as const satisfies Record<Locale, unknown>;

/** Milliseconds as seconds for a message: `120` or `1.5`, without trailing zeros. */
export function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return Number.isInteger(seconds) ? String(seconds) : String(Number(seconds.toFixed(2)));
}

/**
 * The failure in the reader's language; null for a failure this version cannot read (a record
 * written by a later one), so the caller falls back to the stored English reason.
 */
export function describeCheckFailure(failure: CheckFailure, locale: Locale): string | null {
  const text = CHECK_FAILURE_TEXT[locale];
  switch (failure.kind) {
    case "spawn-error":
      return text.spawnError(failure.message);
    case "aborted":
      return text.aborted;
    case "timed-out":
      return text.timedOut(formatSeconds(failure.timeoutMs));
    case "signal":
      return text.signal(failure.signal);
    case "not-found":
      return text.notFound(failure.name);
    case "not-executable":
      return text.notExecutable;
    case "exit-code":
      return text.exitCode(failure.exitCode, failure.expected);
    case "no-match":
      return text.noMatch(failure.pattern);
    default:
      return null;
  }
}

/**
 * A failed check's reason for a view: in the reader's language when the result keeps its failure,
 * else the stored (English) reason, as records written before the failure was kept have it.
 */
export function checkFailureText(
  result: { failure?: CheckFailure | null; reason: string | null },
  locale: Locale,
): string {
  const described = result.failure ? describeCheckFailure(result.failure, locale) : null;
  return described ?? result.reason ?? "";
}
