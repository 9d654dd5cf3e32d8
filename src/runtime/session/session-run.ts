/**
 * One session of one step: a single `query()` with streaming input, read to its end.
 *
 * The translator says what each message means; this driver acts on it: it passes events to the step's
 * sink, reports the session id as soon as it is known (so a crash still records it), and when
 * `switchDue()` says so it interrupts at that message boundary, like Ctrl-C, so the transcript is not
 * torn — or, when the crossing response issued calls and there is room (`letCallsFinish`), one boundary
 * later, after their results came back. It never decides what happens next: it returns an outcome to
 * step-run.
 *
 * A person's messages (`flower say`, runtime/person/) go into the same streaming input as the prompt,
 * each with its id as the message's uuid. The binary folds a message sent while a turn runs into the main
 * thread's next request, at the next message boundary (never into a subagent's), or, when no turn runs,
 * starts a turn with it; its `command_lifecycle` frames say when (`started`), and from then on the
 * transcript holds it. Two rules keep a message out of the wrong session: none is sent once this driver
 * has decided to interrupt (a handoff, a stop, a request that cannot pass) or in the handoff-writing
 * turn (the successor gets it); and a message sent but not started yet holds a due handoff back by a
 * boundary or two, because the binary would otherwise start it as a turn of its own after the interrupt,
 * in the generation that is handing off. Should that happen anyway (a stop came first), the turn it
 * starts is interrupted at once: the message is in the transcript the next session resumes.
 */
import { randomUUID } from "node:crypto";
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
import type { MessageSource } from "../person/message-inbox.js";
import type { PersonMessage } from "../../records/person-messages.js";
import type { QueryFunction } from "../query-function.js";

/** How long a dead child's stderr may take to arrive after its exit was reported. */
const STDERR_SETTLE_MS = 500;

/**
 * How many boundaries a due handoff waits at most for messages sent but not started. The binary starts
 * a message at the next request after it took it: one boundary, two when it took it just after a request
 * left; the cap keeps a binary that never says so from holding the handoff back for good.
 */
const MESSAGE_HOLD_BOUNDARIES = 3;

export interface SessionRunInput {
  step: string;
  options: Options;
  /** The session's first message: flower's prompt, or a person's message (a session that starts for it). */
  prompt: string | PersonMessage;
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
  /** A person's messages to the run (`flower say`); absent in the writing turn: the successor gets them. */
  messages?: MessageSource;
  /**
   * Whether a message may start a turn after the main thread's last answer. False for a step that ends
   * in a document (its last answer is the document): a message is then sent only at a boundary where the
   * main thread goes on with tool calls, and one that comes later waits for the run's next session.
   * @default true
   */
  lateMessages?: boolean;
  /** A person's messages the prompt carries (a step that ends in a document): booked when it starts. */
  opening?: readonly PersonMessage[];
}

export async function runSession(input: SessionRunInput): Promise<SessionOutcome> {
  const { step, policy, writing, sink } = input;
  const queue = new PromptQueue();
  const prompt = input.prompt;
  const promptId = typeof prompt === "string" ? randomUUID() : prompt.id;
  queue.push(typeof prompt === "string" ? prompt : prompt.text, promptId);
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

  /** A person's messages sent into this session, by id, and those the binary started (in the transcript). */
  const sent = new Map<string, PersonMessage>();
  const started = new Set<string>();
  if (typeof prompt !== "string") sent.set(prompt.id, prompt);
  for (const message of input.opening ?? []) sent.set(message.id, message);
  /**
   * The binary says when it takes and starts a message (`command_lifecycle`), and the prompt's frames
   * prove it does: until then nothing is sent, since nothing would say whether it arrived.
   */
  let lifecycle = false;
  /** Boundaries a due handoff has waited for messages sent but not started. */
  let held = 0;
  /** The last turn ended and the input stays open for messages the binary took and will start. */
  let idle = false;
  const notStarted = () => [...sent.keys()].some((id) => !started.has(id));
  const mayGive = () =>
    !writing && lifecycle && !handoffRequested && !stopRequested && cutShort === null && !queue.ended;
  const give = () => {
    if (!input.messages || !mayGive()) return;
    for (const message of input.messages.pending()) {
      if (sent.has(message.id)) continue;
      sent.set(message.id, message);
      queue.push(message.text, message.id);
    }
  };
  const delivered = (id: string) => {
    const message = sent.get(id);
    if (message === undefined || started.has(id)) return;
    started.add(id);
    input.messages?.given(message);
    sink({
      type: "person-message",
      step,
      id: message.id,
      by: message.by,
      at: message.at,
      text: message.text,
      generation: input.generation,
    });
    // Started after this driver decided to interrupt: a turn of its own has begun in a session that is
    // ending. The message is in the transcript now; the turn stops before the model acts on it.
    if (handoffRequested || stopRequested || cutShort !== null) interrupt();
  };
  const late = input.lateMessages ?? true;
  const unwatch = (late ? input.messages?.onArrival(give) : undefined) ?? (() => {});

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
    // A message sent but not started yet would start a turn of its own after the interrupt, in this
    // generation: the switch waits for it (it goes into the next request), a boundary or two at most,
    // and only with room left before the window (else the turn it starts is cut at once: `delivered`).
    const room = context < policy.window - DEFAULTS.inflightMargin;
    if ((finishedCalls > 0 || due) && notStarted() && room && held < MESSAGE_HOLD_BOUNDARIES) {
      held += 1;
      return;
    }
    // The boundary after the calls the switch waited for: their results are in, hand off now (this
    // response's own calls are cut and named).
    if (finishedCalls > 0) {
      handoffRequested = true;
      interrupt();
      return;
    }
    if (!due) {
      give();
      return;
    }
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
            // Background work still running means the CLI will start another turn on its own; so does
            // a person's message it took and has not started. One that came while the turn ended gets a
            // turn of its own: the person said it before the session was over.
            if (signal.backgroundRunning || (lifecycle && notStarted() && !queue.ended)) {
              idle = true;
              break;
            }
            if (late && !translator.reading.lastResultIsError) give();
            if (notStarted()) idle = true;
            else queue.end();
            break;
          case "command":
            if (signal.uuid === promptId) lifecycle = true;
            if (signal.state === "started") {
              idle = false;
              delivered(signal.uuid);
              if (signal.uuid === promptId) for (const message of input.opening ?? []) delivered(message.id);
              if (signal.uuid === promptId && late) give();
            }
            // Taken back by the binary (never by this driver's plain interrupt): it stays the run's, for
            // the next session; an idle session waits for nothing now.
            if (signal.state === "cancelled" && sent.has(signal.uuid) && !started.has(signal.uuid)) {
              sent.delete(signal.uuid);
              if (idle && !notStarted()) queue.end();
            }
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
    unwatch();
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
