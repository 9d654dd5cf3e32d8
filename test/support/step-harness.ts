/**
 * StepRun without the binary, for the step loop's unit tests: an in-process scripted query() and a
 * recording environment (every saved record, every event, the session-load listeners), in a temp
 * workspace the caller removes. End to end, the same paths run through the real binary in test/e2e/.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { afterEach } from "vitest";
import { HandoffPolicy } from "../../src/handoff/policy.js";
import type { FlowerEvent } from "../../src/runtime/events.js";
import { StepRun, type StepEnvironment, type StepPlan } from "../../src/runtime/drive/step-run.js";
import type { StepRecord } from "../../src/records/step-record.js";
import { init, scriptedQuery, type ScriptedSession } from "./scripted-query.js";

export interface StepHarness {
  run: StepRun;
  saves: StepRecord[];
  events: FlowerEvent[];
  loads: Map<string, (report: { expired: number }) => void>;
  workspace: string;
  calls: ReturnType<typeof scriptedQuery>["calls"];
  assertComplete: () => void;
}

/** Fields of the plan to override; a function gets the workspace, for fields that name paths in it. */
export type PlanOverrides = Partial<StepPlan> | ((workspace: string) => Partial<StepPlan>);

/**
 * A StepRun of `sessions` (one scripted session per query() call). The plan defaults to a step
 * "survey" of agent "lead" with a 100k window and 3 attempts; `plan` overrides any field. Session
 * options carry `resume` and WRITING=<writing>, a reviewer's carry REVIEWER=true, so a test can tell
 * them apart in `calls`. The clock ticks one second per call.
 */
export function stepHarness(
  sessions: ScriptedSession[],
  plan: PlanOverrides = {},
  prefix = "flower-step-run-",
  /** Environment fields to add or replace (e.g. `handoffRequests`). */
  extra: Partial<StepEnvironment> = {},
): StepHarness {
  const scripted = scriptedQuery(sessions);
  const saves: StepRecord[] = [];
  const events: FlowerEvent[] = [];
  const loads = new Map<string, (report: { expired: number }) => void>();
  const workspace = mkdtempSync(join(tmpdir(), prefix));
  let tick = 0;
  const env: StepEnvironment = {
    save: (record) => saves.push(structuredClone(record)),
    earlier: () => undefined,
    sessionOptions: ({ resume, writing }) => ({
      ...(resume ? { resume } : {}),
      env: { WRITING: String(writing) },
    }),
    reviewerOptions: () => ({ env: { REVIEWER: "true" } }),
    beforeSession: async () => {},
    watchLoads: (sessionId, listener) => {
      loads.set(sessionId, listener as never);
      return () => loads.delete(sessionId);
    },
    emit: (event) => events.push(event),
    query: scripted.query,
    now: () => new Date(Date.UTC(2026, 10, 30, 12, 0, tick++)),
    ...extra,
  };
  const run = new StepRun(
    {
      step: "survey",
      agent: "lead",
      prompt: "Count the lines in data/.",
      policy: new HandoffPolicy({ window: 100_000, headroom: 50_000 }),
      locale: "en",
      workspace,
      notesDir: join(workspace, ".flower", "notes"),
      maxAttempts: 3,
      stopSignal: new AbortController().signal,
      ...(typeof plan === "function" ? plan(workspace) : plan),
    },
    env,
  );
  return {
    run,
    saves,
    events,
    loads,
    workspace,
    calls: scripted.calls,
    assertComplete: scripted.assertComplete,
  };
}

/** A scripted session: the init message with its id, then the given messages in order. */
export const session =
  (id: string, ...parts: Array<SDKMessage | SDKMessage[]>): ScriptedSession =>
  () => [init(id), ...parts.flat()];

/** A complete handoff answer for the harness's step "survey" (counting the lines in data/). */
export const HANDOFF_ANSWER = [
  "## doing",
  "Counting the lines in data/.",
  "## decided",
  "- wc over find: one pass",
  "## dead ends",
  "- none",
  "## next",
  "Sum the per-file counts.",
  "## scene",
  "- data/",
].join("\n");

/** stepHarness() whose workspaces are removed after each test of the file that calls this (at its top). */
export function useStepHarness(): (sessions: ScriptedSession[], plan?: PlanOverrides) => StepHarness {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (sessions, plan = {}) => {
    const h = stepHarness(sessions, plan);
    dirs.push(h.workspace);
    return h;
  };
}
