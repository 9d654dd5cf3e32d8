/**
 * Workload 3: what flower's hooks add to each tool call. The same script — a main thread that runs
 * `ls` (a glance the delegate guard lets through, too short to spill) N times — is run with the options
 * `buildOptions()` makes for a coordinator with a workbench, in three modes: every flower hook installed
 * (delegate guard, foreground-agents, spill guard, index guard), `hooks: {}`, and the same events and
 * matchers with callbacks that do nothing. The third mode splits the overhead into what the SDK's hook
 * round trip costs (empty − none: the CLI asks the SDK process over stdio and waits) and what flower's
 * own callback code costs (flower − empty). Everything else, the system prompt included, is the same.
 * The modes take turns in six rounds, the order reversed every round, so that load drifting on the
 * shared machine falls on all of them alike.
 *
 * Per-call latency is the time between two consecutive main-thread requests reaching the kit: reply
 * streaming, the CLI, the command and the hooks. The added latency is the difference of the two modes'
 * medians (and 95th percentiles).
 *
 * Flower's own share is also timed where it happens: every callback of the flower and the empty mode is
 * wrapped in the same stopwatch (from the SDK's call until the promise the CLI waits for settles), so
 * their difference is what flower's code keeps the CLI waiting per tool call. The callbacks are the only
 * thing the two modes do differently; a wall ratio of those two modes, on the other hand, carries every
 * session's start-up and the machine's drift between sessions, which are larger than that difference.
 *
 * A fourth mode measures the same split through the CLI without that drift: in one session, flower's
 * callbacks and empty ones take turns call by call (`pairedSide`), and the median difference of
 * neighbouring calls is flower's share as the kit sees it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  query,
  type HookCallback,
  type HookCallbackMatcher,
  type Options,
} from "@anthropic-ai/claude-agent-sdk";
import { Workbench, buildOptions, indexGuard, spillGuard } from "flower-agent/hooks";
import { coordinator, subagent } from "flower-agent";
import { startFakeModel, text, toolUse, type ModelRequest } from "flower-agent/testing";
import { pairedDifferences, pairedSide, type Side } from "./paired.js";

export interface HookResult {
  calls: number;
  wallHooksMs: number;
  wallNoneMs: number;
  /** Flower's hooks over none: the target. */
  wallRatio: number;
  medianNoneMs: number;
  medianHooksMs: number;
  addedMedianMs: number;
  p95NoneMs: number;
  p95HooksMs: number;
  addedP95Ms: number;
  /** The same events and matchers with callbacks that do nothing (absent in results of older runs). */
  wallEmptyMs?: number;
  medianEmptyMs?: number;
  p95EmptyMs?: number;
  /** Empty callbacks over none: the SDK's hook round trip. */
  wallRatioEmptyOverNone?: number;
  /** Flower's hooks over empty callbacks: flower's own code. */
  wallRatioHooksOverEmpty?: number;
  /** Time inside the callbacks per tool call, PreToolUse and PostToolUse together (ms; absent in older runs). */
  callbackMsHooks?: number;
  callbackMsEmpty?: number;
  /** Flower's share from the callback times: (median of empty + (callbackMsHooks − callbackMsEmpty)) / median of empty. */
  ownShareTimed?: number;
  /**
   * The paired mode: one session where flower's callbacks and empty ones take turns call by call, so
   * that load drifting between sessions falls on both. Medians of the calls each side made, and the
   * median of the differences of neighbouring calls (flower − empty) over the empty side's median.
   */
  pairedMedianFlowerMs?: number;
  pairedMedianEmptyMs?: number;
  pairedMedianDiffMs?: number;
  pairedRatio?: number;
  ok: boolean;
  error?: string;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

async function runOnce(
  options: Options,
  calls: number,
  env: (policy: (request: ModelRequest) => ReturnType<typeof text>) => Promise<{
    env: Record<string, string>;
    close: () => Promise<void>;
  }>,
): Promise<{ wallMs: number; gaps: number[]; error?: string }> {
  const arrivals: number[] = [];
  const kit = await env((request) => {
    if (request.kind === "main") arrivals.push(performance.now());
    const done = request.countToolResults("Bash");
    return done < calls ? toolUse("Bash", { command: "ls" }) : text(`ran ${done} commands`);
  });
  const started = performance.now();
  let error: string | undefined;
  const session = query({
    prompt: `Run ls ${calls} times.`,
    options: { ...options, env: { ...options.env, ...kit.env } },
  });
  try {
    for await (const message of session) {
      if (message.type === "result" && message.subtype !== "success") error = message.subtype;
    }
  } finally {
    session.close();
    await kit.close();
  }
  const wallMs = performance.now() - started;
  const gaps = arrivals.slice(1).map((time, index) => time - arrivals[index]!);
  return { wallMs, gaps, ...(error ? { error } : {}) };
}

