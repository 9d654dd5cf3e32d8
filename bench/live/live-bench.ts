/**
 * The live bench (`npm run bench -- --live`): each task (tasks.ts) run twice with the same model at the
 * same window — once with the SDK's own auto-compact (flower with handoff off, the binary compacting at
 * that window: `CLAUDE_CODE_AUTO_COMPACT_WINDOW`), once with flower's handoff — and the goal's checks,
 * which flower runs itself, deciding success in both. Per run: success, tokens, dollars, wall time,
 * generations and compactions. Everything else is the same: the agent (one hands-on agent, no
 * subagents), its tools, the prompt, the checks, the budget.
 *
 * Tokens come from the binary's own totals per session (`modelUsage` of its last result: main thread,
 * handoff-writing turns and compaction requests alike), read off the session stream through the
 * runtime's `query` seam; dollars are the step record's (the binary's totals, flower's pricing where a
 * total never came).
 */
import { rmSync } from "node:fs";
import {
  query,
  type Options,
  type Query,
  type SDKMessage,
  type SDKUserMessage,
} from "@anthropic-ai/claude-agent-sdk";
import { HandoffPolicy, Runtime, type AgentSpec } from "flower-agent";
import { LIVE_TASKS, type LiveTask } from "./tasks.js";
import { makeWorkspace } from "./workspace.js";

export type LiveMode = "auto-compact" | "handoff";
export const LIVE_MODES: readonly LiveMode[] = ["auto-compact", "handoff"];

