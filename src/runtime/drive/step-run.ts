/**
 * The per-step loop: attempts, generations, and the handoff switch between them.
 *
 * Its record has one writer, the ledger (step-ledger.ts): everything that changes it (events from hooks,
 * the store and the session stream; a session's outcome; a handoff) is handed to the ledger, which folds
 * it in and saves it at once. This file decides what happens next.
 *
 * How a generation hands over to the next is generation-switch.ts; the reviewer's session is
 * reviewer-session.ts. Two rules learned from failures live here (the rest of the switch is in
 * handoff/switch.ts):
 * - A handoff is not a failure: it never counts as an attempt and ignores maxAttempts. So the only brake
 *   on a window below the role's start-up floor is maxGenerations.
 * - A stop (Ctrl-C) during the writing turn lets the handoff finish and stops right after it: cutting the
 *   turn would only leave a degraded handoff to continue from.
 * - A budget (run-spend.ts) is a stop of its own: every booked response is weighed against it, and once
 *   the run's figure reaches it the step stops at the next message boundary, exactly as on Ctrl-C, and
 *   ends `budget-reached`. The writing turn is not cut by it either; no new session starts past it.
 */
import { DEFAULTS } from "../../defaults.js";
import { StepFailedError } from "../../errors.js";
import type { StepRecord, StepResult } from "../../records/step-record.js";
import { reachedBudget, type Budget } from "../../records/run-spend.js";
import type { FlowerEvent } from "../events.js";
import { storedGoal } from "../judge/frozen-goal.js";
import {
  editedHandoffPrompt,
  handOff,
  startingPrompt,
  switchRefused,
  type SwitchContext,
} from "../generations/generation-switch.js";
import { judgeGoal, type Judgement } from "../judge/goal-judge.js";
import { driftEvidence, measureProgress } from "../judge/drift-watch.js";
import { reviewerSession } from "../judge/reviewer-session.js";
import type { SessionOutcome } from "../session/session-outcome.js";
import { runSession } from "../session/session-run.js";
import { StepLedger } from "../books/step-ledger.js";
import { freezeStepDocument } from "./step-document.js";
import type { StepEnvironment, StepPlan } from "./step-plan.js";
import { StderrTail } from "../session/stderr-tail.js";
import { CANNOT_PASS, CONTINUE_AFTER_FAILURE } from "../step-loop-text.js";
import { REWOUND_TO_TURN, workNote } from "../files/resumed-files-text.js";
import type { PersonMessage } from "../../records/person-messages.js";
import { PERSON_SAID } from "../person/person-text.js";

export type { StepEnvironment, StepPlan } from "./step-plan.js";

/** The CLI's answer to a resume of a session it has no transcript for. */
const NO_CONVERSATION = /no conversation found/i;

/** The writing turn is never stopped from outside. */
const NEVER = new AbortController().signal;

export class StepRun {
  readonly #plan: StepPlan;
  readonly #env: StepEnvironment;
  readonly #ledger: StepLedger;
  readonly #switch: SwitchContext;
  /** A rewind by turn: the first resume goes on from this transcript entry (record.resumeAt). */
  #resumeAt: string | undefined;
  /**
   * A person's stop or a reached budget: what sessions, checks and the reviewer are stopped by. Its own
   * controller, fed by the person's signal (not AbortSignal.any, whose signal may be collected while a
   * session still listens to it).
   */
  readonly #stop = new AbortController();
  /** The run's other steps' spend, read once: they do not run while this step does. */
  readonly #spentElsewhere: number;
  /** Messages a session was resumed with because they came as the step finished (#lateMessage). */
  readonly #latePrompts = new Set<string>();
  /** The budget reached and the figure counted against it; null while none is. */
  #budgetHit: { budget: Budget; spent: number } | null = null;

