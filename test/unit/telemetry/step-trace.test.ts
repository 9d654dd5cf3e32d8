import { ROOT_CONTEXT } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../src/errors.js";
import { Runtime } from "../../../src/runtime/runtime.js";
import type { TelemetryEvent } from "../../../src/telemetry/event-shapes.js";
import { StepTrace, type StepInfo } from "../../../src/telemetry/step-trace.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();

/** Times as epoch milliseconds (an SDK takes 0 for "now"). */
const T0 = 1_790_000_000_000;

async function traced(events: Array<[TelemetryEvent, number]>, info: Partial<StepInfo> = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const [start, at] = events[0]! as [Extract<TelemetryEvent, { type: "step-start" }>, number];
  const trace = new StepTrace(provider.getTracer("t"), ROOT_CONTEXT, start, T0 + at, {
    run: null,
    name: null,
    model: "claude-test",
    prompt: null,
    content: false,
    generationCost: (generation) => generation / 100,
    ...info,
  });
  for (const [event, when] of events.slice(1)) {
    if (event.type === "step-end") trace.end(event, T0 + when);
    else trace.handle(event, T0 + when);
  }
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  const parent = (name: string) => {
    const span = spans.find((s) => s.name === name)!;
    return byId.get(span.parentSpanContext?.spanId ?? "")?.name;
  };
  return { spans, parent, named: (name: string) => spans.find((span) => span.name === name)! };
}

const step = "s";
const context = (tokens: number, generation = 1): TelemetryEvent => ({
  type: "context",
  step,
  context: tokens,
  window: 1000,
  at: 800,
  generation,
  usage: { inputTokens: 1, outputTokens: 9, cacheReadTokens: tokens - 20, cacheWriteTokens: 10 },
});
const end = (status: "done" | "failed", errors: string[] = []): TelemetryEvent => ({
  type: "step-end",
  step,
  ok: status === "done",
  status,
  sessionId: "session-1",
  costUsd: 0.03,
  numTurns: 3,
  turns: 3,
  generations: 2,
  errors,
});