export interface LiveTokens {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export interface LiveRun {
  task: string;
  mode: LiveMode;
  /** The goal's checks passed and the step ended done. */
  success: boolean;
  /** How it ended: the step's status, or why it could not run. */
  status: string;
  tokens: LiveTokens;
  usd: number;
  seconds: number;
  generations: number;
  compactions: number;
}

export interface LiveBenchResults {
  /** When it ran (ISO 8601) and with which model, at which window, on which commit. */
  date: string;
  model: string;
  window: number;
  /** flower's handoff line in the handoff runs. */
  handoffAt: number;
  /** Each run's budget in dollars (flower's run budget). */
  budgetUsd: number;
  runs: LiveRun[];
}

export interface LiveBenchOptions {
  /** Merged over the process environment for the `claude` children (the kit's base URL in CI). */
  env?: Record<string, string>;
  model: string;
  /** The context window both modes run at. @default 50_000 */
  window?: number;
  /** Each run's budget. @default 0.75 */
  budgetUsd?: number;
  /** Only these tasks, by name. @default all */
  only?: readonly string[];
  out?: (line: string) => void;
}

/** The hands-on agent both modes run: no subagents, so its own context grows with what it reads. */
const AGENT: AgentSpec = {
  name: "worker",
  instructions: "Do the task yourself with your tools, one tool call per reply.",
  tools: ["Read", "Write", "Edit", "Bash"],
};

export function selectTasks(only: readonly string[] | undefined): LiveTask[] {
  if (only === undefined || only.length === 0) return [...LIVE_TASKS];
  const known = LIVE_TASKS.map((task) => task.name);
  for (const name of only)
    if (!known.includes(name)) throw new Error(`--tasks: no task "${name}" (known: ${known.join(", ")})`);
  return LIVE_TASKS.filter((task) => only.includes(task.name));
}

export async function runLiveBench(options: LiveBenchOptions): Promise<LiveBenchResults> {
  const out = options.out ?? ((line: string) => console.log(line));
  const window = options.window ?? 50_000;
  const budgetUsd = options.budgetUsd ?? 0.75;
  const tasks = selectTasks(options.only);
  // Half the window is flower's room to work before it hands off; the SDK compacts at its own line.
  const policy = new HandoffPolicy({ window, headroom: Math.round(window / 2) });
  out(
    `flower live bench: ${tasks.length} task(s) × auto-compact and handoff, model ${options.model}, window ${window}: ` +
      `it will spend at most about $${(tasks.length * LIVE_MODES.length * budgetUsd).toFixed(2)} ($${budgetUsd.toFixed(2)} a run).`,
  );
  const runs: LiveRun[] = [];
  for (const task of tasks)
    for (const mode of LIVE_MODES) {
      const run = await runOne(task, mode, { ...options, window, budgetUsd, policy });
      runs.push(run);
      out(`  ${task.name} · ${mode}: ${run.success ? "succeeded" : `did not succeed (${run.status})`}`);
    }
  const results: LiveBenchResults = {
    date: new Date().toISOString(),
    model: options.model,
    window,
    handoffAt: policy.at,
    budgetUsd,
    runs,
  };
  for (const line of liveTable(results)) out(line);
  return results;
}

async function runOne(
  task: LiveTask,
  mode: LiveMode,
  options: LiveBenchOptions & { window: number; budgetUsd: number; policy: HandoffPolicy },
): Promise<LiveRun> {
  const workspace = makeWorkspace(`${task.name}-${mode}`, task.files);
  const sessions = new Map<string, LiveTokens>();
  let compactions = 0;
  const observe = (message: SDKMessage) => {
    const shape = message as { type: string; subtype?: string; parent_tool_use_id?: string | null };
    if (shape.type === "system" && shape.subtype === "compact_boundary") compactions += 1;
    if (message.type !== "result") return;
    // Cumulative per session (a resumed session starts from its saved total): its last result is all of it.
    const tokens: LiveTokens = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
    for (const usage of Object.values(message.modelUsage ?? {})) {
      tokens.input += usage.inputTokens;
      tokens.cacheRead += usage.cacheReadInputTokens;
      tokens.cacheWrite += usage.cacheCreationInputTokens;
      tokens.output += usage.outputTokens;
    }
    sessions.set(message.session_id, tokens);
  };
  const rt = new Runtime({
    workspace: workspace.dir,
    runDir: workspace.runDir,
    model: options.model,
    budgetUsd: options.budgetUsd,
    locale: "en",
    handoff: mode === "handoff" ? options.policy : false,
    // A reading task changes no file for a while: the drift watch would pause it at a handoff for a
    // person, and the auto-compact runs have no such pause. Both run to their end.
    driftAfter: 0,
    env: {
      ...options.env,
      ...(mode === "auto-compact" ? { CLAUDE_CODE_AUTO_COMPACT_WINDOW: String(options.window) } : {}),
    },
    _internal: { query: tapped(observe) },
  });
  const started = performance.now();
  let status: string;
  let success = false;
  try {
    const step = await rt.run(task.name, AGENT, task.prompt, {
      goal: { checks: task.checks, guardRounds: 1 },
    });
    status = step.status;
    const runs = rt.records.get(task.name)?.guard?.checkRuns ?? [];
    success = step.status === "done" && runs.at(-1)?.results.every((result) => result.passed) === true;
  } catch (error) {
    status = `failed: ${(error as Error).message.slice(0, 160)}`;
  }
  const seconds = (performance.now() - started) / 1000;
  const record = rt.records.get(task.name);
  rt.close();
  rmSync(workspace.root, { recursive: true, force: true });
  const tokens: LiveTokens = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  for (const session of sessions.values()) {
    tokens.input += session.input;
    tokens.cacheRead += session.cacheRead;
    tokens.cacheWrite += session.cacheWrite;
    tokens.output += session.output;
  }
  return {
    task: task.name,
    mode,
    success,
    status,
    tokens,
    usd: record?.costUsd ?? 0,
    seconds,
    generations: record?.generations ?? 0,
    compactions,
  };
}

/** The SDK's `query()`, every message shown to `observe` on its way to the runtime. */
function tapped(observe: (message: SDKMessage) => void) {
  return (input: { prompt: AsyncIterable<SDKUserMessage>; options?: Options }): Query => {
    const q = query(input);
    async function* watched(): AsyncGenerator<SDKMessage, void> {
      for await (const message of q) {
        observe(message);
        yield message;
      }
    }
    const messages = watched();
    // The runtime reads the messages and calls interrupt() and close(): the first go through `watched`,
    // everything else to the query itself.
    return new Proxy(q, {
      get(target, key, receiver) {
        if (key === Symbol.asyncIterator) return () => messages;
        if (key === "next" || key === "return" || key === "throw")
          return messages[key].bind(messages) as unknown;
        const value = Reflect.get(target, key, receiver) as unknown;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
}

/** The side-by-side table: a row per task and mode. */
export function liveTable(results: LiveBenchResults): string[] {
  const header = [
    "task",
    "mode",
    "success",
    "input",
    "cache read",
    "cache write",
    "output",
    "$",
    "wall s",
    "generations",
    "compactions",
  ];
  const rows = results.runs.map((run) => [
    run.task,
    run.mode,
    run.success ? "yes" : `no (${run.status})`,
    String(run.tokens.input),
    String(run.tokens.cacheRead),
    String(run.tokens.cacheWrite),
    String(run.tokens.output),
    run.usd.toFixed(4),
    String(Math.round(run.seconds)),
    String(run.generations),
    String(run.compactions),
  ]);
  const widths = header.map((title, index) =>
    Math.max(title.length, ...rows.map((row) => row[index]!.length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, index) => cell.padEnd(widths[index]!)).join(" | ")} |`;
  return [
    `model ${results.model}, window ${results.window} (flower hands off at ${results.handoffAt}; the SDK compacts at its own line), ${results.date}`,
    line(header),
    `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`,
    ...rows.map(line),
  ];
}
