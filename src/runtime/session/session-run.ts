/**
 * One session of one step: a single `query()` with streaming input, read to its end.
 *
 * The translator says what each message means; this driver acts on it: it passes events to the step's
 * sink, reports the session id as soon as it is known (so a crash still records it), and when
 * `switchDue()` says so it interrupts at that message boundary, like Ctrl-C, so the transcript is not
 * torn — or, when the crossing response issued calls and there is room (`letCallsFinish`), one boundary
 * later, after their results came back. It never decides what happens next: it returns an outcome to
 * step-run.
 */
import type { Options } from "@anthropic-ai/claude-agent-sdk";
import { DEFAULTS } from "../../defaults.js";
import { letCallsFinish, switchDue } from "../../handoff/trigger.js";
import type { HandoffPolicy } from "../../handoff/policy.js";
import type { FlowerEvent } from "../events.js";
import { lastApiError } from "./api-error-detail.js";
import { retryCannotPass, type CannotPass } from "../drive/failure-class.js";
import { PromptQueue } from "./prompt-queue.js";
import { claudeProjectsDir } from "../drive/recover-local-tail.js";
import { classifySession, type SessionOutcome } from "./session-outcome.js";
import type { StderrTail } from "./stderr-tail.js";
import { releaseSessionAbort } from "./session-options.js";
import type { ResponseUsage } from "../events.js";
import { SessionTranslator } from "./session-translator.js";
import type { QueryFunction } from "../query-function.js";

/** How long a dead child's stderr may take to arrive after its exit was reported. */
const STDERR_SETTLE_MS = 500;

export interface SessionRunInput {
  step: string;
  options: Options;
  prompt: string;
  policy: HandoffPolicy;
  generation: number;
  /** The handoff-writing turn: exempt from the threshold. */
  writing: boolean;
  /** Receives every event of this session; the step decides what to record and what to show. */
  sink: (event: FlowerEvent) => void;
  /** Called as soon as the session id is known. */
  onSession: (sessionId: string) => void;
  /** Aborted when someone asks the run to stop (Ctrl-C). */
  stopSignal: AbortSignal;
  query: QueryFunction;
  /** The child's stderr as its spawner delivers it (the same tail the options were built with). */
  stderr?: StderrTail;
  /** Whether a person asked for a handoff (`flower handoff`, handoff-request-watch.ts): due like a crossed line. */
  requested?: () => boolean;
  /** How long a stop waits for the reply in flight before it cuts it. @default DEFAULTS.stopGraceMs */
  stopGraceMs?: number;
}

