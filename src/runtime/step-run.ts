/**
 * The per-step loop: attempts, generations, and the handoff switch between them.
 *
 * Its record has one writer, the ledger (step-ledger.ts): everything that changes it (events from hooks,
 * the store and the session stream; a session's outcome; a handoff) is handed to the ledger, which folds
 * it in and saves it at once. This file decides what happens next.
 *
 * Two rules learned from failures live here (the rest of the switch is in handoff/switch.ts):
 * - A handoff is not a failure: it never counts as an attempt and ignores maxAttempts. So the only brake
 *   on a window below the role's start-up floor is maxGenerations.
 * - A stop (Ctrl-C) during the writing turn lets the handoff finish and stops right after it: cutting the
 *   turn would only leave a degraded handoff to continue from.
 */
import { existsSync } from "node:fs";
import type { Options } from "@anthropic-ai/claude-agent-sdk";
import type { StderrSink } from "../agents/spawn-claude.js";
import type { DocumentSpec } from "../documents/spec.js";
import { StepFailedError } from "../errors.js";
import type { ResolvedGoal } from "../goal/goal-option.js";
import { HandoffPolicy } from "../handoff/policy.js";
import { degradedError } from "../handoff/degraded.js";
import { readEditedHandoff } from "../handoff/edited-file.js";
import { withCutCalls } from "../handoff/cut-calls.js";
import { withPlan } from "../handoff/plan.js";
import { withPersonsPrompt, withPersonsWords } from "../handoff/person.js";
import { handoffPrompt } from "../handoff/prompt.js";
import { freezeForSuccessor, produceHandoff, type FrozenForSuccessor } from "../handoff/switch.js";
import type { Locale } from "../locale/locale.js";
import type { StepRecord, StepResult, StepSettings, WorkflowMembership } from "../records/step-record.js";
import type { RewriteReport } from "../store/passes/report.js";
import type { FlowerEvent } from "./events.js";
import type { HandoffRequestSource } from "./handoff-request.js";
import { storedGoal, type GoalChange } from "./frozen-goal.js";
import { judgeGoal, type Judgement, type ReviewSession } from "./goal-judge.js";
import type { SessionOutcome } from "./session-outcome.js";
import { runSession, type QueryFunction } from "./session-run.js";
import { isFileSystemError, NOT_FROZEN } from "./not-frozen.js";
import { StepLedger } from "./step-ledger.js";
import { freezeStepDocument } from "./step-document.js";
import { isStartOverflow, SUCCESSOR_OVERFLOW_MESSAGE, TASK_OVERFLOW_MESSAGE } from "./successor-overflow.js";
import { StderrTail } from "./stderr-tail.js";
import { CANNOT_PASS, CONTINUE_AFTER_FAILURE, FLOOR_MESSAGE } from "./text.js";

/** What a step needs from the runtime around it: wiring, no decisions. */
export interface StepEnvironment {
  /** Persists the record (every change goes to disk at once: a crash loses nothing). */
  save(record: StepRecord): void;
  /** The earlier record of this step name, if any (run() starts afresh but keeps it). */
  earlier(step: string): StepRecord | undefined;
  /**
   * SDK options for one session; `sink` receives what its hooks observe (spills, denials), `stderr` what
   * the child writes on stderr.
   */
  sessionOptions(session: {
    resume?: string;
    writing: boolean;
    sink: (event: FlowerEvent) => void;
    stderr?: StderrSink;
  }): Options;
  /** Takes the credentials out of a text (the child's stderr, an error message). @default unchanged */
  redact?(text: string): string;
  /**
   * Runs before each session (the workbench index is refreshed so the prompt lists what is on disk;
   * a resumed session's local transcript tail is recovered into the store).
   */
  beforeSession(resume?: string): Promise<void>;
  /** Subscribes to the store's load report for one session; returns the unsubscribe function. */
  watchLoads(sessionId: string, listener: (report: RewriteReport) => void): () => void;
  /** The event bus: what the user sees. */
  emit(event: FlowerEvent): void;
  /** SDK options for the goal guard's reviewer: a fresh session with read-only tools (only with a goal). */
  reviewerOptions?(): Options;
  query: QueryFunction;
  now(): Date;
  /** Requests of `flower handoff` addressed to this driver (the lease's); absent: nobody can ask. */
  handoffRequests?: HandoffRequestSource;
}

