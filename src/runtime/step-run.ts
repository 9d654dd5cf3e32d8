/**
 * The per-step loop: attempts, generations, and the handoff switch between them.
 *
 * This class is the ONLY writer of its step record. Everything that changes the record reaches it as an
 * event (spills, denials and store loads from hooks and the store; context and tool use from the session
 * stream) or as a return value (a session's outcome, a handoff), and is folded in here, then saved at once.
 *
 * Two rules learned from failures live here (the rest of the switch is in handoff/switch.ts):
 * - A handoff is not a failure: it never counts as an attempt and ignores maxAttempts. So the only brake
 *   on a window below the role's start-up floor is maxGenerations.
 * - A stop (Ctrl-C) during the writing turn lets the handoff finish and stops right after it: cutting the
 *   turn would only leave a degraded handoff to continue from.
 */
import type { Options } from "@anthropic-ai/claude-agent-sdk";
import { StepFailedError } from "../errors.js";
import { degradedError } from "../handoff/degraded.js";
import { readFrozenHandoff } from "../handoff/freeze.js";
import type { HandoffPolicy } from "../handoff/policy.js";
import { handoffPrompt } from "../handoff/prompt.js";
import { freezeForSuccessor, produceHandoff } from "../handoff/switch.js";
import { nearDue } from "../handoff/trigger.js";
import type { Locale } from "../locale/locale.js";
import type { RewriteReport } from "../store/passes/report.js";
import { sessionSpend } from "./accounting.js";
import type { FlowerEvent } from "./events.js";
import type { SessionOutcome } from "./session-outcome.js";
import { runSession, type QueryFunction } from "./session-run.js";
import {
  newStepRecord,
  toStepResult,
  type GenerationRecord,
  type StepRecord,
  type StepResult,
} from "../records/step-record.js";
import { CONTINUE_AFTER_FAILURE, FLOOR_MESSAGE } from "./text.js";

/** What a step needs from the runtime around it: wiring, no decisions. */
export interface StepEnvironment {
  /** Persists the record (every change goes to disk at once: a crash loses nothing). */
  save(record: StepRecord): void;
  /** The earlier record of this step name, if any (run() starts afresh but keeps it). */
  earlier(step: string): StepRecord | undefined;
  /** SDK options for one session; `sink` receives what its hooks observe (spills, denials). */
  sessionOptions(session: { resume?: string; writing: boolean; sink: (event: FlowerEvent) => void }): Options;
  /** Runs before each session (the workbench index is refreshed so the prompt lists what is on disk). */
  beforeSession(): Promise<void>;
  /** Subscribes to the store's load report for one session; returns the unsubscribe function. */
  watchLoads(sessionId: string, listener: (report: RewriteReport) => void): () => void;
  /** The event bus: what the user sees. */
  emit(event: FlowerEvent): void;
  query: QueryFunction;
  now(): Date;
}

export interface StepPlan {
  step: string;
  agent: string;
  prompt: string;
  policy: HandoffPolicy;
  locale: Locale;
  workspace: string;
  /** Where handoffs are frozen; null without a workbench (the handoff still happens, in the prompt only). */
  notesDir: string | null;
  maxAttempts: number;
  stopSignal: AbortSignal;
  /** Continue an existing record instead of starting fresh. */
  continuation?: { record: StepRecord; prompt: string };
}

/** The writing turn is never stopped from outside. */
const NEVER = new AbortController().signal;

export class StepRun {
  readonly #record: StepRecord;
  readonly #plan: StepPlan;
  readonly #env: StepEnvironment;
  /** The near warning was given in this generation (one per generation). */
  #warned = false;
  /** A new generation waits for its session to exist (see #expectGeneration). */
  #pendingGeneration = false;
  /** Spills and denials seen before this generation's first response: they belong to its first turn. */
  #early = { spills: 0, denials: 0 };

  constructor(plan: StepPlan, env: StepEnvironment) {
    this.#plan = plan;
    this.#env = env;
    this.#record = plan.continuation
      ? { ...plan.continuation.record, status: "running", pid: process.pid }
      : newStepRecord(plan.step, plan.agent, plan.prompt, env.now());
    // run() of a step name that already has a record starts afresh but keeps what the earlier run cost.
    const earlier = plan.continuation ? undefined : env.earlier(plan.step);
    if (earlier) {
      const { earlierRuns = [], ...rest } = earlier;
      this.#record.earlierRuns = [...earlierRuns, rest];
    }
  }

