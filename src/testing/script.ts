/**
 * A scripted policy: the model's side of a conversation written down in order, as a test reads it.
 *
 * A policy that keeps counters in closures ("the third request fails", "only once") hides the
 * conversation in branches, and nothing notices when the run takes a different path. A script lists
 * the replies; each is used once; a request that no reply is left for fails the run at once (the kit
 * answers a 400 and records the error), and `assertComplete()` fails a test whose script was not used
 * up. Modelled on openai-agents-js's `ScriptedModel`.
 *
 * The CLI interleaves conversations: a subagent's requests fall between two of the main thread's,
 * parallel subagents in any order, and title requests whenever the CLI likes. So a request takes the
 * first pending step that accepts it: steps of one kind are used in their order, steps of different
 * kinds do not wait for each other, and `when` lets a step wait for its own conversation.
 */
import { FakeModelError, describeValue, refuseUnknownOptions } from "../errors.js";
import type { Policy } from "./fake-model.js";
import type { ModelRequest, RequestKind } from "./model-request.js";
import type { Reply } from "./replies.js";

/** What a step answers: a reply, or a function of the request that returns one. */
export type Answer = Reply | ((request: ModelRequest) => Reply | Promise<Reply>);

export interface StepMatch {
  /** The conversation the step answers. @default "main" */
  kind?: RequestKind;
  /** A further condition: the step waits for a request that meets it (one of parallel subagents, the handoff turn). */
  when?: (request: ModelRequest) => boolean;
  /** How errors name the step, e.g. "the successor's first request". */
  label?: string;
}

const STEP = Symbol("flower.script-step");

/** A reply bound to the requests it may answer; made by `on()`. */
export interface ScriptStep {
  readonly [STEP]: true;
  readonly kind: RequestKind;
  readonly when: ((request: ModelRequest) => boolean) | undefined;
  readonly label: string | undefined;
  readonly answer: Answer;
}

/** One entry of a script: a main-thread answer, or a step made by `on()`. */
export type ScriptEntry = Answer | ScriptStep;

export interface ScriptOptions {
  /**
   * Answers a request that no pending step accepts. Without it such a request is an error: the model
   * was called past the script. With it, the script holds the replies that must each be used once
   * (a fault, a slow reply) and `otherwise` the rest of the conversation.
   * @default undefined
   */
  otherwise?: Policy;
}

/** A policy for `startFakeModel({ policy })` that answers from a script. */
export interface ScriptedPolicy extends Policy {
  /** Throws when steps were left unused or a request came past the script, naming them. */
  assertComplete(): void;
  /** The steps not used yet, described as errors describe them. */
  readonly pending: readonly string[];
}

const KINDS: readonly RequestKind[] = ["main", "subagent", "title", "compact"];

/** A step for a conversation other than the main thread, or one that waits for a condition. */
export function on(match: RequestKind | StepMatch, answer: Answer): ScriptStep {
  const resolved: StepMatch = typeof match === "string" ? { kind: match } : (match ?? {});
  const kind = resolved.kind ?? "main";
  if (!KINDS.includes(kind)) {
    throw new FakeModelError(`script: on() got kind ${describeValue(kind)}; known: ${KINDS.join(", ")}`);
  }
  if (resolved.when !== undefined && typeof resolved.when !== "function") {
    throw new FakeModelError(
      `script: on() got when ${describeValue(resolved.when)}; expected a function (request) => boolean`,
    );
  }
  checkAnswer(answer, "on()");
  return { [STEP]: true, kind, when: resolved.when, label: resolved.label, answer };
}

