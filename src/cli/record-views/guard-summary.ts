/**
 * `flower show`'s goal guard section: how the guard ended, every run of the checks with each
 * check's exit code, duration and log, every reviewer verdict, and the flagged subagent claims. The
 * record holds the evidence; this lists it so nobody has to open the manifest to see why a step ended
 * goal-not-met.
 */
import { checkFailureText } from "../../goal/check-failure.js";
import type { Locale } from "../../locale/locale.js";
import type { CheckResultRecord, GuardRecord, StoredGoal } from "../../records/guard-record.js";
import { CHANGED_TEXT } from "./changed-text.js";
import { cut } from "../live/terminal-text.js";

const TEXT = {
  en: {
    title: "goal guard",
    outcome: { passed: "passed", "goal-not-met": "GOAL NOT MET", running: "running" },
    rounds: (rounds: number, max: number) => `${rounds} of ${max} guard ${max === 1 ? "round" : "rounds"}`,
    claims: (count: number) => `${count} flagged ${count === 1 ? "claim" : "claims"}`,
    run: (number: number, round: number, passed: number, total: number) =>
      `checks, run ${number} (${round === 0 ? "after the first session" : `after round ${round}`}): ${passed} of ${total} pass`,
    exit: (code: number | null, signal: string | null) =>
      code !== null ? `exit ${code}` : `signal ${signal ?? "?"}`,
    log: "log",
    review: (number: number, round: number, outcome: string) =>
      `review ${number} (${round === 0 ? "after the first session" : `after round ${round}`}): ${outcome}`,
    verdicts: { met: "met", "not-met": "not met", "cannot-tell": "cannot tell" },
    degraded: "could not be read",
    answer: "answer",
    flagged: "flagged claims",
    subagent: "a subagent",
    goal: "goal",
    switched: (at: string) => `goal switched at ${at} (asked for)`,
    ignored: (at: string) => `noticed at ${at}`,
  },
  zh: {
    title: "目标守门",
    outcome: { passed: "通过", "goal-not-met": "目标未达成", running: "进行中" },
    rounds: (rounds: number, max: number) => `守门 ${rounds}/${max} 轮`,
    claims: (count: number) => `${count} 份汇报被标为无证据的声称`,
    run: (number: number, round: number, passed: number, total: number) =>
      `检查第 ${number} 次(${round === 0 ? "第一个会话结束后" : `第 ${round} 轮之后`}):${total} 项中 ${passed} 项通过`,
    exit: (code: number | null, signal: string | null) =>
      code !== null ? `退出码 ${code}` : `信号 ${signal ?? "?"}`,
    log: "日志",
    review: (number: number, round: number, outcome: string) =>
      `评审第 ${number} 次(${round === 0 ? "第一个会话结束后" : `第 ${round} 轮之后`}):${outcome}`,
    verdicts: { met: "满足", "not-met": "未满足", "cannot-tell": "无法判断" },
    degraded: "结论读不出来",
    answer: "原文",
    flagged: "被标出的声称",
    subagent: "子代理",
    goal: "目标",
    switched: (at: string) => `目标在 ${at} 按要求切换`,
    ignored: (at: string) => `发现于 ${at}`,
  },
} as const satisfies Record<Locale, unknown>;

function checkLine(result: CheckResultRecord, locale: Locale): string {
  const text = TEXT[locale];
  const parts = [
    `${result.passed ? "ok" : "x "} ${result.index}. ${cut(result.command.replace(/\s+/g, " "), 100)}`,
    text.exit(result.exitCode, result.signal),
    `${result.durationMs} ms`,
  ];
  const reason = result.passed ? "" : checkFailureText(result, locale);
  if (reason) parts.push(cut(reason, 100));
  parts.push(`${text.log} ${result.logPath}`);
  return `    ${parts.join(" · ")}`;
}

const commands = (goal: StoredGoal) => goal.checks.map((check) => check.command);

/**
 * The goal the guard runs (recorded when the work began), every switch a person asked for (both
 * versions), and a goal offered later that was not used (runtime/judge/frozen-goal.ts).
 */
function goalLines(guard: GuardRecord, locale: Locale): string[] {
  const text = TEXT[locale];
  const words = CHANGED_TEXT[locale];
  const lines: string[] = [];
  if (guard.goal)
    lines.push(
      `  ${text.goal}: ${
        commands(guard.goal)
          .map((c) => `\`${cut(c, 100)}\``)
          .join(", ") || "-"
      }`,
    );
  for (const change of guard.goalSwitches ?? []) {
    const file = change.path ? ` · ${change.path}` : "";
    lines.push(
      `  ${text.switched(change.at)}: ${words.checks(commands(change.from), commands(change.to), true)}${file}`,
    );
  }
  const ignored = guard.ignoredGoal;
  // A switch asked for after it settles it: the record keeps it, the summary does not warn any more.
  const settled = (guard.goalSwitches ?? []).some((change) => ignored && change.at >= ignored.at);
  if (ignored && !settled) {
    const what = ignored.path ? words.changed("work", false) : words.offeredGoal(false);
    const file = ignored.path ? ` · ${ignored.path}` : "";
    lines.push(
      `  ! ${what} (${text.ignored(ignored.at)}): ${words.checks(commands(guard.goal ?? ignored.goal), commands(ignored.goal), false)}${file}`,
    );
  }
  return lines;
}

/** The section's lines, without a trailing blank line. */
export function guardSummary(guard: GuardRecord, locale: Locale): string[] {
  const text = TEXT[locale];
  const head = [text.outcome[guard.outcome ?? "running"], text.rounds(guard.rounds, guard.maxRounds)];
  if (guard.claimsFlagged > 0) head.push(text.claims(guard.claimsFlagged));
  const lines = [`${text.title}: ${head.join(" · ")}`];
  if (guard.why) lines.push(`  ! ${cut(guard.why, 300)}`);
  lines.push(...goalLines(guard, locale));
  guard.checkRuns.forEach((run, position) => {
    const passed = run.results.filter((result) => result.passed).length;
    lines.push(`  ${text.run(position + 1, run.round, passed, run.results.length)}`);
    for (const result of run.results) lines.push(checkLine(result, locale));
  });
  guard.reviews.forEach((review, position) => {
    const outcome = review.outcome === "degraded" ? text.degraded : text.verdicts[review.outcome];
    lines.push(`  ${text.review(position + 1, review.round, outcome)}`);
    for (const criterion of review.criteria) {
      const evidence = criterion.evidence ? ` — ${cut(criterion.evidence, 120)}` : "";
      lines.push(`    ${text.verdicts[criterion.verdict]}: ${cut(criterion.criterion, 120)}${evidence}`);
    }
    if (review.why) lines.push(`    ! ${cut(review.why, 200)}`);
    if (review.answerPath) lines.push(`    ${text.answer}: ${review.answerPath}`);
  });
  if (guard.claims.length > 0) {
    lines.push(`  ${text.flagged}:`);
    for (const claim of guard.claims.slice(-10))
      lines.push(`    - ${claim.agent ?? text.subagent}: "${cut(claim.excerpt, 120)}"`);
  }
  return lines;
}