/** Alternation rounds; each mode runs once per round, so a run of N calls is six sessions per mode. */
const ROUNDS = 6;

/** Flower's hook map with every callback replaced by one that does nothing: same events, same matchers. */
function emptyCallbacks(hooks: NonNullable<Options["hooks"]>): NonNullable<Options["hooks"]> {
  const empty: NonNullable<Options["hooks"]> = {};
  for (const [event, matchers] of Object.entries(hooks) as Array<[keyof typeof hooks, HookCallbackMatcher[]]>)
    empty[event] = matchers.map((matcher) => ({
      ...matcher,
      hooks: matcher.hooks.map(() => async () => ({})),
    }));
  return empty;
}

/** A stopwatch over hook callbacks: total milliseconds from each call until its promise settled. */
interface CallbackClock {
  ms: number;
}

/** The same hook map with every callback timed into `clock`; the wrapper itself costs well under a µs. */
function timedCallbacks(
  hooks: NonNullable<Options["hooks"]>,
  clock: CallbackClock,
): NonNullable<Options["hooks"]> {
  const timed: NonNullable<Options["hooks"]> = {};
  for (const [event, matchers] of Object.entries(hooks) as Array<[keyof typeof hooks, HookCallbackMatcher[]]>)
    timed[event] = matchers.map((matcher) => ({
      ...matcher,
      hooks: matcher.hooks.map((callback): HookCallback => async (input, toolUseId, context) => {
        const started = performance.now();
        try {
          return await callback(input, toolUseId, context);
        } finally {
          clock.ms += performance.now() - started;
        }
      }),
    }));
  return timed;
}

/**
 * Flower's hook map where each tool call runs either flower's callbacks or empty ones, by `pairedSide`
 * of the call's index in the session; its PostToolUse follows the side its PreToolUse took. `sides`
 * receives each call's side in order: the same order as the gaps the kit measures.
 */
function alternatingCallbacks(
  hooks: NonNullable<Options["hooks"]>,
  sides: Side[],
): NonNullable<Options["hooks"]> {
  const sideOf = new Map<string, Side>();
  const side = (toolUseId: string | undefined): Side => {
    const key = toolUseId ?? "";
    let chosen = sideOf.get(key);
    if (chosen === undefined) {
      chosen = pairedSide(sides.length);
      sides.push(chosen);
      sideOf.set(key, chosen);
    }
    return chosen;
  };
  const alternating: NonNullable<Options["hooks"]> = {};
  for (const [event, matchers] of Object.entries(hooks) as Array<[keyof typeof hooks, HookCallbackMatcher[]]>)
    alternating[event] = matchers.map((matcher) => ({
      ...matcher,
      hooks: matcher.hooks.map(
        (callback): HookCallback =>
          async (input, toolUseId, context) =>
            side(toolUseId) === "flower" ? callback(input, toolUseId, context) : {},
      ),
    }));
  return alternating;
}