export interface StepPlan {
  step: string;
  agent: string;
  prompt: string;
  policy: HandoffPolicy;
  /** Recorded on the step (what `continue` runs it with); optional for the loop's own tests. */
  settings?: StepSettings;
  locale: Locale;
  workspace: string;
  /** Where handoffs are frozen; null without a workbench (the handoff still happens, in the prompt only). */
  notesDir: string | null;
  maxAttempts: number;
  stopSignal: AbortSignal;
  /** Continue an existing record instead of starting fresh. */
  continuation?: { record: StepRecord; prompt: string };
  /** Part of a workflow run (recorded on the step). */
  workflow?: WorkflowMembership;
  /** The document the step must end with, frozen to `notesDir` under the run id. */
  freeze?: { spec: DocumentSpec; run: string; notesDir: string };
  /** The goal guard (SPEC §8): checks flower runs when the session completes, and how often to send it back. */
  goal?: { goal: ResolvedGoal; logDir: string; env: NodeJS.ProcessEnv; change?: GoalChange | null };
}

/** The CLI's answer to a resume of a session it has no transcript for. */
const NO_CONVERSATION = /no conversation found/i;

/** The writing turn is never stopped from outside. */
const NEVER = new AbortController().signal;

/** The reviewer's session is short and never hands off. */
const NO_HANDOFF = new HandoffPolicy({ enabled: false });

export class StepRun {
  readonly #plan: StepPlan;
  readonly #env: StepEnvironment;
  readonly #ledger: StepLedger;

