/**
 * The goal guard's decision at the end of a work session (docs/workflows.md): "done" is decided by checks
 * flower runs itself, not by the agent's word.
 *
 * When the coordinator's session completes, flower runs the goal's checks in the workspace. All pass →
 * (with `review`) a reviewer with a fresh context judges each acceptance criterion → passed. A failing
 * check or a criterion not met → the coordinator is sent back with the evidence (a guard round), as
 * long as rounds are left; after the last round the step ends goal-not-met. A reviewer's answer that
 * cannot be read ends the step goal-not-met at once: sending the coordinator back would not make the
 * reviewer readable, and passing would be exactly the silent "done" the guard exists to prevent.
 *
 * Decides and reports; the ledger's guard page (guard-books.ts) records, through the ledger, the step
 * record's one writer.
 */
import path from "node:path";
import { writeFileAtomically } from "../../fs/atomic-write.js";
import { allPassed, runChecks, type CheckResult } from "../../goal/checks.js";
import type { ResolvedGoal } from "../../goal/goal-option.js";
import { guardRoundMessage } from "../../goal/guard-message.js";
import { parseReviewVerdict } from "../../goal/review-verdict.js";
import { reviewPrompt, reviewRoundMessage } from "../../goal/review-text.js";
import type { Locale } from "../../locale/locale.js";
import type { CheckResultRecord } from "../../records/guard-record.js";
import type { GuardBooks } from "../books/guard-books.js";
import { GUARD_TEXT } from "./guard-text.js";

/** What the reviewer session gave back. */
export interface ReviewSession {
  answer: string | null;
  sessionId: string | null;
  /** Why the session did not complete; null when it did. */
  error: string | null;
  stopped: boolean;
}

export interface JudgeInput {
  goal: ResolvedGoal;
  locale: Locale;
  workspace: string;
  /** Where `goal-check-<n>.run-<r>.log` and `goal-review-<n>.md` go. */
  logDir: string;
  /** The step's task: what the reviewer reads when no frozen document was given. */
  task: string;
  stopSignal: AbortSignal;
  /** The checks' environment. */
  env: NodeJS.ProcessEnv;
  /** Where every result is recorded (the ledger's guard page). */
  books: GuardBooks;
  /** Runs one reviewer session with this prompt. */
  review: (prompt: string) => Promise<ReviewSession>;
}

export type Judgement =
  { kind: "passed" } | { kind: "send-back"; message: string } | { kind: "not-met" } | { kind: "stopped" };

export async function judgeGoal(input: JudgeInput): Promise<Judgement> {
  const { goal, books, locale } = input;
  const text = GUARD_TEXT[locale];
  let results: CheckResult[] = [];
  if (goal.checks.length > 0) {
    try {
      results = await runChecks(goal.checks, {
        workspace: input.workspace,
        logDir: input.logDir,
        // One log per run, numbered over the whole record: `continue` restarts the rounds, not the runs.
        run: books.checkRuns + 1,
        env: input.env,
        signal: input.stopSignal,
      });
    } catch (error) {
      if (input.stopSignal.aborted) return { kind: "stopped" };
      throw error;
    }
    books.checkRun(results.map(toRecord));
    if (!allPassed(results)) {
      const failing = results.filter((result) => !result.passed);
      return sendBack(input, {
        cause: "checks",
        failing: failing.length,
        total: results.length,
        notMet: 0,
        passedChecks: results.filter((result) => result.passed).map((result) => result.command),
        message: (round) => guardRoundMessage({ round, rounds: goal.guardRounds, results, locale }),
        why: () =>
          text.checksStillFail(
            goal.guardRounds,
            failing.map((result) => result.command),
          ),
      });
    }
  }
  const passedChecks = results.map((result) => result.command);
  if (goal.review) {
    const prompt = reviewPrompt({
      locale,
      requirementsText: goal.requirementsText,
      goalText: goal.goalText,
      task: input.task,
    });
    const session = await input.review(prompt);
    if (session.stopped) return { kind: "stopped" };
    const number = books.reviews + 1;
    const answerPath = session.answer ? path.join(input.logDir, `goal-review-${number}.md`) : null;
    if (answerPath) writeFileAtomically(answerPath, session.answer!);
    const verdict = session.error
      ? { criteria: [], outcome: "degraded" as const, why: text.reviewerFailed(session.error) }
      : parseReviewVerdict(session.answer);
    books.reviewed({
      sessionId: session.sessionId,
      outcome: verdict.outcome,
      criteria: verdict.criteria,
      why: verdict.why,
      answerPath,
    });
    if (verdict.outcome === "degraded") {
      books.end("goal-not-met", passedChecks, text.reviewDegraded(verdict.why ?? ""));
      return { kind: "not-met" };
    }
    if (verdict.outcome === "not-met") {
      const notMet = verdict.criteria.filter((criterion) => criterion.verdict === "not-met");
      return sendBack(input, {
        cause: "review",
        failing: 0,
        total: results.length,
        notMet: notMet.length,
        passedChecks,
        message: (round) =>
          reviewRoundMessage({ round, rounds: goal.guardRounds, criteria: verdict.criteria, locale }),
        why: () =>
          text.criteriaNotMet(
            goal.guardRounds,
            notMet.map((criterion) => criterion.criterion),
          ),
      });
    }
  }
  books.end("passed", passedChecks, null);
  return { kind: "passed" };
}

/** One more guard round when rounds are left; goal-not-met when they are used up. */
function sendBack(
  input: JudgeInput,
  round: {
    cause: "checks" | "review";
    failing: number;
    total: number;
    notMet: number;
    passedChecks: string[];
    message: (round: number) => string;
    why: () => string;
  },
): Judgement {
  const { books, goal } = input;
  if (books.rounds >= goal.guardRounds) {
    books.end("goal-not-met", round.passedChecks, round.why());
    return { kind: "not-met" };
  }
  books.round(round.cause, round.failing, round.total, round.notMet);
  return { kind: "send-back", message: round.message(books.rounds) };
}

function toRecord(result: CheckResult): CheckResultRecord {
  const { outputBytes: _outputBytes, ...kept } = result;
  return kept;
}