export async function runHooks(calls: number): Promise<HookResult> {
  const root = mkdtempSync(join(tmpdir(), "flower-bench-hooks-"));
  try {
    const workspace = join(root, "ws");
    mkdirSync(workspace, { recursive: true });
    for (const name of ["a.txt", "b.txt", "c.txt"]) writeFileSync(join(workspace, name), "x\n");
    const workbench = new Workbench({ workspace, locale: "en" });
    await workbench.ensure();
    await workbench.refresh();
    const spec = coordinator("lead", "Run what you are told.", {
      worker: subagent("Runs commands.", "Run what the brief says.", { tools: ["Bash", "Read"] }),
    });
    const withHooks = buildOptions(spec, {
      workspace,
      locale: "en",
      handoffEnabled: false,
      systemAppend: [workbench.promptBlock()],
      hooks: {
        PostToolUse: [spillGuard({ dir: workbench.spill, locale: "en" }), indexGuard(workbench)],
      },
    });
    const clocks = { empty: { ms: 0 }, hooks: { ms: 0 } };
    const flowerHooks = withHooks.hooks ?? {};
    const withoutHooks: Options = { ...withHooks, hooks: {} };
    const withEmptyHooks: Options = {
      ...withHooks,
      hooks: timedCallbacks(emptyCallbacks(flowerHooks), clocks.empty),
    };
    const withTimedHooks: Options = { ...withHooks, hooks: timedCallbacks(flowerHooks, clocks.hooks) };
    const kit = async (policy: (request: ModelRequest) => ReturnType<typeof text>) => {
      const model = await startFakeModel({ policy });
      return { env: model.env(), close: () => model.close() };
    };
    // The paired mode's sides, reset for each of its sessions (its hooks are made per session).
    let sides: Side[] = [];
    const paired = { flower: [] as number[], empty: [] as number[], differences: [] as number[] };
    const modes = {
      none: () => withoutHooks,
      empty: () => withEmptyHooks,
      hooks: () => withTimedHooks,
      paired: () => {
        sides = [];
        return { ...withHooks, hooks: alternatingCallbacks(flowerHooks, sides) };
      },
    };
    const gaps: Record<keyof typeof modes, number[]> = { none: [], empty: [], hooks: [], paired: [] };
    const wall: Record<keyof typeof modes, number> = { none: 0, empty: 0, hooks: 0, paired: 0 };
    let error: string | undefined;
    const rounds = Math.min(ROUNDS, Math.max(1, Math.floor(calls / 10)));
    for (let index = 0; index < rounds; index++) {
      const part = Math.floor((calls * (index + 1)) / rounds) - Math.floor((calls * index) / rounds);
      const order: Array<keyof typeof modes> = ["none", "empty", "hooks", "paired"];
      if (index % 2 === 1) order.reverse();
      for (const mode of order) {
        const run = await runOnce(modes[mode](), part, kit);
        gaps[mode].push(...run.gaps);
        if (mode === "paired") {
          // The first pair is left out: a session's first call is several times slower than the rest (0.9–1.7 s
          // against a median of 0.12–0.19 s at load 13–16, the CLI's first Bash call of the session).
          run.gaps.forEach((gap, call) => {
            const side = sides[call];
            if (side && call >= 2) paired[side].push(gap);
          });
          paired.differences.push(...pairedDifferences(run.gaps.slice(2), sides.slice(2)));
        }
        wall[mode] += run.wallMs;
        error ??= run.error;
      }
    }
    const none = gaps.none;
    const hooks = gaps.hooks;
    const wallNoneMs = wall.none;
    const wallHooksMs = wall.hooks;
    const round = (value: number) => Math.round(value * 10) / 10;
    const medianNoneMs = quantile(none, 0.5);
    const medianHooksMs = quantile(hooks, 0.5);
    const p95NoneMs = quantile(none, 0.95);
    const p95HooksMs = quantile(hooks, 0.95);
    const medianEmptyMs = quantile(gaps.empty, 0.5);
    const callbackMsHooks = clocks.hooks.ms / calls;
    const callbackMsEmpty = clocks.empty.ms / calls;
    return {
      calls,
      wallHooksMs: Math.round(wallHooksMs),
      wallNoneMs: Math.round(wallNoneMs),
      wallRatio: Number((wallHooksMs / wallNoneMs).toFixed(3)),
      medianNoneMs: round(medianNoneMs),
      medianHooksMs: round(medianHooksMs),
      addedMedianMs: round(medianHooksMs - medianNoneMs),
      p95NoneMs: round(p95NoneMs),
      p95HooksMs: round(p95HooksMs),
      addedP95Ms: round(p95HooksMs - p95NoneMs),
      wallEmptyMs: Math.round(wall.empty),
      medianEmptyMs: round(medianEmptyMs),
      p95EmptyMs: round(quantile(gaps.empty, 0.95)),
      wallRatioEmptyOverNone: Number((wall.empty / wallNoneMs).toFixed(3)),
      wallRatioHooksOverEmpty: Number((wallHooksMs / wall.empty).toFixed(3)),
      callbackMsHooks: Number(callbackMsHooks.toFixed(3)),
      callbackMsEmpty: Number(callbackMsEmpty.toFixed(3)),
      ownShareTimed: Number(((medianEmptyMs + callbackMsHooks - callbackMsEmpty) / medianEmptyMs).toFixed(4)),
      pairedMedianFlowerMs: round(quantile(paired.flower, 0.5)),
      pairedMedianEmptyMs: round(quantile(paired.empty, 0.5)),
      pairedMedianDiffMs: round(quantile(paired.differences, 0.5)),
      pairedRatio: Number(
        (
          (quantile(paired.empty, 0.5) + quantile(paired.differences, 0.5)) /
          quantile(paired.empty, 0.5)
        ).toFixed(3),
      ),
      ok: error === undefined && Object.values(gaps).every((list) => list.length >= calls - rounds),
      ...(error ? { error } : {}),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