  constructor(plan: StepPlan, env: StepEnvironment) {
    this.#plan = plan;
    this.#env = env;
    const earlier = plan.continuation ? undefined : env.earlier(plan.step);
    this.#ledger = new StepLedger({
      step: plan.step,
      agent: plan.agent,
      prompt: plan.prompt,
      policy: plan.policy,
      ...(plan.settings ? { settings: plan.settings } : {}),
      ...(plan.continuation ? { continued: plan.continuation.record } : {}),
      ...(earlier ? { earlier } : {}),
      ...(plan.workflow ? { workflow: plan.workflow } : {}),
      save: (record) => env.save(record),
      emit: (event) => env.emit(event),
      now: () => env.now(),
    });
    if (plan.goal)
      this.#ledger.guardStart(
        plan.goal.goal.guardRounds,
        storedGoal(plan.goal.goal),
        plan.goal.change ?? null,
      );
  }

  /** A copy of the record as it stands. */
  get record(): StepRecord {
    return this.#ledger.record;
  }

  async #session(resume: string | undefined, prompt: string, writing: boolean): Promise<SessionOutcome> {
    const plan = this.#plan;
    const env = this.#env;
    const ledger = this.#ledger;
    await env.beforeSession(resume);
    const sink = (event: FlowerEvent) => ledger.accept(event, writing);
    const unwatch = resume
      ? env.watchLoads(resume, (report) =>
          sink({ type: "store-load", step: plan.step, sessionId: resume, ...report }),
        )
      : () => {};
    const stderr = new StderrTail((text) => this.#redact(text));
    try {
      return await runSession({
        step: plan.step,
        options: env.sessionOptions({ ...(resume ? { resume } : {}), writing, sink, stderr }),
        stderr,
        prompt,
        policy: plan.policy,
        generation: ledger.generationNumber,
        writing,
        sink,
        onSession: (sessionId) => {
          if (!writing) ledger.onSession(sessionId);
        },
        stopSignal: writing ? NEVER : plan.stopSignal,
        query: env.query,
        ...(env.handoffRequests && !writing
          ? { requested: () => env.handoffRequests!.pending() !== null }
          : {}),
      });
    } finally {
      unwatch();
    }
  }

  async run(): Promise<StepResult> {
    const plan = this.#plan;
    const ledger = this.#ledger;
    let resume: string | undefined;
    let prompt = plan.prompt;
    const pendingFile = plan.continuation?.record.pendingHandoff ?? null;
    const pendingPrompt = plan.continuation?.record.pendingPrompt ?? null;
    if (plan.continuation) {
      if (pendingFile !== null || pendingPrompt !== null) {
        // Stopped between a handoff and the successor's start: start the successor now, from the file
        // as it is on disk (a person may have edited it), never from the burned session.
        prompt = pendingFile ? this.#editedHandoffPrompt(pendingFile) : pendingPrompt!;
        ledger.expectGeneration();
      } else {
        resume = plan.continuation.record.sessionId ?? undefined;
        prompt = plan.continuation.prompt;
        if (!ledger.hasHistory) ledger.expectGeneration();
      }
    } else {
      ledger.expectGeneration();
    }
    ledger.save();
    this.#env.emit({
      type: "step-start",
      step: plan.step,
      attempt: ledger.attempts + 1,
      generation: ledger.generationNumber,
      resume,
    });

    /** maxAttempts counts per run()/continue() call; record.attempts keeps the step's whole history. */
    let failedHere = 0;
    while (true) {
      const outcome = await this.#session(resume, prompt, false);
      ledger.account(outcome, true);

      if (outcome.kind === "completed") {
        ledger.answer(outcome.resultText);
        if (plan.freeze) this.#freeze(plan.freeze, outcome.resultText);
        if (!plan.goal) return ledger.finish("done");
        // The agent's "done" is a claim: flower's own checks decide (SPEC G1).
        const judgement: Judgement = await this.#judge();
        if (judgement.kind === "passed") return ledger.finish("done");
        if (judgement.kind === "not-met") return ledger.finish("goal-not-met");
        if (judgement.kind === "stopped") return ledger.finish("stopped");
        // A guard round: the same session (the successor, after a handoff) gets the evidence.
        resume = ledger.sessionId ?? undefined;
        prompt = judgement.message;
        continue;
      }
      if (outcome.kind === "stopped") return ledger.finish("stopped");

      // With handoff off, auto-compact is the CLI's own answer to a full context; an overflow that still
      // reaches us is an ordinary failure, not a reason to switch sessions behind the user's back.
      if (outcome.kind === "overflow" && !plan.policy.enabled) outcome.kind = "failed";

      if (outcome.kind === "failed") {
        // A stop request (Ctrl-C, SIGTERM) that came while the session was failing wins over a retry:
        // systemd's SIGTERM reaches the child too, and its death is not a reason to start another.
        if (plan.stopSignal.aborted) return ledger.finish("stopped");
        const reason = this.#redact(outcome.error ?? "unknown error");
        // `-v` shows all the child said on stderr (the reason quotes its last lines).
        if (outcome.stderr.length > 0)
          this.#env.emit({ type: "claude-stderr", step: plan.step, lines: outcome.stderr });
        // A driver killed right after its session started leaves a record naming a session the store
        // never received. Resuming it can never work: the session is started afresh instead, from the
        // prompt it was started with, in the same generation (not an attempt: nothing was tried).
        if (resume !== undefined && outcome.mainResponses === 0 && NO_CONVERSATION.test(reason)) {
          ledger.addError(`${reason.slice(0, 300)} (never stored; started afresh)`);
          resume = undefined;
          prompt = this.#startingPrompt();
          continue;
        }
        // Said once, with what to do about it, when another attempt would get the same answer.
        const said = outcome.cannotPass ? CANNOT_PASS[plan.locale](outcome.cannotPass, reason) : reason;
        ledger.failAttempt(outcome, said);
        failedHere += 1;
        if (failedHere >= plan.maxAttempts || outcome.limitReached || outcome.cannotPass) {
          const result = ledger.finish("failed");
          throw new StepFailedError(
            plan.step,
            outcome.limitReached
              ? `a limit was reached, not retried: ${reason}`
              : outcome.cannotPass
                ? said
                : `${failedHere} of ${plan.maxAttempts} attempts failed; last: ${reason}`,
            { cause: result },
          );
        }
        this.#env.emit({
          type: "retry",
          step: plan.step,
          attempt: ledger.attempts,
          maxAttempts: plan.maxAttempts,
          reason,
        });
        // A session that got somewhere is resumed with a note; one that never answered is simply tried
        // again as it was started (the same prompt: the task, a successor's handoff, or a continuation).
        if (outcome.sessionId && outcome.mainResponses > 0) {
          resume = outcome.sessionId;
          prompt = CONTINUE_AFTER_FAILURE[plan.locale](reason.slice(0, 300));
        }
        continue;
      }

      // handoff-due or overflow: switch generations — unless a successor overflowed before its first answer.
      if (isStartOverflow(outcome, ledger.generations, resume !== undefined)) {
        const error = outcome.error ?? "prompt is too long";
        const message =
          ledger.generations > 1
            ? SUCCESSOR_OVERFLOW_MESSAGE[plan.locale](error)
            : TASK_OVERFLOW_MESSAGE[plan.locale](error, prompt.length);
        ledger.addError(message);
        const result = ledger.finish("failed");
        throw new StepFailedError(plan.step, message, { cause: result });
      }
      if (ledger.generations >= plan.policy.maxGenerations) {
        const message = FLOOR_MESSAGE[plan.locale]({
          handoffs: ledger.generations - 1,
          max: plan.policy.maxGenerations,
          at: plan.policy.at,
        });
        ledger.addError(message);
        const result = ledger.finish("failed");
        throw new StepFailedError(plan.step, message, { cause: result });
      }
      const successorPrompt = await this.#handOff(outcome);
      if (plan.stopSignal.aborted) return ledger.finish("stopped");
      ledger.expectGeneration();
      resume = undefined;
      prompt = successorPrompt;
    }
  }

  /**
   * The prompt the current generation was started with: the step's task for the first, else the last
   * handoff as it is on disk now (the successor of a handoff reads the file).
   */
  #startingPrompt(): string {
    const plan = this.#plan;
    const record = this.#ledger.record;
    const handoff = record.generations > 1 ? record.handoffs.at(-1) : undefined;
    if (handoff && existsSync(handoff)) return this.#editedHandoffPrompt(handoff);
    return plan.prompt;
  }

  /**
   * The step's answer becomes its frozen document (degraded when unusable: the step is still done and
   * the run goes on). A file that cannot be written fails the step: the next step would have nothing.
   */
  #freeze(freeze: NonNullable<StepPlan["freeze"]>, answer: string | null): void {
    const plan = this.#plan;
    try {
      const { record, error, event } = freezeStepDocument({
        ...freeze,
        step: plan.step,
        answer,
        locale: plan.locale,
        now: this.#env.now(),
      });
      this.#ledger.froze(record, error);
      this.#env.emit(event);
    } catch (cause) {
      const message = `could not freeze the ${freeze.spec.kind} document: ${cause instanceof Error ? cause.message : String(cause)}`;
      this.#ledger.addError(message);
      const result = this.#ledger.finish("failed");
      throw new StepFailedError(plan.step, message, { cause: result });
    }
  }

  /** Runs the goal's checks (and the reviewer) and decides; the ledger records every result. */
  async #judge(): Promise<Judgement> {
    const plan = this.#plan;
    const guard = plan.goal!;
    return judgeGoal({
      goal: guard.goal,
      locale: plan.locale,
      workspace: plan.workspace,
      logDir: guard.logDir,
      task: plan.prompt,
      stopSignal: plan.stopSignal,
      env: guard.env,
      ledger: this.#ledger,
      review: (prompt) => this.#review(prompt),
    });
  }

  /**
   * One reviewer session: fresh (never the coordinator's), read-only, its cost added to the step. Its
   * events are not the coordinator's and are not shown; its verdict is.
   */
  async #review(prompt: string): Promise<ReviewSession> {
    const plan = this.#plan;
    const env = this.#env;
    if (!env.reviewerOptions) throw new Error("the runtime gave no reviewer options for a goal with review");
    const outcome = await runSession({
      step: plan.step,
      options: env.reviewerOptions(),
      prompt,
      policy: NO_HANDOFF,
      generation: this.#ledger.generationNumber,
      writing: true,
      sink: () => {},
      onSession: () => {},
      stopSignal: plan.stopSignal,
      query: env.query,
    });
    this.#ledger.account(outcome, false);
    return {
      answer: outcome.resultText,
      sessionId: outcome.sessionId,
      error: outcome.kind === "completed" ? null : (outcome.error ?? `the session ended ${outcome.kind}`),
      stopped: outcome.kind === "stopped",
    };
  }

  #redact(text: string): string {
    return this.#env.redact ? this.#env.redact(text) : text;
  }

  /** The successor's prompt from the frozen file as a person left it; an empty or binary file degrades. */
  #editedHandoffPrompt(path: string): string {
    const plan = this.#plan;
    const edited = readEditedHandoff(path, { step: plan.step, task: plan.prompt, locale: plan.locale });
    if (edited.unusable !== null) this.#ledger.addError(degradedError(edited.unusable, plan.locale));
    return edited.handoff.promptBlock(plan.locale);
  }

  /** Writes (or degrades) the handoff, freezes it, records it, and returns the successor's first prompt. */
  async #handOff(outcome: SessionOutcome): Promise<string> {
    const plan = this.#plan;
    const ledger = this.#ledger;
    const burned = outcome.sessionId ?? ledger.sessionId;
    const context = outcome.context || ledger.context;

    const cutCalls = outcome.cutCalls;
    // A person's request (flower handoff) pending now rides on this handoff, whatever brought it on.
    const request = this.#env.handoffRequests?.pending() ?? null;
    if (request !== null) {
      this.#env.handoffRequests!.take(request);
      ledger.personAsked(request);
      this.#env.emit({ type: "handoff-request", step: plan.step, by: request.by, next: request.next });
    }
    let turns = 0;
    const written = await produceHandoff({
      step: plan.step,
      task: plan.prompt,
      locale: plan.locale,
      workspace: plan.workspace,
      window: plan.policy.window,
      cannotWrite:
        outcome.kind === "overflow"
          ? (outcome.error ?? "prompt is too long")
          : burned
            ? null
            : "no session to write the handoff",
      prompt: withPersonsPrompt(
        handoffPrompt(plan.locale, { used: context, window: plan.policy.window, cutCalls }),
        request,
        plan.locale,
      ),
      // Called once, and once more when a section came back weak (the follow-up turn).
      write: async (prompt) => {
        if (turns++ === 0) {
          this.#env.emit({
            type: "handoff",
            step: plan.step,
            phase: "writing",
            generation: ledger.generationNumber,
            context,
            window: plan.policy.window,
          });
        }
        const writing = await this.#session(burned!, prompt, true);
        ledger.account(writing, false);
        const usable = writing.kind === "completed" && !!writing.resultText;
        return {
          text: usable ? writing.resultText : null,
          error: usable ? null : (writing.error ?? `the writing turn ended ${writing.kind}`),
          context: writing.context || context,
        };
      },
    });
    // Whatever the model wrote (or the degraded path assembled), the cut calls and the plan at the
    // switch (the latest TodoWrite, handoff/plan.ts) reach the successor.
    const withCalls = withCutCalls(written.handoff, cutCalls, plan.locale);
    const withWords = withPersonsWords(withCalls, request, plan.locale);
    const produced = { ...written, handoff: withPlan(withWords, ledger.plan, plan.locale) };
    const freezing = {
      notesDir: plan.notesDir,
      step: plan.step,
      locale: plan.locale,
      workspace: plan.workspace,
      now: this.#env.now(),
    };
    let frozen: FrozenForSuccessor;
    try {
      frozen = freezeForSuccessor(produced.handoff, freezing);
    } catch (error) {
      // A full disk or a read-only notes folder: the successor starts from the record's copy of the
      // handoff (as without a workbench) instead of the step dying between two generations.
      if (!isFileSystemError(error)) throw error;
      frozen = freezeForSuccessor(produced.handoff, { ...freezing, notesDir: null });
      ledger.addError(NOT_FROZEN[plan.locale](`${error.code}: ${error.message}`));
    }
    const successorPrompt = frozen.successor.promptBlock(plan.locale);
    ledger.handedOff(burned, produced, frozen, successorPrompt, cutCalls.length, outcome.finishedCalls);
    this.#env.emit({
      type: "handoff",
      step: plan.step,
      phase: "done",
      generation: ledger.generationNumber,
      context,
      window: plan.policy.window,
      degraded: produced.why !== null,
      path: frozen.path,
      sections: frozen.successor.sections(),
      ...(produced.why !== null ? { why: produced.why } : {}),
      ...(produced.weak.length > 0 ? { weak: produced.weak } : {}),
      cutCalls: cutCalls.length,
      finishedCalls: outcome.finishedCalls,
    });
    return successorPrompt;
  }
}