/** Answers requests in order from `entries` (see the module comment for how requests find their step). */
export function script(entries: readonly ScriptEntry[], options: ScriptOptions = {}): ScriptedPolicy {
  // Array.isArray narrows to any[]: keep the declared type for the steps.
  const list: readonly ScriptEntry[] = entries;
  if (!Array.isArray(entries)) {
    throw new FakeModelError(`script: expected an array of replies, got ${describeValue(entries)}`);
  }
  refuseUnknownOptions(options, { otherwise: true } satisfies Record<keyof ScriptOptions, true>);
  if (options.otherwise !== undefined && typeof options.otherwise !== "function") {
    throw new FakeModelError(
      `script: options.otherwise must be a policy (request) => reply, got ${describeValue(options.otherwise)}`,
    );
  }
  const steps = list.map((entry, index) => {
    if (!isStep(entry)) checkAnswer(entry, `step ${index + 1}`);
    return { number: index + 1, step: isStep(entry) ? entry : on("main", entry), used: false };
  });
  const overruns: string[] = [];
  const pendingSteps = () => steps.filter((s) => !s.used);
  const describePending = () => pendingSteps().map((s) => describeStep(s.number, s.step));

  const policy = async (request: ModelRequest): Promise<Reply | undefined> => {
    // Taken before any await, so parallel requests never share a step.
    const found = steps.find(
      (s) => !s.used && s.step.kind === request.kind && (s.step.when?.(request) ?? true),
    );
    if (found) {
      found.used = true;
      const answer = found.step.answer;
      return typeof answer === "function" ? answer(request) : answer;
    }
    if (options.otherwise) return options.otherwise(request);
    // The CLI's side requests come when it likes; unscripted, the kit answers them itself.
    if (request.kind === "title" || request.kind === "compact") return undefined;
    const where = `request #${request.index} (${request.kind})`;
    const pending = describePending();
    const message =
      pending.length === 0
        ? `script: ${where} came after all ${steps.length} steps were used`
        : `script: no pending step accepts ${where}; pending: ${pending.join("; ")}`;
    overruns.push(where);
    throw new FakeModelError(
      `${message}; last user text: ${JSON.stringify(request.lastUserText().slice(0, 120))}`,
    );
  };

  const assertComplete = (): void => {
    const pending = describePending();
    const problems: string[] = [];
    if (pending.length > 0) {
      problems.push(
        `${pending.length} of ${steps.length} step${steps.length === 1 ? "" : "s"} ${pending.length === 1 ? "was" : "were"} never used: ${pending.join("; ")}`,
      );
    }
    if (overruns.length > 0) problems.push(`no step was left for ${overruns.join(", ")}`);
    if (problems.length > 0) throw new FakeModelError(`script: ${problems.join("; and ")}`);
  };
  // defineProperty, not Object.assign: `pending` must stay a getter, read when asked.
  return Object.defineProperties(policy, {
    assertComplete: { value: assertComplete },
    pending: { get: describePending },
  }) as ScriptedPolicy;
}

function isStep(entry: unknown): entry is ScriptStep {
  return typeof entry === "object" && entry !== null && STEP in entry;
}

/** A shape check at script time, so a typo fails where it is written; the kit validates replies fully when sent. */
function checkAnswer(answer: unknown, where: string): void {
  if (typeof answer === "function") return;
  if (answer !== null && typeof answer === "object" && ("content" in answer || "fault" in answer)) return;
  throw new FakeModelError(
    `script: ${where} is ${describeValue(answer)}; expected a reply (text(...), toolUse(...), fault(...)), ` +
      "a function of the request, or on(kind, reply)",
  );
}

function describeStep(number: number, step: ScriptStep): string {
  const what = step.label ?? describeAnswer(step.answer);
  return `step ${number} (${step.kind}${step.when ? ", when ..." : ""}): ${what}`;
}

function describeAnswer(answer: Answer): string {
  if (typeof answer === "function")
    return answer.name ? `${answer.name}(request)` : "a function of the request";
  if ("fault" in answer) return `fault ${JSON.stringify(answer.fault)}`;
  return answer.content
    .map((block) =>
      block.type === "text"
        ? `text ${describeValue(shorten(block.text))}`
        : `tool_use ${block.name} ${shorten(JSON.stringify(block.input))}`,
    )
    .join(" + ");
}

function shorten(value: string): string {
  return value.length > 60 ? `${value.slice(0, 57)}...` : value;
}