  /** A copy of the record as it stands. */
  get record(): StepRecord {
    return structuredClone(this.#record);
  }

  #save(): void {
    this.#env.save(this.#record);
  }

  #now(): string {
    return this.#env.now().toISOString();
  }

  /** The booked generation of the running session; undefined while a new one waits for its session. */
  get #generation(): GenerationRecord | undefined {
    return this.#pendingGeneration ? undefined : this.#record.history.at(-1);
  }

  /**
   * Folds one event into the record and shows it unless `silent` (the handoff-writing turn shows
   * nothing, but what its hooks did still counts).
   */
  #accept(event: FlowerEvent, silent: boolean): void {
    const record = this.#record;
    switch (event.type) {
      case "spill":
        record.spills += 1;
        record.spilledChars += event.chars;
        this.#countInTurn(1, 0);
        this.#save();
        break;
      case "tool-denied":
        record.denials += 1;
        this.#countInTurn(0, 1);
        this.#save();
        break;
      case "context":
        if (!silent) {
          this.#turn(event.context);
          this.#save();
        }
        break;
      case "store-load": {
        const { type: _type, step: _step, ...report } = event;
        record.storeLoads.push({ ...report, at: this.#now() });
        this.#save();
        break;
      }
      default:
        break;
    }
    if (silent) return;
    this.#env.emit(event);
    if (event.type === "context") this.#maybeWarn(event.context);
  }

  /** A main-thread response of the booked generation: one entry of its per-turn series. */
  #turn(context: number): void {
    const generation = this.#generation;
    if (!generation) return;
    (generation.turns ??= []).push([context, this.#early.spills, this.#early.denials]);
    this.#early = { spills: 0, denials: 0 };
  }

  /**
   * Spills and denials go to the turn they belong to. The binary runs a tool as soon as its block is
   * streamed, before the response ends: a denial comes before the context of the response that asked
   * for it, so it waits for the next turn. A spill comes when the tool's output is back, after that
   * response: it belongs to the last turn.
   */
  #countInTurn(spills: number, denials: number): void {
    this.#early.denials += denials;
    const last = this.#generation?.turns?.at(-1);
    if (last) last[1] += spills;
    else this.#early.spills += spills;
  }

  /** One `near` warning per generation when the context crosses warnAt. */
  #maybeWarn(context: number): void {
    const policy = this.#plan.policy;
    const warn = nearDue({
      enabled: policy.enabled,
      writing: false,
      context,
      warnAt: policy.warnAt,
      at: policy.at,
      warned: this.#warned,
    });
    if (!warn) return;
    this.#warned = true;
    this.#env.emit({
      type: "handoff",
      step: this.#plan.step,
      phase: "near",
      generation: this.#generationNumber,
      context,
      window: policy.window,
    });
  }

  /**
   * The next session starts a new generation. It is booked only when that session exists (its id is
   * known): a crash between a handoff and the successor's start must not leave a generation without a
   * session, or `continue` would book a second one for it (generations = 1 + handoffs, always).
   */
  #expectGeneration(): void {
    this.#pendingGeneration = true;
    this.#warned = false;
    this.#early = { spills: 0, denials: 0 };
  }

  /** The generation the running (or next) session belongs to. */
  get #generationNumber(): number {
    return this.#record.generations + (this.#pendingGeneration ? 1 : 0);
  }

  /** Adds what one session run cost to the step and its generation. */
  #account(outcome: SessionOutcome, countsForContext: boolean): void {
    const record = this.#record;
    const generation = this.#generation;
    if (outcome.sessionId) {
      const spend = sessionSpend(record.sessionCosts[outcome.sessionId], outcome.costTotal);
      if (spend.total !== null) record.sessionCosts[outcome.sessionId] = spend.total;
      record.costUsd += spend.spent;
      if (generation) generation.costUsd += spend.spent;
    }
    record.numTurns += outcome.numTurns;
    if (generation) generation.numTurns += outcome.numTurns;
    if (countsForContext && outcome.mainResponses > 0) {
      record.context = outcome.context;
      if (generation) generation.context = outcome.context;
    }
  }

  #onSession(sessionId: string): void {
    const record = this.#record;
    if (this.#pendingGeneration) {
      this.#pendingGeneration = false;
      record.generations += 1;
      record.history.push({
        generation: record.generations,
        sessionId,
        startedAt: this.#now(),
        endedAt: null,
        costUsd: 0,
        numTurns: 0,
        context: 0,
        handoff: null,
      });
    } else if (record.sessionId === sessionId) {
      return;
    } else {
      // A retry that started afresh (its first session never answered) stays in the same generation.
      const generation = this.#generation;
      if (generation) generation.sessionId = sessionId;
    }
    record.sessionId = sessionId;
    record.pendingHandoff = null;
    record.pendingPrompt = null;
    this.#save();
  }

  async #session(resume: string | undefined, prompt: string, writing: boolean): Promise<SessionOutcome> {
    const plan = this.#plan;
    const env = this.#env;
    await env.beforeSession();
    const sink = (event: FlowerEvent) => this.#accept(event, writing);
    const unwatch = resume
      ? env.watchLoads(resume, (report) =>
          sink({ type: "store-load", step: plan.step, sessionId: resume, ...report }),
        )
      : () => {};
    try {
      return await runSession({
        step: plan.step,
        options: env.sessionOptions({ ...(resume ? { resume } : {}), writing, sink }),
        prompt,
        policy: plan.policy,
        generation: this.#generationNumber,
        writing,
        sink,
        onSession: (sessionId) => {
          if (!writing) this.#onSession(sessionId);
        },
        stopSignal: writing ? NEVER : plan.stopSignal,
        query: env.query,
      });
    } finally {
      unwatch();
    }
  }

  async run(): Promise<StepResult> {
    const plan = this.#plan;
    const record = this.#record;
    let resume: string | undefined;
    let prompt = plan.prompt;
    const pendingFile = plan.continuation?.record.pendingHandoff ?? null;
    const pendingPrompt = plan.continuation?.record.pendingPrompt ?? null;
    if (plan.continuation) {
      if (pendingFile !== null || pendingPrompt !== null) {
        // Stopped between a handoff and the successor's start: start the successor now, from the file
        // as it is on disk (a person may have edited it), never from the burned session.
        prompt = pendingFile
          ? readFrozenHandoff(pendingFile, plan.step).promptBlock(plan.locale)
          : pendingPrompt!;
        this.#expectGeneration();
      } else {
        resume = plan.continuation.record.sessionId ?? undefined;
        prompt = plan.continuation.prompt;
        if (record.history.length === 0) this.#expectGeneration();
      }
    } else {
      this.#expectGeneration();
    }
    const { enabled, window, at, warnAt } = plan.policy;
    record.policy = { enabled, window, at, warnAt };
    this.#save();
    this.#env.emit({
      type: "step-start",
      step: plan.step,
      attempt: record.attempts + 1,
      generation: this.#generationNumber,
      resume,
    });

    /** maxAttempts counts per run()/continue() call; record.attempts keeps the step's whole history. */
    let failedHere = 0;
    while (true) {
      const outcome = await this.#session(resume, prompt, false);
      this.#account(outcome, true);

      if (outcome.kind === "completed") {
        record.result = outcome.resultText;
        return this.#finish("done");
      }
      if (outcome.kind === "stopped") return this.#finish("stopped");

      // With handoff off, auto-compact is the CLI's own answer to a full context; an overflow that still
      // reaches us is an ordinary failure, not a reason to switch sessions behind the user's back.
      if (outcome.kind === "overflow" && !plan.policy.enabled) outcome.kind = "failed";

      if (outcome.kind === "failed") {
        record.attempts += 1;
        const reason = outcome.error ?? "unknown error";
        record.errors.push(reason);
        record.failures.push({
          attempt: record.attempts,
          generation: this.#generationNumber,
          sessionId: outcome.sessionId,
          reason,
          at: this.#now(),
        });
        this.#save();
        failedHere += 1;
        if (failedHere >= plan.maxAttempts || outcome.limitReached) {
          this.#finish("failed");
          throw new StepFailedError(
            plan.step,
            outcome.limitReached
              ? `a limit was reached, not retried: ${reason}`
              : `${failedHere} of ${plan.maxAttempts} attempts failed; last: ${reason}`,
            { cause: toStepResult(record) },
          );
        }
        this.#env.emit({
          type: "retry",
          step: plan.step,
          attempt: record.attempts,
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

      // handoff-due or overflow: switch generations.
      if (record.generations >= plan.policy.maxGenerations) {
        const message = FLOOR_MESSAGE[plan.locale]({
          handoffs: record.generations - 1,
          max: plan.policy.maxGenerations,
          at: plan.policy.at,
        });
        record.errors.push(message);
        this.#finish("failed");
        throw new StepFailedError(plan.step, message, { cause: toStepResult(record) });
      }
      const successorPrompt = await this.#handOff(outcome);
      if (plan.stopSignal.aborted) return this.#finish("stopped");
      this.#expectGeneration();
      resume = undefined;
      prompt = successorPrompt;
    }
  }

  /** Writes (or degrades) the handoff, freezes it, records it, and returns the successor's first prompt. */
  async #handOff(outcome: SessionOutcome): Promise<string> {
    const plan = this.#plan;
    const record = this.#record;
    const burned = outcome.sessionId ?? record.sessionId;
    const context = outcome.context || record.context;

    const produced = await produceHandoff({
      step: plan.step,
      task: plan.prompt,
      locale: plan.locale,
      workspace: plan.workspace,
      cannotWrite:
        outcome.kind === "overflow"
          ? (outcome.error ?? "prompt is too long")
          : burned
            ? null
            : "no session to write the handoff",
      write: async () => {
        this.#env.emit({
          type: "handoff",
          step: plan.step,
          phase: "writing",
          generation: this.#generationNumber,
          context,
          window: plan.policy.window,
        });
        const writing = await this.#session(
          burned!,
          handoffPrompt(plan.locale, { used: context, window: plan.policy.window }),
          true,
        );
        this.#account(writing, false);
        const usable = writing.kind === "completed" && !!writing.resultText;
        return {
          text: usable ? writing.resultText : null,
          error: usable ? null : (writing.error ?? `the writing turn ended ${writing.kind}`),
        };
      },
    });
    const { why } = produced;
    if (why !== null) {
      record.degraded += 1;
      record.errors.push(degradedError(why, "zh"));
    }

    const frozen = freezeForSuccessor(produced.handoff, {
      notesDir: plan.notesDir,
      step: plan.step,
      locale: plan.locale,
      workspace: plan.workspace,
      now: this.#env.now(),
    });
    if (frozen.path) {
      // The previous generation's file moved to the archive: its records follow it.
      if (frozen.archived) this.#followArchived(frozen.path, frozen.archived);
      record.handoffs.push(frozen.path);
      record.pendingHandoff = frozen.path;
    } else {
      record.pendingPrompt = frozen.successor.promptBlock(plan.locale);
    }
    if (burned) record.retired.push(burned);
    const generation = this.#generation!;
    generation.endedAt = this.#now();
    generation.handoff = {
      path: frozen.path,
      degraded: why !== null,
      why,
      missing: produced.missing,
      scene: frozen.scene,
    };
    this.#save();

    this.#env.emit({
      type: "handoff",
      step: plan.step,
      phase: "done",
      generation: this.#generationNumber,
      context,
      window: plan.policy.window,
      degraded: why !== null,
      path: frozen.path,
      sections: frozen.successor.sections(),
      ...(why !== null ? { why } : {}),
    });
    return frozen.successor.promptBlock(plan.locale);
  }

  #followArchived(from: string, to: string): void {
    const record = this.#record;
    record.handoffs = record.handoffs.map((path) => (path === from ? to : path));
    for (const generation of record.history) {
      if (generation.handoff?.path === from) generation.handoff.path = to;
    }
  }

  #finish(status: StepRecord["status"]): StepResult {
    const record = this.#record;
    record.status = status;
    const generation = this.#generation;
    if (generation && !generation.endedAt) generation.endedAt = this.#now();
    this.#save();
    this.#env.emit({
      type: "step-end",
      step: record.step,
      ok: status === "done",
      status: status === "running" ? "failed" : status,
      sessionId: record.sessionId,
      costUsd: record.costUsd,
      numTurns: record.numTurns,
      generations: record.generations,
      errors: [...record.errors],
    });
    return toStepResult(record);
  }
}
