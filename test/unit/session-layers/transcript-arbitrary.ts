/**
 * fast-check transcripts: turns of prompts and responses with parallel tool calls (CLI one-block layout
 * and multi-block), denials, a person's rejections (at the prompt and through the SDK), interruptions,
 * retries and synthetic API errors, uuid-less markers, and a subagent sidechain transcript for each Agent call.
 */
import fc from "fast-check";
import {
  TranscriptBuilder,
  bash,
  read,
  type CallSpec,
  type Entry,
  type ResultKind,
} from "./transcript-fixtures.js";

const EPHEMERAL = ["git status -s", "ls", "cat README.md", "git status"];
const OTHER = ["npm test", "rm -rf build", "make"];

const callArbitrary: fc.Arbitrary<CallSpec> = fc.oneof(
  fc
    .record({
      command: fc.constantFrom(...EPHEMERAL),
      result: fc.constantFrom<ResultKind>("ok", "ok", "ok", "denied", "interrupted", "rejected", "refused"),
      // Both sides of the (zh) hint's length, under the smallest trim: a glance shorter than its hint is
      // never replaced.
      out: fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 40, maxLength: 99 })),
    })
    .map(({ command, result, out }) => bash(command, out, result)),
  fc
    .record({
      command: fc.constantFrom(...OTHER),
      result: fc.constantFrom<ResultKind>("ok", "denied", "denied", "interrupted", "rejected", "refused"),
      size: fc.nat({ max: 3000 }),
    })
    .map(({ command, result, size }) => bash(command, "o".repeat(size), result)),
  fc.record({ size: fc.nat({ max: 4000 }) }).map(({ size }) => read("/repo/f.txt", "r".repeat(size))),
  fc.constant<CallSpec>({
    name: "Agent",
    input: { description: "sub task", prompt: "do it" },
    result: "ok",
    output: "report: done",
  }),
);

type Step =
  | { kind: "prompt" }
  | { kind: "response"; text: boolean; calls: CallSpec[]; multiBlock: boolean; retries: number }
  | { kind: "api-error"; retries: number }
  | { kind: "marker" };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Step>({ kind: "prompt" }) },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant("response" as const),
      text: fc.boolean(),
      calls: fc.array(callArbitrary, { minLength: 0, maxLength: 4 }),
      multiBlock: fc.boolean(),
      retries: fc.nat({ max: 2 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("api-error" as const), retries: fc.nat({ max: 3 }) }),
  },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: "marker" }) },
);

export interface GeneratedSession {
  main: Entry[];
  /** Subagent transcripts by subpath. */
  subagents: Map<string, Entry[]>;
}

function build(
  steps: readonly Step[],
  builder: TranscriptBuilder,
  subagents: Map<string, Entry[]> | null,
): Entry[] {
  builder.prompt("task");
  // The API needs a user message after a finished response and after an error; the CLI writes a prompt there.
  let needPrompt = false;
  let markers = 0;
  for (const step of steps) {
    if (step.kind === "marker") {
      markers += 1;
      builder.marker(markers % 2 === 0 ? "cost-state" : "mode", markers % 3);
      continue;
    }
    if (step.kind === "prompt" || needPrompt) {
      builder.prompt("more");
      needPrompt = false;
      if (step.kind === "prompt") continue;
    }
    if (step.kind === "api-error") {
      for (let attempt = 1; attempt <= step.retries; attempt += 1) builder.apiRetry(attempt);
      builder.apiErrorMessage();
      needPrompt = true;
      continue;
    }
    for (let attempt = 1; attempt <= step.retries; attempt += 1) builder.apiRetry(attempt);
    const calls = step.calls;
    const ids = builder.response(step.text || calls.length === 0 ? "thinking aloud" : null, calls, {
      multiBlock: step.multiBlock,
    });
    ids.forEach((id, index) => {
      if (subagents === null || calls[index]?.name !== "Agent") return;
      const sub = new TranscriptBuilder({ prefix: `a${subagents.size}`, agentId: `agent-${id}` });
      const subSteps = steps.filter((s) => s.kind === "response").slice(0, 4);
      subagents.set(`subagents/agent-${id}`, build(subSteps, sub, null));
    });
    // An interruption and a person's rejection at the prompt end the turn; the next word is the person's.
    needPrompt =
      calls.length === 0 || calls.some((call) => call.result === "interrupted" || call.result === "rejected");
  }
  return builder.entries;
}

export const sessionArbitrary: fc.Arbitrary<GeneratedSession> = fc
  .array(stepArbitrary, { minLength: 1, maxLength: 30 })
  .map((steps) => {
    const subagents = new Map<string, Entry[]>();
    const main = build(steps, new TranscriptBuilder(), subagents);
    return { main, subagents };
  });

export interface PassChoice {
  disconnects: boolean;
  denials: { keepDenials: number } | null;
  expire: { keepEphemeral: number } | null;
  trim: { keepRecent: number; minChars: number } | null;
}

export const passChoiceArbitrary: fc.Arbitrary<PassChoice> = fc.record({
  disconnects: fc.boolean(),
  denials: fc.option(fc.record({ keepDenials: fc.nat({ max: 3 }) }), { nil: null }),
  expire: fc.option(fc.record({ keepEphemeral: fc.nat({ max: 7 }) }), { nil: null }),
  trim: fc.option(
    fc.record({ keepRecent: fc.nat({ max: 5 }), minChars: fc.integer({ min: 100, max: 3000 }) }),
    { nil: null },
  ),
});