describe("StepTrace: a step's events as spans", () => {
  it("puts turns under generations, subagents under the turn that sent them, the handoff between", async () => {
    const { parent, named } = await traced([
      [{ type: "step-start", step, attempt: 1, generation: 1 }, 0],
      [{ type: "tool-use", step, agent: "coordinator", tool: "Agent", summary: "secret task words" }, 5],
      [{ type: "agent", step, phase: "start", agent: "engineer" }, 6],
      [context(100), 10],
      [{ type: "agent", step, phase: "end", agent: "engineer" }, 20],
      [context(200), 30],
      [{ type: "spill", step, tool: "Bash", path: "/w/.flower/spill/1.txt", chars: 9000 }, 35],
      [{ type: "handoff", step, phase: "writing", generation: 1, context: 200, window: 1000 }, 40],
      [
        {
          type: "handoff",
          step,
          phase: "done",
          generation: 1,
          context: 200,
          window: 1000,
          degraded: true,
          why: "no answer",
        },
        50,
      ],
      [context(300, 2), 60],
      [end("done"), 70],
    ]);
    expect(parent("worker engineer")).toBe("turn 1");
    expect(parent("turn 1")).toBe("generation 1");
    expect(parent("handoff 1→2")).toBe("step s");
    expect(named("generation 1").endTime).toEqual(named("handoff 1→2").startTime);
    expect(named("generation 2").startTime).toEqual(named("handoff 1→2").endTime);
    // The turn the handoff cut (a spill came, no answer) ends with its generation and says so.
    expect(named("turn 3").attributes["flower.turn.unanswered"]).toBe(true);
    expect(named("turn 3").events.map((event) => event.name)).toEqual(["spill"]);
    expect(named("handoff 1→2").attributes).toMatchObject({
      "flower.handoff.degraded": true,
      "flower.handoff.why": "no answer",
    });
    expect(named("generation 1").attributes).toMatchObject({ "flower.turns": 2, "flower.cost.usd": 0.01 });
    expect(named("turn 1").attributes).toMatchObject({
      "flower.context.tokens": 100,
      "gen_ai.usage.cache_read.input_tokens": 80,
    });
    expect(named("step s").attributes).toMatchObject({
      "gen_ai.usage.output_tokens": 27,
      "gen_ai.request.model": "claude-test",
    });
    // Content off: the tool call is named, its input is not.
    expect(JSON.stringify(named("turn 1").events)).not.toContain("secret task words");
  });

  it("keeps a guard round's turns under it, and a successor's turns under the successor", async () => {
    const { parent, named, spans } = await traced([
      [{ type: "step-start", step, attempt: 1, generation: 1 }, 0],
      [context(100), 10],
      [
        {
          type: "goal-checks",
          step,
          round: 0,
          passed: 0,
          total: 1,
          results: [
            {
              index: 0,
              command: "npm test",
              passed: false,
              exitCode: 1,
              durationMs: 4,
              logPath: "checks/0.log",
              reason: "exit 1",
            },
          ],
        },
        20,
      ],
      [
        { type: "guard-round", step, round: 1, rounds: 3, failing: 1, total: 1, cause: "checks", notMet: 0 },
        21,
      ],
      [context(200), 30],
      [{ type: "handoff", step, phase: "writing", generation: 1, context: 200, window: 1000 }, 40],
      [
        { type: "handoff", step, phase: "done", generation: 1, context: 200, window: 1000, degraded: false },
        50,
      ],
      [context(300, 2), 60],
      [
        {
          type: "goal-checks",
          step,
          round: 1,
          passed: 1,
          total: 1,
          results: [
            {
              index: 0,
              command: "npm test",
              passed: true,
              exitCode: 0,
              durationMs: 3,
              logPath: "checks/0.log",
              reason: null,
            },
          ],
        },
        70,
      ],
      [end("done"), 80],
    ]);
    expect(parent("turn 2")).toBe("guard round 1");
    expect(named("turn 2").startTime).toEqual(named("guard round 1").startTime);
    expect(parent("turn 1")).toBe("generation 1");
    expect(named("guard round 1").attributes["flower.guard.outcome"]).toBe("passed");
    const successor = named("generation 2");
    expect(parent("goal check 1")).toBe("generation 1");
    expect(successor.attributes["flower.turns"]).toBe(1);
    // The successor's first turn, in the round that outlived the handoff, is the successor's.
    const successorTurn = spans.find(
      (span) => span.name === "turn 1" && span.attributes["flower.generation"] === 2,
    )!;
    expect(successorTurn.parentSpanContext?.spanId).toBe(successor.spanContext().spanId);
  });

  it("with no model named, takes the one the responses named: turns, their generation and the step", async () => {
    const answered = (tokens: number, model: string, generation = 1): TelemetryEvent => {
      const event = context(tokens, generation) as Extract<TelemetryEvent, { type: "context" }>;
      return { ...event, usage: { ...event.usage!, model } };
    };
    const { named } = await traced(
      [
        [{ type: "step-start", step, attempt: 1, generation: 1 }, 0],
        [answered(100, "claude-a"), 10],
        [answered(200, "claude-b"), 20],
        // A turn the handoff cut: no answer, but the session asks the model it asked before.
        [{ type: "spill", step, tool: "Bash", path: "/w/.flower/spill/1.txt", chars: 9000 }, 25],
        [{ type: "handoff", step, phase: "writing", generation: 1, context: 200, window: 1000 }, 30],
        [{ type: "handoff", step, phase: "done", generation: 1, context: 200, window: 1000 }, 40],
        [answered(50, "claude-b", 2), 50],
        [end("done"), 60],
      ],
      { model: null },
    );
    const models = (name: string) => [
      named(name).attributes["gen_ai.request.model"],
      named(name).attributes["gen_ai.response.model"],
    ];
    expect(models("turn 1")).toEqual(["claude-a", "claude-a"]);
    expect(models("turn 2")).toEqual(["claude-b", "claude-b"]);
    expect(models("turn 3")).toEqual(["claude-b", undefined]);
    expect(models("generation 1")).toEqual(["claude-b", "claude-b"]);
    expect(models("step s")).toEqual(["claude-b", "claude-b"]);
  });

  it("with a model named (--model, ANTHROPIC_MODEL), asks for it, and the response says what answered", async () => {
    const event = context(100) as Extract<TelemetryEvent, { type: "context" }>;
    const { named } = await traced([
      [{ type: "step-start", step, attempt: 1, generation: 1 }, 0],
      [{ ...event, usage: { ...event.usage!, model: "claude-test-20990101" } }, 10],
      [end("done"), 20],
    ]);
    expect(named("turn 1").attributes).toMatchObject({
      "gen_ai.request.model": "claude-test",
      "gen_ai.response.model": "claude-test-20990101",
    });
  });

  it("sets an error status with the step's last error, as the CLI prints it", async () => {
    const { named } = await traced([
      [{ type: "step-start", step, attempt: 1, generation: 1 }, 0],
      [end("failed", ["first", "3 of 3 attempts failed; last: 401 invalid x-api-key"]), 5],
    ]);
    expect(named("step s").status).toEqual({
      code: 2,
      message: "3 of 3 attempts failed; last: 401 invalid x-api-key",
    });
  });

  it("puts the coordinator's words on spans only with content on", async () => {
    const { named } = await traced(
      [
        [{ type: "step-start", step, attempt: 1, generation: 1 }, 0],
        [{ type: "tool-use", step, agent: "coordinator", tool: "Bash", summary: "ls -la" }, 1],
        [context(100), 2],
        [end("done"), 3],
      ],
      { content: true, prompt: "Do the thing." },
    );
    expect(named("step s").attributes["flower.prompt"]).toBe("Do the thing.");
    expect(named("turn 1").events[0]!.attributes).toMatchObject({ "flower.content": "ls -la" });
  });

  it("is refused at the Runtime's boundary with the bad value named", () => {
    const workspace = temp.make("flower-otel-option-");
    expect(() => new Runtime({ workspace, telemetry: { endpoint: "4318" } })).toThrow(ConfigurationError);
    expect(() => new Runtime({ workspace, telemetry: { endpoint: "4318" } })).toThrow(
      /telemetry\.endpoint: got "4318"/,
    );
  });
});
