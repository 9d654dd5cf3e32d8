/**
 * The per-step loop: attempts, generations and the handoff switch.
 *
 * Why this module exists: a long step outlives its context. When the main thread crosses the handoff
 * line (or the API says the prompt no longer fits), the SAME session writes a structured handoff, it is
 * frozen to disk, and a NEW session (no resume, no fork) takes over from the file. Three rules, each
 * learned from a failure:
 * - The writing turn is exempt from the threshold. It runs above the line by definition; without the
 *   exemption its first message is judged "handoff due" again and every generation degrades (the first
 *   live run produced only degraded handoffs that way).
 * - A handoff is not a failure: it never counts as an attempt and ignores maxAttempts. So the only brake
 *   on a window below the role's start-up floor is maxGenerations.
 * - A handoff that cannot be written degrades, it does not stop: auto-compact is off, so stopping here
 *   means running into the window.
 */
import type { Options } from "@anthropic-ai/claude-agent-sdk";
import { DEFAULTS } from "../defaults.js";
import { StepFailedError } from "../errors.js";
import { degraded, degradedError } from "../handoff/degraded.js";
import type { Handoff } from "../handoff/document.js";
import { freezeHandoff, readFrozenHandoff } from "../handoff/freeze.js";
import { parseHandoff } from "../handoff/parse.js";
import type { HandoffPolicy } from "../handoff/policy.js";
import { handoffPrompt } from "../handoff/prompt.js";
import { assessHandoff } from "../handoff/quality.js";
import type { HandoffSectionName } from "../handoff/sections.js";
import type { Locale } from "../locale/locale.js";
import type { FlowerEvent } from "./events.js";
import type { Manifest } from "./manifest.js";
import { runSession, type SessionOutcome } from "./session-run.js";
import {
  newStepRecord,
  toStepResult,
  type GenerationRecord,
  type StepRecord,
  type StepResult,
} from "./step-result.js";

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
  manifest: Manifest;
  emit: (event: FlowerEvent) => void;
  /** SDK options for one session. `writing` = the handoff turn: no budget cap. */
  optionsFor: (session: { resume?: string; writing: boolean }) => Options;
  stopSignal: AbortSignal;
  /** Continue an existing record instead of starting fresh. */
  continuation?: { record: StepRecord; prompt: string };
  /** Called before each session so the runtime can refresh the workbench index. */
  beforeSession?: () => Promise<void>;
  /** Every session id this step uses (new, resumed, or writing a handoff), as soon as it is known. */
  onSession?: (sessionId: string, writing: boolean) => void;
}

/** The writing turn is never stopped from outside. */
const NEVER = new AbortController().signal;

const CONTINUE_AFTER_FAILURE: Record<Locale, (reason: string) => string> = {
  zh: (reason) => `上一次尝试因错误中断了(${reason})。请从中断的地方接着做原来的任务。`,
  en: (reason) =>
    `The previous attempt was cut off by an error (${reason}). Continue the original task from where it stopped.`,
};

const FLOOR_MESSAGE: Record<Locale, (max: number, at: number) => string> = {
  zh: (max, at) =>
    `已换代 ${max} 次(max_generations),仍然越线。阈值(${at})很可能低于这个角色的启动地板(协调者实测约 ${DEFAULTS.coordinatorStartupFloor / 1000}k),把 window 调大,或 --no-handoff。`,
  en: (max, at) =>
    `Handed off ${max} times (maxGenerations) and still over the line. The threshold (${at}) is probably below this role's start-up floor (measured ~${DEFAULTS.coordinatorStartupFloor / 1000}k for a coordinator): raise window, or use --no-handoff.`,
};

export class StepRun {
  readonly record: StepRecord;
  readonly #plan: StepPlan;
  #warned = false;

  constructor(plan: StepPlan) {
    this.#plan = plan;
    this.record = plan.continuation
      ? { ...plan.continuation.record, status: "running", pid: process.pid }
      : newStepRecord(plan.step, plan.agent, plan.prompt);
    // run() of a step name that already has a record starts afresh but keeps what the earlier run cost.
    const earlier = plan.continuation ? undefined : plan.manifest.get(plan.step);
    if (earlier) {
      const { earlierRuns = [], ...rest } = earlier;
      this.record.earlierRuns = [...earlierRuns, rest];
    }
  }

  /** Persist the record now (every change goes to disk at once: a crash loses nothing). */
  save(): void {
    this.#plan.manifest.put(this.record);
  }

