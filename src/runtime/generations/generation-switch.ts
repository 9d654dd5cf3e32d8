/**
 * The generation switch: handing a step from one generation to the next. Whether a switch can help at
 * all (a successor that overflows before its first answer, or the maxGenerations floor), the writing
 * turn in the burned session, freezing the handoff, booking it in the ledger, and the successor's first
 * prompt — also when a stopped step's successor starts later from the frozen file a person may have
 * edited.
 *
 * Apart from step-run.ts because the loop decides *when* to switch and this is *how*; the writing turn
 * itself is a session the loop runs (`writingTurn`), since only the loop owns sessions. The rules of the
 * handoff text are in handoff/switch.ts; the ledger (step-ledger.ts) stays the record's one writer.
 */
import { existsSync } from "node:fs";
import { degradedError } from "../../handoff/degraded.js";
import type { HandoffCause, RecallMention } from "../../handoff/handoff-document.js";
import { readEditedHandoff } from "../../handoff/edited-file.js";
import { withCutCalls } from "../../handoff/cut-calls.js";
import { withPlan } from "../../handoff/plan.js";
import { withPersonsPrompt, withPersonsWords } from "../../handoff/person.js";
import type { HandoffPolicy } from "../../handoff/policy.js";
import { handoffPrompt } from "../../handoff/prompt.js";
import { freezeForSuccessor, produceHandoff, type FrozenForSuccessor } from "../../handoff/switch.js";
import type { Locale } from "../../locale/locale.js";
import type { StepRecord } from "../../records/step-record.js";
import type { FlowerEvent } from "../events.js";
import type { HandoffRequestSource } from "./handoff-request-watch.js";
import { isFileSystemError, NOT_FROZEN } from "./not-frozen.js";
import type { SessionOutcome } from "../session/session-outcome.js";
import type { StepLedger } from "../books/step-ledger.js";
import { isStartOverflow, SUCCESSOR_OVERFLOW_MESSAGE, TASK_OVERFLOW_MESSAGE } from "./successor-overflow.js";
import { LOOP_MESSAGE, MAX_GENERATIONS_MESSAGE } from "../step-loop-text.js";
import { DEFAULTS } from "../../defaults.js";
import type { GenerationRecord } from "../../records/step-record.js";

/** What a switch needs of its step; built once per step by StepRun. */
export interface SwitchContext {
  step: string;
  /** The step's task (what a degraded handoff and an edited file fall back to). */
  task: string;
  locale: Locale;
  workspace: string;
  policy: HandoffPolicy;
  /** Where handoffs are frozen; null without a workbench (the successor reads the record's copy). */
  notesDir: string | null;
  ledger: StepLedger;
  emit(event: FlowerEvent): void;
  now(): Date;
  /** Requests of `flower handoff` addressed to this driver; absent: nobody can ask. */
  handoffRequests?: HandoffRequestSource;
  /** How a successor recalls the earlier generations (its prompt says so); absent: no recall. */
  recall?: RecallMention;
}

/**
 * Why this handoff-due or overflowing session cannot be switched (the step fails saying so), or null:
 * a successor (or a fresh task) that overflowed before its first answer would overflow again, and the
 * generations are used up at maxGenerations. `resumed`: the session continued an existing one.
 */
export function switchRefused(
  context: SwitchContext,
  outcome: SessionOutcome,
  resumed: boolean,
  prompt: string,
): string | null {
  const { ledger, locale, policy } = context;
  if (isStartOverflow(outcome, ledger.generations, resumed)) {
    const error = outcome.error ?? "prompt is too long";
    return ledger.generations > 1
      ? SUCCESSOR_OVERFLOW_MESSAGE[locale](error)
      : TASK_OVERFLOW_MESSAGE[locale](error, prompt.length);
  }
  // A handoff a person asked for is not a loop, however early it comes.
  const asked = new Set((ledger.record.handoffRequests ?? []).map((request) => request.generation));
  if (context.handoffRequests?.pending() != null) asked.add(ledger.generationNumber);
  const loop = loopBrake(
    ledger.record.history.filter((generation) => !asked.has(generation.generation)),
    policy.at,
  );
  if (loop !== null) return LOOP_MESSAGE[locale]({ ...loop, at: policy.at });
  if (ledger.generations >= policy.maxGenerations)
    return MAX_GENERATIONS_MESSAGE[locale]({ handoffs: ledger.generations - 1, max: policy.maxGenerations });
  return null;
}

/**
 * The loop brake: generations that reach the line before doing any work. A line below the role's
 * start-up floor (docs/handoffs.md) hands off over and over, each generation spending its room on starting
 * up; handoffs use no retry budget, so nothing else would stop it. Caught when the generation handing off now
 * began already at the line (its first answer's context), or when it and the one before both reached the line
 * within their first `loopTurns` turns. A long healthy job — the cost rule's dozens of generations of a few
 * dozen turns each — never meets either.
 */
