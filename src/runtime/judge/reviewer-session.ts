/**
 * The goal guard's reviewer session: fresh (never the coordinator's), read-only, short, never
 * handing off. Its cost is added to the step; its events are not the coordinator's and are not shown;
 * its verdict is (goal-judge.ts reads it).
 */
import type { Options } from "@anthropic-ai/claude-agent-sdk";
import { HandoffPolicy } from "../../handoff/policy.js";
import type { ReviewSession } from "./goal-judge.js";
import { runSession } from "../session/session-run.js";
import type { QueryFunction } from "../query-function.js";
import type { StepLedger } from "../books/step-ledger.js";

/** The reviewer's session is short and never hands off. */
const NO_HANDOFF = new HandoffPolicy({ enabled: false });

export interface ReviewerSessionInput {
  step: string;
  /** SDK options for the reviewer; undefined when the runtime gave none (a wiring error). */
  options: Options | undefined;
  ledger: StepLedger;
  stopSignal: AbortSignal;
  query: QueryFunction;
  prompt: string;
}

/** Runs one reviewer session with this prompt and books its cost. */
export async function reviewerSession(input: ReviewerSessionInput): Promise<ReviewSession> {
  const { ledger } = input;
  if (!input.options) throw new Error("the runtime gave no reviewer options for a goal with review");
  const outcome = await runSession({
    step: input.step,
    options: input.options,
    prompt: input.prompt,
    policy: NO_HANDOFF,
    generation: ledger.generationNumber,
    writing: true,
    // The reviewer's events are not the coordinator's; what its responses used is the step's spend.
    sink: (event) => {
      if (event.type === "usage") ledger.accept(event, true);
    },
    onSession: () => {},
    stopSignal: input.stopSignal,
    query: input.query,
  });
  ledger.account(outcome, false);
  return {
    answer: outcome.resultText,
    sessionId: outcome.sessionId,
    error: outcome.kind === "completed" ? null : (outcome.error ?? `the session ended ${outcome.kind}`),
    stopped: outcome.kind === "stopped",
  };
}