  constructor(plan: StepPlan, env: StepEnvironment) {
    this.#plan = plan;
    this.#env = env;
    if (plan.stopSignal.aborted) this.#stop.abort();
    else plan.stopSignal.addEventListener("abort", () => this.#stop.abort(), { once: true });
    this.#spentElsewhere = plan.budgets?.length ? (env.spentElsewhere?.() ?? 0) : 0;
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
    this.#switch = {
      step: plan.step,
      task: plan.prompt,
      locale: plan.locale,
      workspace: plan.workspace,
      policy: plan.policy,
      notesDir: plan.notesDir,
      ledger: this.#ledger,
      emit: (event) => env.emit(event),
      now: () => env.now(),
      ...(env.handoffRequests ? { handoffRequests: env.handoffRequests } : {}),
      ...(plan.recall ? { recall: plan.recall } : {}),
    };
    if (plan.goal)
      this.#ledger.guard.start(
        plan.goal.goal.guardRounds,
        storedGoal(plan.goal.goal),
        plan.goal.change ?? null,
      );
  }

  /** A copy of the record as it stands. */
  get record(): StepRecord {
    return this.#ledger.record;
  }

  async #session(
    resume: string | undefined,
    prompt: string | PersonMessage,
    writing: boolean,
  ): Promise<SessionOutcome> {
    const plan = this.#plan;
    const env = this.#env;
    const ledger = this.#ledger;
    await env.beforeSession(resume);
    ledger.settle();
    if (resume !== undefined && !writing) await this.#messagesGivenBefore(resume);
    // A step that ends in a document hears what was said to the run in its prompt (person-text.ts).
    const opening = !writing && plan.freeze && env.messages ? await env.messages.refresh() : [];
    if (opening.length > 0 && typeof prompt === "string")
      prompt = `${prompt}\n\n${PERSON_SAID[plan.locale](opening)}`;
    const sink = (event: FlowerEvent) => {
      ledger.accept(event.type === "context" ? this.#withSpend(event) : event, writing);
      if (event.type === "usage") this.#overBudget();
    };
    // The files as this session finds them: a new generation's start, or where a resumed one goes on.
    if (!writing && env.work)
      await env.work.checkpoint(
        {
          kind: resume === undefined ? "start" : "resume",
          generation: ledger.generationNumber,
          session: resume ?? null,
        },
        sink,
      );
    const unwatch = resume
      ? env.watchLoads(resume, (report) =>
          sink({ type: "store-load", step: plan.step, sessionId: resume, ...report }),
        )
      : () => {};
    const stderr = new StderrTail((text) => this.#redact(text));
    try {
      return await runSession({
        step: plan.step,
        options: env.sessionOptions({
          ...(resume ? { resume } : {}),
          ...(resume !== undefined && this.#takeResumeAt(resume)),
          writing,
          sink,
          stderr,
          generation: () => ledger.generationNumber,
          ...(plan.recall ? { earlier: ledger.earlierGenerations() } : {}),
        }),
        stderr,
        prompt,
        policy: plan.policy,
        generation: ledger.generationNumber,
        writing,
        sink,
        onSession: (sessionId) => {
          if (!writing) ledger.onSession(sessionId);
        },
        stopSignal: writing ? NEVER : this.#stop.signal,
        query: env.query,
        ...(env.handoffRequests && !writing
          ? { requested: () => env.handoffRequests!.pending() !== null }
          : {}),
        // The writing turn gets none: a message said meanwhile is for the successor.
        ...(env.messages && !writing ? { messages: env.messages, lateMessages: !plan.freeze } : {}),
        ...(opening.length > 0 && typeof prompt === "string" ? { opening } : {}),
      });
    } finally {
      unwatch();
      // The session's transcript is stored now: the messages it was given leave the channel.
      if (!writing) await env.messages?.settle();
    }
  }

  /**
   * Before a session is resumed: the run's messages its stored transcript holds already were given to it
   * by a driver killed before it could clear them. They are booked (once) and cleared, not given again.
   */
  async #messagesGivenBefore(resume: string): Promise<void> {
    const env = this.#env;
    if (!env.messages || !env.messagesInTranscript) return;
    const waiting = await env.messages.refresh();
    if (waiting.length === 0) return;
    const held = await env.messagesInTranscript(
      resume,
      waiting.map((message) => message.id),
    );
    const ledger = this.#ledger;
    for (const message of waiting) {
      if (!held.has(message.id)) continue;
      env.messages.given(message);
      ledger.accept(
        {
          type: "person-message",
          step: this.#plan.step,
          id: message.id,
          by: message.by,
          at: message.at,
          text: message.text,
          generation: ledger.generationNumber,
        },
        false,
      );
    }
    await env.messages.settle();
  }

  /**
   * A person's messages that came as the session finished: the step goes on with them instead of
   * ending (they were said before it was over). The first is the resumed session's prompt, the rest
   * follow it. Null when none waits, after a stop, or in a step that ends in a document (its last
   * answer is the document: the run's next session gets them).
   */
  async #lateMessage(): Promise<PersonMessage | null> {
    const messages = this.#env.messages;
    if (!messages || this.#plan.freeze || this.#stop.signal.aborted || this.#ledger.sessionId === null)
      return null;
    // Each at most once as a prompt: a session that never said it started it must not loop.
    const next = (await messages.refresh()).find((message) => !this.#latePrompts.has(message.id));
    if (next === undefined) return null;
    this.#latePrompts.add(next.id);
    return next;
  }

  async run(): Promise<StepResult> {
    const plan = this.#plan;
    const ledger = this.#ledger;
    let resume: string | undefined;
    let prompt: string | PersonMessage = plan.prompt;
    const pendingFile = plan.continuation?.record.pendingHandoff ?? null;
    const pendingPrompt = plan.continuation?.record.pendingPrompt ?? null;
    if (plan.continuation) {
      if (pendingFile !== null || pendingPrompt !== null) {
        // Stopped between a handoff and the successor's start: start the successor now, from the file
        // as it is on disk (a person may have edited it), never from the burned session.
        prompt = pendingFile ? editedHandoffPrompt(this.#switch, pendingFile) : pendingPrompt!;
        ledger.expectGeneration();
      } else {
        resume = plan.continuation.record.sessionId ?? undefined;
        // Never got a session: it starts from its task, not from "continue".
        prompt = resume === undefined ? plan.prompt : plan.continuation.prompt;
        const at = plan.continuation.record.resumeAt;
        if (at !== undefined && at.sessionId === resume) {
          this.#resumeAt = at.uuid;
          prompt = `${prompt}\n\n${REWOUND_TO_TURN[plan.locale](at.turn)}`;
        }
        if (!ledger.hasHistory) ledger.expectGeneration();
      }
    } else {
      ledger.expectGeneration();
    }
    ledger.save();
    const note = await this.#beginWork(
      resume !== undefined || pendingFile !== null || pendingPrompt !== null,
    );
    if (note !== null) prompt = `${prompt}\n\n${note}`;
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
      // No session starts past the budget (a continue below it, a guard round after the crossing turn).
      if (this.#overBudget()) return this.#finish("budget-reached");
      const outcome = await this.#session(resume, prompt, false);
      ledger.account(outcome, true);

      if (outcome.kind === "completed") {
        const late = await this.#lateMessage();
        if (late !== null) {
          resume = ledger.sessionId ?? undefined;
          prompt = late;
          continue;
        }
        ledger.answer(outcome.resultText);
        // The frozen document and "done" go in one write: a driver killed between two writes left a
        // frozen step "running", and continue asked for the document again (archiving the first).
        if (plan.freeze) this.#freeze(plan.freeze, outcome.resultText);
        if (!plan.goal) return this.#finish("done");
        if (plan.freeze) ledger.save();
        // The agent's "done" is a claim: the goal's checks, which flower runs itself, decide.
        const judgement: Judgement = await this.#judge();
        if (judgement.kind === "passed") return this.#finish("done");
        if (judgement.kind === "not-met") return this.#finish("goal-not-met");
        if (judgement.kind === "stopped") return this.#finish(this.#stopStatus());
        // A guard round: the same session (the successor, after a handoff) gets the evidence.
        resume = ledger.sessionId ?? undefined;
        prompt = judgement.message;
        continue;
      }
      if (outcome.kind === "stopped") {
        if (outcome.replyCut)
          this.#env.emit({ type: "reply-cut", step: plan.step, waitedMs: DEFAULTS.stopGraceMs });
        return this.#finish(this.#stopStatus());
      }

      // With handoff off, auto-compact is the CLI's own answer to a full context; an overflow that still
      // reaches us is an ordinary failure, not a reason to switch sessions behind the user's back.
      if (outcome.kind === "overflow" && !plan.policy.enabled) outcome.kind = "failed";

      if (outcome.kind === "failed") {
        // A stop request (Ctrl-C, SIGTERM) that came while the session was failing wins over a retry:
        // systemd's SIGTERM reaches the child too, and its death is not a reason to start another.
        if (this.#stop.signal.aborted) return this.#finish(this.#stopStatus());
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
          prompt = startingPrompt(this.#switch);
          continue;
        }
        // Said once, with what to do about it, when another attempt would get the same answer.
        const said = outcome.cannotPass ? CANNOT_PASS[plan.locale](outcome.cannotPass, reason) : reason;
        ledger.failAttempt(outcome, said);
        failedHere += 1;
        if (failedHere >= plan.maxAttempts || outcome.limitReached || outcome.cannotPass) {
          const result = await this.#finish("failed");
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

      // handoff-due or overflow: switch generations — unless a switch cannot help (generation-switch.ts).
      const refused = switchRefused(
        this.#switch,
        outcome,
        resume !== undefined,
        typeof prompt === "string" ? prompt : prompt.text,
      );
      if (refused !== null) {
        ledger.addError(refused);
        const result = await this.#finish("failed");
        throw new StepFailedError(plan.step, refused, { cause: result });
      }
      const successorPrompt = await this.#handOff(outcome);
      if (plan.stopSignal.aborted) return this.#finish("stopped");
      // The writing turn may have crossed the budget: the successor is not started (continue starts it).
      if (this.#overBudget()) return this.#finish("budget-reached");
      if (await this.#watchDrift()) return this.#finish("stopped");
      ledger.expectGeneration();
      resume = undefined;
      prompt = successorPrompt;
    }
  }

  /**
   * The run's work begins or goes on: the ledger learns where the files are, and a continuation brings
   * them to the last checkpoint its transcript has (step-work.ts). Returns a note for the model when
   * files were put back or kept as they were; null otherwise.
   */
  async #beginWork(continuing: boolean): Promise<string | null> {
    const work = this.#env.work;
    if (!work) return null;
    const tracker = work.tracker;
    const ledger = this.#ledger;
    ledger.beginWork({
      run: tracker.run,
      workspace: this.#plan.workspace,
      isolated: tracker.owned,
      base: ledger.work?.base ?? tracker.base,
      start: null,
      tip: tracker.tip,
    });
    if (!continuing && tracker.tip === null) return null;
    const reconciled = await work.begin(ledger.work?.start ?? null, (event) => ledger.accept(event, false));
    if (reconciled === null || !continuing) return null;
    return workNote(reconciled, this.#plan.locale);
  }

  /** The entry a resumed session goes on from, once (a rewind by turn), as session options. */
  #takeResumeAt(resume: string): { resumeAt?: string } {
    const at = this.#resumeAt;
    this.#resumeAt = undefined;
    if (at === undefined) return {};
    this.#ledger.resumedAt(resume);
    return { resumeAt: at };
  }

  /**
   * Whether a budget is reached: the run's figure (its other steps' spend and this step's, every response
   * booked as it arrived) against each ceiling. The first time, the sessions' stop is aborted: the running
   * session stops at its next message boundary.
   */
  #overBudget(): boolean {
    if (this.#budgetHit !== null) return true;
    const budgets = this.#plan.budgets ?? [];
    if (budgets.length === 0) return false;
    const hit = reachedBudget(budgets, this.#spentElsewhere + this.#ledger.costUsd);
    if (hit === null) return false;
    this.#budgetHit = hit;
    this.#stop.abort();
    return true;
  }

  /** A context event with the run's spend of its nearest budget, for the live view; as it is without one. */
  #withSpend<E extends Extract<FlowerEvent, { type: "context" }>>(event: E): E {
    const budgets = this.#plan.budgets ?? [];
    if (budgets.length === 0) return event;
    const figure = this.#spentElsewhere + this.#ledger.costUsd;
    const nearest = [...budgets].sort((a, b) => a.usd - a.offset - (b.usd - b.offset))[0]!;
    return { ...event, budget: { spentUsd: nearest.offset + figure, budgetUsd: nearest.usd } };
  }

  /** A stop's status: a person's stop wins; otherwise the budget stopped the step. */
  #stopStatus(): StepRecord["status"] {
    return this.#plan.stopSignal.aborted || this.#budgetHit === null ? "stopped" : "budget-reached";
  }

  /** The files as the step leaves them (its end or its stop), then the step's end in the record. */
  async #finish(status: StepRecord["status"]): Promise<StepResult> {
    const work = this.#env.work;
    const hit = this.#budgetHit;
    if (status === "budget-reached" && hit !== null)
      this.#ledger.budgetStop({
        by: hit.budget.by,
        spentUsd: hit.budget.offset + this.#spentElsewhere + this.#ledger.costUsd,
        budgetUsd: hit.budget.usd,
        at: this.#env.now().toISOString(),
      });
    if (work)
      await work.checkpoint(
        {
          kind: status === "stopped" || status === "budget-reached" ? "stop" : "end",
          generation: this.#ledger.generationNumber,
          session: this.#ledger.sessionId,
        },
        (event) => this.#ledger.accept(event, false),
      );
    return this.#ledger.finish(status);
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

  /**
   * At a handoff: where the run stands (the goal's checks, the generation's files), recorded and shown;
   * true when the drift watch pauses the step here for a person (drift-watch.ts).
   */
  async #watchDrift(): Promise<boolean> {
    const plan = this.#plan;
    const ledger = this.#ledger;
    const record = ledger.record;
    const generation = record.history.at(-1);
    if (!generation) return false;
    const progress = await measureProgress({
      generation,
      record,
      goal: plan.goal,
      workspace: plan.workspace,
      signal: plan.stopSignal,
    });
    ledger.progress(generation.generation, progress);
    this.#env.emit({
      type: "generation-progress",
      step: plan.step,
      generation: generation.generation,
      progress,
    });
    if (plan.stopSignal.aborted) return false;
    const history = ledger.record.history;
    const driftAfter = plan.settings?.driftAfter ?? DEFAULTS.driftAfter;
    const evidence = driftEvidence(history, driftAfter, record.drift?.after ?? 0);
    if (evidence === null) return false;
    ledger.driftPause({
      after: generation.generation,
      generations: evidence.map((entry) => entry.generation),
      at: this.#env.now().toISOString(),
    });
    this.#env.emit({
      type: "drift-pause",
      step: plan.step,
      generations: evidence.map((entry) => ({ generation: entry.generation, progress: entry.progress! })),
      handoff: ledger.record.pendingHandoff,
    });
    return true;
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
      stopSignal: this.#stop.signal,
      env: guard.env,
      books: this.#ledger.guard,
      review: (prompt) =>
        reviewerSession({
          step: plan.step,
          options: this.#env.reviewerOptions?.(),
          ledger: this.#ledger,
          stopSignal: this.#stop.signal,
          query: this.#env.query,
          prompt,
        }),
    });
  }

  #redact(text: string): string {
    return this.#env.redact ? this.#env.redact(text) : text;
  }

  /** Writes (or degrades) the handoff, freezes it, records it, and returns the successor's first prompt. */
  async #handOff(outcome: SessionOutcome): Promise<string> {
    return handOff(this.#switch, outcome, (burned, prompt) => this.#session(burned, prompt, true));
  }
}