export function loopBrake(
  history: readonly GenerationRecord[],
  at: number,
): { generation: number; startup: number | null; turns: number } | null {
  const current = history.at(-1);
  if (!current) return null;
  const turnsOf = (generation: GenerationRecord) => generation.turns?.length ?? Number.POSITIVE_INFINITY;
  const startup = current.turns?.[0]?.[0] ?? null;
  if (current.generation > 1 && startup !== null && startup >= at)
    return { generation: current.generation, startup, turns: turnsOf(current) };
  const previous = history.at(-2);
  if (previous && turnsOf(current) <= DEFAULTS.loopTurns && turnsOf(previous) <= DEFAULTS.loopTurns)
    return { generation: current.generation, startup, turns: turnsOf(current) };
  return null;
}

/**
 * The successor's prompt from the frozen file as a person left it; an empty or binary file degrades. A
 * handoff a person asked for (flower handoff) says so to its successor, also when it starts later.
 */
export function editedHandoffPrompt(context: SwitchContext, path: string): string {
  const { step, task, locale } = context;
  const edited = readEditedHandoff(path, { step, task, locale });
  if (edited.unusable !== null) context.ledger.addError(degradedError(edited.unusable, locale));
  return edited.handoff.promptBlock(locale, causeOf(context.ledger.record, path), context.recall);
}

/**
 * Why the generation that froze `path` handed off: "person" when the record keeps a `flower handoff`
 * request that ended that generation, else "context".
 */
export function causeOf(record: StepRecord, path: string): HandoffCause {
  const generation = record.history.findLast((entry) => entry.handoff?.path === path)?.generation;
  if (generation === undefined) return "context";
  return record.handoffRequests?.some((asked) => asked.generation === generation) ? "person" : "context";
}

/**
 * The prompt the current generation was started with: the step's task for the first, else the last
 * handoff as it is on disk now (the successor of a handoff reads the file).
 */
export function startingPrompt(context: SwitchContext): string {
  const record = context.ledger.record;
  const handoff = record.generations > 1 ? record.handoffs.at(-1) : undefined;
  if (handoff && existsSync(handoff)) return editedHandoffPrompt(context, handoff);
  return context.task;
}

/**
 * Writes (or degrades) the handoff, freezes it, records it, and returns the successor's first prompt.
 * `writingTurn` runs one writing turn in the burned session (the loop's own session runner).
 */
export async function handOff(
  context: SwitchContext,
  outcome: SessionOutcome,
  writingTurn: (session: string, prompt: string) => Promise<SessionOutcome>,
): Promise<string> {
  const { step, locale, workspace, policy, ledger } = context;
  const burned = outcome.sessionId ?? ledger.sessionId;
  const used = outcome.context || ledger.context;

  const cutCalls = outcome.cutCalls;
  // A person's request (flower handoff) pending now rides on this handoff, whatever brought it on.
  const request = context.handoffRequests?.pending() ?? null;
  if (request !== null) {
    context.handoffRequests!.take(request);
    ledger.personAsked(request);
    context.emit({ type: "handoff-request", step, by: request.by, next: request.next });
  }
  let turns = 0;
  const written = await produceHandoff({
    step,
    task: context.task,
    locale,
    workspace,
    window: policy.window,
    cannotWrite:
      outcome.kind === "overflow"
        ? (outcome.error ?? "prompt is too long")
        : burned
          ? null
          : "no session to write the handoff",
    prompt: withPersonsPrompt(
      handoffPrompt(locale, { used, window: policy.window, cutCalls }),
      request,
      locale,
    ),
    // Called once, and once more when a section came back weak (the follow-up turn).
    write: async (prompt) => {
      if (turns++ === 0) {
        context.emit({
          type: "handoff",
          step,
          phase: "writing",
          generation: ledger.generationNumber,
          context: used,
          window: policy.window,
        });
      }
      const writing = await writingTurn(burned!, prompt);
      ledger.account(writing, false);
      const usable = writing.kind === "completed" && !!writing.resultText;
      return {
        text: usable ? writing.resultText : null,
        error: usable ? null : (writing.error ?? `the writing turn ended ${writing.kind}`),
        context: writing.context || used,
      };
    },
  });
  // Whatever the model wrote (or the degraded path assembled), the cut calls and the plan at the
  // switch (the latest TodoWrite, handoff/plan.ts) reach the successor.
  const withCalls = withCutCalls(written.handoff, cutCalls, locale);
  const withWords = withPersonsWords(withCalls, request, locale);
  const produced = { ...written, handoff: withPlan(withWords, ledger.plan, locale) };
  const freezing = { notesDir: context.notesDir, step, locale, workspace, now: context.now() };
  let frozen: FrozenForSuccessor;
  try {
    frozen = freezeForSuccessor(produced.handoff, freezing);
  } catch (error) {
    // A full disk or a read-only notes folder: the successor starts from the record's copy of the
    // handoff (as without a workbench) instead of the step dying between two generations.
    if (!isFileSystemError(error)) throw error;
    frozen = freezeForSuccessor(produced.handoff, { ...freezing, notesDir: null });
    ledger.addError(NOT_FROZEN[locale](`${error.code}: ${error.message}`));
  }
  // Asked for by a person, the successor is told so, not that the context was nearly full.
  const successorPrompt = frozen.successor.promptBlock(
    locale,
    request !== null ? "person" : "context",
    context.recall,
  );
  ledger.handedOff(burned, produced, frozen, successorPrompt, cutCalls.length, outcome.finishedCalls);
  context.emit({
    type: "handoff",
    step,
    phase: "done",
    generation: ledger.generationNumber,
    context: used,
    window: policy.window,
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
