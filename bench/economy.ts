/**
 * Workloads 1 and 2: the same sub-task work done by a plain SDK agent, by the SDK's own subagents, and
 * by flower (coordinator + worker, workbench, spill, handoff), each against its own offline kit so
 * every figure is read off that mode's requests alone.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { query, type Options } from "@anthropic-ai/claude-agent-sdk";
import { HandoffPolicy, Runtime, coordinator, subagent, type FlowerEvent } from "flower-agent";
import { startFakeModel, type Exchange } from "flower-agent/testing";
import { mainTurns, summarise, type MainTurn, type ModeSummary } from "./metrics.js";
import { economyPolicy, taskPrompt, writeData, type Mode } from "./workload.js";

export const WORKER_DESCRIPTION = "Runs shell commands over the data files and reports what they show.";
export const WORKER_INSTRUCTIONS =
  "Run the commands the brief names, read their output, and answer with a short report of what you saw.";
const WORKER_TOOLS = ["Bash", "Read"];

export interface Switch {
  generation: number;
  /** Main-thread context when the handoff was decided. */
  context: number;
  at: number;
  degraded: boolean;
  /** Calls of the crossing response the switch cut (each named in the handoff's next). */
  cutCalls?: number;
  /** Calls of the crossing response the switch let finish before it handed off. */
  finishedCalls?: number;
}

export interface ModeResult extends ModeSummary {
  mode: Mode;
  wallMs: number;
  ok: boolean;
  error?: string;
  compactions: number;
  generations: number;
  degraded: number;
  switches: Switch[];
  /** The first main-thread context of each session: the start-up floor of each generation. */
  startupFloors: number[];
  spills: number;
  turns: MainTurn[];
}

export interface EconomyConfig {
  subtasks: number;
  /** The model's window: the kit refuses larger requests, auto-compact and handoff are set to it. */
  window: number;
  modes: Mode[];
}

export async function drain(options: Options, prompt: string): Promise<{ ok: boolean; error?: string }> {
  const session = query({ prompt, options });
  try {
    for await (const message of session) {
      if (message.type === "result")
        return message.subtype === "success"
          ? { ok: true }
          : { ok: false, error: `${message.subtype}: ${JSON.stringify(message).slice(0, 300)}` };
    }
    return { ok: false, error: "no result message" };
  } finally {
    session.close();
  }
}

/** SDK options both plain modes share: the preset prompt, no settings files, auto-compact at `window`. */
export function sdkOptions(workspace: string, env: Record<string, string>, window: number): Options {
  return {
    cwd: workspace,
    env: { ...process.env, ...env, CLAUDE_CODE_AUTO_COMPACT_WINDOW: String(window) },
    systemPrompt: { type: "preset", preset: "claude_code" },
    permissionMode: "bypassPermissions",
    allowDangerouslySkipPermissions: true,
  };
}

export async function runMode(mode: Mode, config: EconomyConfig): Promise<ModeResult> {
  const root = mkdtempSync(join(tmpdir(), `flower-bench-${mode}-`));
  const workspace = join(root, "ws");
  const model = await startFakeModel({
    policy: economyPolicy(mode, config.subtasks),
    contextWindow: config.window,
  });
  const switches: Switch[] = [];
  /** Exchange counts when flower resumed a session (the handoff's writing turn, a retry). */
  const resumes: number[] = [];
  let generations = 1;
  let degraded = 0;
  let spills = 0;
  let outcome: { ok: boolean; error?: string } | undefined;
  const started = performance.now();
  try {
    writeData(workspace, config.subtasks);
    const prompt = taskPrompt(config.subtasks);
    if (mode === "plain") {
      outcome = await drain(
        {
          ...sdkOptions(workspace, model.env(), config.window),
          tools: ["Bash", "Read"],
          allowedTools: ["Bash", "Read"],
        },
        prompt,
      );
    } else if (mode === "subagents") {
      // The session's tool list is session-wide: the workers' Bash and Read must be in it.
      const tools = ["Agent", "Bash", "Read"];
      outcome = await drain(
        {
          ...sdkOptions(workspace, model.env(), config.window),
          tools,
          allowedTools: tools,
          agents: {
            worker: {
              description: WORKER_DESCRIPTION,
              prompt: WORKER_INSTRUCTIONS,
              tools: WORKER_TOOLS,
              model: "inherit",
              background: false,
            },
          },
        },
        prompt,
      );
    } else {
      const policy = new HandoffPolicy({ window: config.window });
      const rt = new Runtime({
        workspace,
        runDir: join(root, "runs"),
        env: model.env(),
        workbench: true,
        handoff: policy,
        locale: "en",
        onEvent: (event: FlowerEvent) => {
          if (
            (event.type === "handoff" && event.phase === "writing") ||
            (event.type === "step-start" && event.resume)
          )
            resumes.push(model.exchanges.length);
          if (event.type === "handoff" && event.phase === "writing")
            switches.push({
              generation: event.generation,
              context: event.context,
              at: policy.at,
              degraded: false,
            });
          if (event.type === "handoff" && event.phase === "done") {
            const last = switches.at(-1);
            if (last) {
              last.degraded = event.degraded === true;
              last.cutCalls = event.cutCalls ?? 0;
              last.finishedCalls = event.finishedCalls ?? 0;
            }
          }
        },
      });
      try {
        const lead = coordinator("lead", "Work through the sub-tasks with workers.", {
          worker: subagent(WORKER_DESCRIPTION, WORKER_INSTRUCTIONS, { tools: WORKER_TOOLS }),
        });
        const result = await rt.run("economy", lead, prompt);
        outcome = { ok: true };
        generations = result.generations;
        degraded = result.degraded;
        spills = result.spills;
      } catch (error) {
        outcome = { ok: false, error: String(error instanceof Error ? error.message : error) };
      } finally {
        rt.close();
      }
    }
  } finally {
    await model.close();
    rmSync(root, { recursive: true, force: true });
  }
  const wallMs = performance.now() - started;
  const exchanges: readonly Exchange[] = model.exchanges;
  if (process.env.BENCH_DEBUG)
    for (const e of exchanges)
      console.log(
        e.index,
        e.kind,
        e.status,
        e.request.sessionId,
        e.promptTokens,
        JSON.stringify(e.request.lastUserText().slice(0, 200)),
        JSON.stringify(e.reply).slice(0, 200),
      );
  // BENCH_DUMP=<dir>: every request body this mode sent, to see where the tokens go.
  if (process.env.BENCH_DUMP) {
    const dir = join(process.env.BENCH_DUMP, mode);
    mkdirSync(dir, { recursive: true });
    for (const exchange of exchanges)
      writeFileSync(
        join(dir, `${String(exchange.index).padStart(4, "0")}-${exchange.kind}.json`),
        JSON.stringify(exchange.request.body, null, 1),
      );
  }
  const turns = mainTurns(exchanges);
  const sessions: string[] = [];
  const floors: number[] = [];
  for (const turn of turns) {
    if (sessions.includes(turn.session)) continue;
    sessions.push(turn.session);
    floors.push(turn.context);
  }
  outcome ??= { ok: false, error: "no outcome" };
  if (model.errors.length > 0 && outcome.ok) outcome = { ok: false, error: model.errors[0]!.message };
  return {
    mode,
    ...summarise(exchanges, resumes),
    wallMs: Math.round(wallMs),
    ...outcome,
    compactions: exchanges.filter((exchange) => exchange.kind === "compact").length,
    generations: mode === "flower" ? generations : sessions.length,
    degraded,
    switches,
    startupFloors: floors,
    spills,
    turns,
  };
}
