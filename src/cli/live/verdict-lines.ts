/**
 * The last lines of a live run that ended goal-not-met: the verdict, then what failed — each failing
 * check of the last run with its reason and its log, or the reviewer's criteria not met. They come after
 * the agent's answer, so a claim such as "Done: wrote out.txt." is never the last thing on the screen
 * under a verdict that contradicts it.
 */
import { checkFailureText } from "../../goal/check-failure.js";
import type { Locale } from "../../locale/locale.js";
import type { StepRecord } from "../../records/step-record.js";
import { invocation } from "../../locale/invocation.js";
import { cut, oneLine } from "./terminal-text.js";

const TEXT = {
  en: {
    verdict: (step: string) =>
      `${step}: GOAL NOT MET (the answer above is the agent's claim, not the verdict)`,
    checks: (failed: number, total: number) =>
      `  ${failed} of ${total} ${total === 1 ? "check" : "checks"} failed in the last run:`,
    check: (index: number, command: string, reason: string) => `  x ${index}. ${command} — ${reason}`,
    log: (path: string) => `       log ${path}`,
    criteria: "  the reviewer found criteria not met:",
    criterion: (criterion: string, evidence: string) => `  x ${criterion}${evidence ? ` — ${evidence}` : ""}`,
    why: (why: string) => `  ! ${why}`,
    evidence: (command: string) => `  every round's evidence: ${command}`,
  },
  zh: {
    verdict: (step: string) => `${step}: 目标未达成(上面的回答是智能体的说法,不是结论)`,
    checks: (failed: number, total: number) => `  最后一次检查 ${total} 项中 ${failed} 项没通过:`,
    check: (index: number, command: string, reason: string) => `  x ${index}. ${command} — ${reason}`,
    log: (path: string) => `       日志 ${path}`,
    criteria: "  评审认为未满足的标准:",
    criterion: (criterion: string, evidence: string) => `  x ${criterion}${evidence ? ` — ${evidence}` : ""}`,
    why: (why: string) => `  ! ${why}`,
    evidence: (command: string) => `  每一轮的证据: ${command}`,
  },
} as const satisfies Record<Locale, unknown>;

/**
 * The verdict block for a goal-not-met step. `showCommand` is the `flower show …` line that lists every
 * round's evidence; it is said before the failures, so the failures stay the last lines.
 */
export function verdictLines(
  record: StepRecord | undefined,
  step: string,
  showCommand: string,
  locale: Locale,
): string[] {
  const text = TEXT[locale];
  const lines = [text.verdict(step), text.evidence(showCommand)];
  const guard = record?.guard;
  if (!guard) return lines;
  const review = guard.reviews.at(-1);
  const checkRun = guard.checkRuns.at(-1);
  const failed = checkRun?.results.filter((result) => !result.passed) ?? [];
  if (guard.why && failed.length === 0) lines.push(text.why(cut(oneLine(guard.why), 300)));
  if (checkRun && failed.length > 0) {
    lines.push(text.checks(failed.length, checkRun.results.length));
    for (const result of failed) {
      lines.push(
        text.check(
          result.index,
          cut(oneLine(result.command), 100),
          cut(oneLine(checkFailureText(result, locale)), 120),
        ),
      );
      // The path on a line of its own, whole: it is what a person opens next.
      lines.push(text.log(result.logPath));
    }
  }
  const notMet = review?.criteria.filter((criterion) => criterion.verdict === "not-met") ?? [];
  if (review && notMet.length > 0 && failed.length === 0) {
    lines.push(text.criteria);
    for (const criterion of notMet)
      lines.push(
        text.criterion(cut(oneLine(criterion.criterion), 120), cut(oneLine(criterion.evidence), 120)),
      );
  }
  return lines;
}

/**
 * `flower show <step>` with the options of the printed continue line (`--run-dir`, `--workspace`,
 * `--store`): the same place, another command. Without a continue line (the demo), the bare command.
 */
export function showCommandFor(continueCommand: string, step: string): string {
  const quoted = /^[\w./:@%+=,-]+$/u.test(step) ? step : `'${step.replace(/'/g, `'\\''`)}'`;
  const firstLine = continueCommand.split("\n", 1)[0] ?? "";
  const options = /^(?:npx )?flower continue (?:'(?:[^']|'\\'')*'|\S+)(.*)$/u.exec(firstLine)?.[1] ?? "";
  return `${invocation()} show ${quoted}${options}`;
}
