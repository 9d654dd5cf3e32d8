/**
 * Attribute names in one place. The OpenTelemetry GenAI conventions where one applies (their names are
 * still "development" status, so they are spelled out here instead of imported from a package that may
 * rename them), flower's own under `flower.`.
 */
import type { TurnUsage } from "./event-shapes.js";

export const GEN_AI = {
  system: "gen_ai.system",
  operation: "gen_ai.operation.name",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  cacheReadTokens: "gen_ai.usage.cache_read.input_tokens",
  cacheWriteTokens: "gen_ai.usage.cache_creation.input_tokens",
  agentName: "gen_ai.agent.name",
  tokenType: "gen_ai.token.type",
} as const;

export const FLOWER = {
  run: "flower.run",
  step: "flower.step",
  stepName: "flower.step.name",
  attempt: "flower.attempt",
  generation: "flower.generation",
  generations: "flower.generations",
  turn: "flower.turn",
  turns: "flower.turns",
  contextTokens: "flower.context.tokens",
  contextWindow: "flower.context.window",
  costUsd: "flower.cost.usd",
  status: "flower.status",
  handoffDegraded: "flower.handoff.degraded",
  handoffWhy: "flower.handoff.why",
  handoffPath: "flower.handoff.path",
  cutCalls: "flower.handoff.cut_calls",
  goalCheck: "flower.goal.check",
  goalCheckPassed: "flower.goal.check.passed",
  goalCheckExit: "flower.goal.check.exit_code",
  guardRound: "flower.guard.round",
  guardRounds: "flower.guard.rounds",
  guardCause: "flower.guard.cause",
  guardOutcome: "flower.guard.outcome",
  goalFailing: "flower.goal.failing",
  goalTotal: "flower.goal.total",
  agent: "flower.agent",
  tool: "flower.tool",
  prompt: "flower.prompt",
  content: "flower.content",
  continued: "flower.run.continued",
} as const;

/** The provider flower's sessions talk to, as the GenAI conventions name it. */
export const SYSTEM = "anthropic";

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export const noUsage = (): UsageTotals => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

export function addUsage(total: UsageTotals, usage: TurnUsage | UsageTotals): void {
  total.inputTokens += usage.inputTokens;
  total.outputTokens += usage.outputTokens;
  total.cacheReadTokens += usage.cacheReadTokens;
  total.cacheWriteTokens += usage.cacheWriteTokens;
}

export function usageAttributes(usage: UsageTotals): Record<string, number> {
  return {
    [GEN_AI.inputTokens]: usage.inputTokens,
    [GEN_AI.outputTokens]: usage.outputTokens,
    [GEN_AI.cacheReadTokens]: usage.cacheReadTokens,
    [GEN_AI.cacheWriteTokens]: usage.cacheWriteTokens,
  };
}