  get #generation(): GenerationRecord {
    return this.record.history.at(-1)!;
  }

  #startGeneration(): void {
    this.record.generations += 1;
    this.#warned = false;
    this.record.history.push({
      generation: this.record.generations,
      sessionId: null,
      startedAt: new Date().toISOString(),
      endedAt: null,
      costUsd: 0,
      numTurns: 0,
      context: 0,
      handoff: null,
    });
  }

  /** Adds what one session run cost; total_cost_usd is cumulative per session, so only the growth counts. */
  #account(outcome: SessionOutcome): void {
    const generation = this.#generation;
    if (outcome.sessionId && outcome.costTotal !== null) {
      const previous = this.record.sessionCosts[outcome.sessionId] ?? 0;
      // A resumed session normally continues from its saved total; if the CLI restarted from zero,
      // the whole total is new spend.
      const spent = outcome.costTotal >= previous ? outcome.costTotal - previous : outcome.costTotal;
      this.record.sessionCosts[outcome.sessionId] = outcome.costTotal;
      this.record.costUsd += spent;
      generation.costUsd += spent;
    }
    this.record.numTurns += outcome.numTurns;
    generation.numTurns += outcome.numTurns;
    if (outcome.mainResponses > 0) {
      this.record.context = outcome.context;
      generation.context = outcome.context;
    }
  }

  async #session(resume: string | undefined, prompt: string, writing: boolean): Promise<SessionOutcome> {
    const plan = this.#plan;
    await plan.beforeSession?.();
    if (resume) plan.onSession?.(resume, writing);
    return runSession({
      step: plan.step,
      options: plan.optionsFor({ ...(resume ? { resume } : {}), writing }),
      prompt,
      policy: plan.policy,
      generation: this.record.generations,
      writing,
      // The writing turn emits nothing to the UI.
      emit: writing ? undefined : plan.emit,
      warned: this.#warned,
      onWarned: () => (this.#warned = true),
      onSession: (sessionId) => {
        plan.onSession?.(sessionId, writing);
        if (writing) return;
        if (this.record.sessionId !== sessionId) {
          this.record.sessionId = sessionId;
          this.#generation.sessionId = sessionId;
          this.record.pendingHandoff = null;
          this.record.pendingPrompt = null;
          this.save();
        }
      },
      // A stop during the writing turn lets the handoff finish (a few seconds) and stops right after it:
      // cutting the turn would only leave a degraded handoff to continue from.
      stopSignal: writing ? NEVER : plan.stopSignal,
    });
  }

  async run(): Promise<StepResult> {
    const plan = this.#plan;
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
        this.#startGeneration();
      } else {
        resume = plan.continuation.record.sessionId ?? undefined;
        prompt = plan.continuation.prompt;
        if (this.record.history.length === 0) this.#startGeneration();
      }
    } else {
      this.#startGeneration();
    }
    this.save();
    plan.emit({
      type: "step-start",
      step: plan.step,
      attempt: this.record.attempts + 1,
      generation: this.record.generations,
      resume,
    });

    /** maxAttempts counts per run()/continue() call; record.attempts keeps the step's whole history. */
    let failedHere = 0;
    while (true) {
      const outcome = await this.#session(resume, prompt, false);
      this.#account(outcome);

      if (outcome.kind === "completed") {
        this.record.result = outcome.resultText;
        return this.#finish("done");
      }
      if (outcome.kind === "stopped") return this.#finish("stopped");

      // With handoff off, auto-compact is the CLI's own answer to a full context; an overflow that still
      // reaches us is an ordinary failure, not a reason to switch sessions behind the user's back.
      if (outcome.kind === "overflow" && !plan.policy.enabled) outcome.kind = "failed";

      if (outcome.kind === "failed") {
        this.record.attempts += 1;
        const reason = outcome.error ?? "unknown error";
        this.record.errors.push(reason);
        this.record.failures.push({
          attempt: this.record.attempts,
          generation: this.record.generations,
          sessionId: outcome.sessionId,
          reason,
          at: new Date().toISOString(),
        });
        this.save();
        failedHere += 1;
        if (failedHere >= plan.maxAttempts || outcome.limitReached) {
          this.#finish("failed");
          throw new StepFailedError(
            plan.step,
            outcome.limitReached
              ? `a limit was reached, not retried: ${reason}`
              : `${failedHere} of ${plan.maxAttempts} attempts failed; last: ${reason}`,
            {
              cause: toStepResult(this.record),
            },
          );
        }
        plan.emit({
          type: "retry",
          step: plan.step,
          attempt: this.record.attempts,
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
      if (this.record.generations >= plan.policy.maxGenerations) {
        const message = FLOOR_MESSAGE[plan.locale](plan.policy.maxGenerations, plan.policy.at);
        this.record.errors.push(message);
        this.#finish("failed");
        throw new StepFailedError(plan.step, message, { cause: toStepResult(this.record) });
      }
      const successorPrompt = await this.#handOff(outcome);
      if (this.#plan.stopSignal.aborted) return this.#finish("stopped");
      this.#startGeneration();
      this.save();
      resume = undefined;
      prompt = successorPrompt;
    }
  }

  /** Writes (or degrades) the handoff, freezes it, and returns the successor's first prompt. */
  async #handOff(outcome: SessionOutcome): Promise<string> {
    const plan = this.#plan;
    const burned = outcome.sessionId ?? this.record.sessionId;
    const context = outcome.context || this.record.context;
    let handoff: Handoff;
    let why: string | null = null;
    let missing: HandoffSectionName[] = [];

    if (outcome.kind === "overflow" || !burned) {
      why =
        outcome.kind === "overflow"
          ? (outcome.error ?? "prompt is too long")
          : "no session to write the handoff";
    } else {
      plan.emit({
        type: "handoff",
        step: plan.step,
        phase: "writing",
        generation: this.record.generations,
        context,
        window: plan.policy.window,
      });
      const writing = await this.#session(
        burned,
        handoffPrompt(plan.locale, { used: context, window: plan.policy.window }),
        true,
      );
      this.#account({ ...writing, mainResponses: 0 });
      if (writing.kind !== "completed" || !writing.resultText) {
        why = writing.error ?? `the writing turn ended ${writing.kind}`;
      } else {
        const written = parseHandoff(writing.resultText, plan.step);
        const assessment = assessHandoff(written, { workspace: plan.workspace });
        missing = assessment.missing;
        if (assessment.missing.length > 0) why = `missing: ${assessment.missing.join(", ")}`;
        else handoff = written;
      }
    }
    handoff ??= degraded(plan.step, plan.prompt, { why: why ?? "", locale: plan.locale });
    if (why !== null) {
      this.record.degraded += 1;
      this.record.errors.push(degradedError(why, "zh"));
    }

    let path: string | null = null;
    if (plan.notesDir) {
      const frozen = freezeHandoff(handoff, {
        notesDir: plan.notesDir,
        step: plan.step,
        locale: plan.locale,
      });
      path = frozen.path;
      // The previous generation's file moved to the archive: its records follow it.
      if (frozen.archived) this.#followArchived(frozen.path, frozen.archived);
      this.record.handoffs.push(path);
      this.record.pendingHandoff = path;
    }
    if (burned) this.record.retired.push(burned);
    const generation = this.#generation;
    generation.endedAt = new Date().toISOString();
    const scene = assessHandoff(handoff, { workspace: plan.workspace }).paths;
    generation.handoff = { path, degraded: why !== null, why, missing, scene };
    this.save();

    // Built from the file as it stands on disk, so a person's edit counts.
    const successor = path ? readFrozenHandoff(path, plan.step) : handoff;
    if (!path) {
      this.record.pendingPrompt = successor.promptBlock(plan.locale);
      this.save();
    }
    plan.emit({
      type: "handoff",
      step: plan.step,
      phase: "done",
      generation: this.record.generations,
      context,
      window: plan.policy.window,
      degraded: why !== null,
      path,
      sections: successor.sections(),
      ...(why !== null ? { why } : {}),
    });
    return successor.promptBlock(plan.locale);
  }

  #followArchived(from: string, to: string): void {
    this.record.handoffs = this.record.handoffs.map((path) => (path === from ? to : path));
    for (const generation of this.record.history) {
      if (generation.handoff?.path === from) generation.handoff.path = to;
    }
  }

  #finish(status: StepRecord["status"]): StepResult {
    this.record.status = status;
    const generation = this.record.history.at(-1);
    if (generation && !generation.endedAt) generation.endedAt = new Date().toISOString();
    this.save();
    this.#plan.emit({
      type: "step-end",
      step: this.record.step,
      ok: status === "done",
      status: status === "running" ? "failed" : status,
      sessionId: this.record.sessionId,
      costUsd: this.record.costUsd,
      numTurns: this.record.numTurns,
      generations: this.record.generations,
      errors: [...this.record.errors],
    });
    return toStepResult(this.record);
  }
}