export async function runSession(input: SessionRunInput): Promise<SessionOutcome> {
  const { step, policy, writing, sink } = input;
  const queue = new PromptQueue();
  queue.push(input.prompt);
  const q = input.query({ prompt: queue, options: input.options });
  const translator = new SessionTranslator(step);

  let handoffRequested = false;
  /** Calls of the crossing response the switch waits for (0: not waiting); they finish before it. */
  let finishedCalls = 0;
  let stopRequested = false;
  /** The binary was retrying a request that cannot pass: it was interrupted before the next try. */
  let cutShort: CannotPass | null = null;
  const interrupt = () => {
    q.interrupt().catch(() => {
      // The session may already be finishing; the outcome is decided by what was read.
    });
  };
  /** A stop waiting for the reply in flight; when its grace runs out the reply is cut. */
  let waitingForReply: NodeJS.Timeout | null = null;
  let replyCut = false;
  const stopWaiting = () => {
    if (waitingForReply !== null) clearTimeout(waitingForReply);
    waitingForReply = null;
  };
  const onStop = () => {
    stopRequested = true;
    queue.end();
    // A tool is running: the stop cuts it now (its result says so). Otherwise a reply is on its way, or
    // about to be asked for: it is paid for, so the stop waits for it — the next message boundary — up to
    // the grace, and then cuts it.
    if (translator.reading.openCalls.length > 0) {
      interrupt();
      return;
    }
    waitingForReply = setTimeout(() => {
      waitingForReply = null;
      replyCut = true;
      interrupt();
    }, input.stopGraceMs ?? DEFAULTS.stopGraceMs);
  };
  if (input.stopSignal.aborted) onStop();
  else input.stopSignal.addEventListener("abort", onStop, { once: true });

  /** The main thread's context after each response of this session: the cost rule weighs them. */
  const contexts: number[] = [];
  const afterMainResponse = (context: number, stopReason: string | null, usage: ResponseUsage) => {
    contexts.push(context);
    // The reply a stop waited for is in: the boundary. A reply that ends the turn needs no interrupt.
    if (waitingForReply !== null) {
      stopWaiting();
      if (stopReason === "tool_use") interrupt();
    }
    sink({
      type: "context",
      step,
      context,
      window: policy.enabled ? policy.window : null,
      at: policy.enabled ? policy.at : null,
      generation: input.generation,
      usage,
    });
    const due = switchDue({
      enabled: policy.enabled,
      rule: policy.rule,
      writing,
      contexts,
      at: policy.at,
      handoffOutput: policy.handoffOutputTokens,
      sessionId: translator.reading.sessionId,
      requested: () => input.requested?.() === true,
    });
    // A response that ends the turn needs no interrupt: the work is finishing on its own.
    if (handoffRequested || stopReason !== "tool_use") return;
    // The boundary after the calls the switch waited for: their results are in, hand off now (this
    // response's own calls are cut and named).
    if (finishedCalls > 0) {
      handoffRequested = true;
      interrupt();
      return;
    }
    if (!due) return;
    const openCalls = translator.reading.openCalls.length;
    if (letCallsFinish({ openCalls, context, window: policy.window, margin: DEFAULTS.inflightMargin })) {
      finishedCalls = openCalls;
      return;
    }
    handoffRequested = true;
    interrupt();
  };

  let thrown: unknown;
  try {
    for await (const message of q) {
      for (const signal of translator.read(message)) {
        switch (signal.kind) {
          case "event":
            sink(signal.event);
            break;
          case "session":
            input.onSession(signal.sessionId);
            break;
          case "main-response":
            afterMainResponse(signal.context, signal.stopReason, signal.usage);
            break;
          case "served":
            sink({
              type: "usage",
              step,
              sessionId: translator.reading.sessionId,
              worker: signal.subagent,
              usage: signal.usage,
            });
            break;
          case "result":
            stopWaiting();
            // Background work still running means the CLI will start another turn on its own.
            if (!signal.backgroundRunning) queue.end();
            break;
          case "api-retry": {
            // A 401 retried by the binary would reach the provider 1 + CLAUDE_CODE_MAX_RETRIES times,
            // and each step attempt again: stop it before its next request (failure-class.ts).
            const why = retryCannotPass(signal.status, signal.error);
            if (why !== null && cutShort === null && !stopRequested) {
              cutShort = why;
              interrupt();
              queue.end();
            }
            break;
          }
        }
      }
    }
  } catch (error) {
    thrown = error;
  } finally {
    stopWaiting();
    input.stopSignal.removeEventListener("abort", onStop);
    queue.end();
    q.close();
    releaseSessionAbort(input.options);
  }
  const reading = translator.reading;
  // The SDK reports the child's exit before its stderr pipe is drained: wait for the last lines.
  if (input.stderr && (thrown !== undefined || !reading.sawResult))
    await input.stderr.settled(STDERR_SETTLE_MS);
  const detail =
    cutShort !== null && reading.sessionId !== null
      ? lastApiError(claudeProjectsDir(input.options.env ?? process.env), reading.sessionId)
      : null;
  const outcome = classifySession({
    reading,
    stopRequested,
    handoffRequested,
    thrown,
    finishedCalls,
    stderr: input.stderr?.lines() ?? [],
    ...(cutShort !== null ? { cutShort: { cannotPass: cutShort, detail } } : {}),
  });
  return replyCut && outcome.kind === "stopped" ? { ...outcome, replyCut: true } : outcome;
}
