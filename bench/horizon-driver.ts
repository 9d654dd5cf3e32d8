/**
 * Workload 5's driver: the process a user runs. It holds the SDK's `query()` (modes a and b) or
 * flower's `Runtime` (mode c) and nothing else, so its memory is the driver's own: the offline model
 * kit, which keeps every request body, runs in the parent (horizon-mode.ts).
 *
 * Started by `fork()` with `--expose-gc`; the parent sends its configuration, asks for a memory sample
 * at every 100th sub-task (while the driver waits for the kit's reply, so it is idle), and receives
 * the outcome at the end.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { HandoffPolicy, Runtime, coordinator, worker, type FlowerEvent } from "flower-agent";
import { drain, sdkOptions, WORKER_DESCRIPTION, WORKER_INSTRUCTIONS, type Switch } from "./economy.js";
import { taskPrompt, type Mode } from "./workload.js";

export interface DriverConfig {
  mode: Mode;
  window: number;
  subtasks: number;
  workspace: string;
  runDir: string;
  env: Record<string, string>;
  /** flower only: the handoff policy's headroom (the line is window − headroom) and its rule. */
  headroom?: number;
  rule?: "line" | "cost";
}

export interface MemorySample {
  /** Resident set of this process after a full GC, MB. */
  rssMb: number;
  heapUsedMb: number;
  /** Memory of C++ objects bound to JS objects, and of ArrayBuffers/Buffers, MB: outside the heap. */
  externalMb?: number;
  arrayBuffersMb?: number;
  /** Resident set of the `claude` processes this driver started, MB (the CLI is a process of its own). */
  cliRssMb: number;
}

export interface DriverOutcome {
  ok: boolean;
  error?: string;
  generations: number;
  degraded: number;
  spills: number;
  switches: Switch[];
}

export type DriverMessage =
  | { type: "sample"; id: number; sample: MemorySample }
  | { type: "resume" }
  | { type: "done"; outcome: DriverOutcome };

export type ParentMessage = { type: "start"; config: DriverConfig } | { type: "sample"; id: number };

const WORKER_TOOLS = ["Bash", "Read"];

function send(message: DriverMessage): void {
  process.send?.(message);
}

/** Resident set of every descendant of this process (Linux /proc), in MB; 0 where /proc is missing. */
function descendantsRssMb(): number {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  for (const name of entries) {
    try {
      const stat = readFileSync(join("/proc", name, "stat"), "utf8");
      // The command name may hold spaces and parentheses: the fields after the last ')' are fixed.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const pid = Number(name);
      parents.set(pid, Number(fields[1]));
      rss.set(pid, Number(fields[21]) * 4096);
    } catch {
      // The process ended while we read.
    }
  }
  let total = 0;
  for (const pid of parents.keys()) {
    let parent = parents.get(pid);
    while (parent !== undefined && parent > 1 && parent !== process.pid) parent = parents.get(parent);
    if (parent === process.pid) total += rss.get(pid) ?? 0;
  }
  return Math.round(total / 2 ** 20);
}

function sample(): MemorySample {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const usage = process.memoryUsage();
  return {
    rssMb: Math.round(usage.rss / 2 ** 20),
    heapUsedMb: Math.round(usage.heapUsed / 2 ** 20),
    externalMb: Math.round(usage.external / 2 ** 20),
    arrayBuffersMb: Math.round(usage.arrayBuffers / 2 ** 20),
    cliRssMb: descendantsRssMb(),
  };
}

async function drive(config: DriverConfig): Promise<DriverOutcome> {
  const prompt = taskPrompt(config.subtasks);
  const none = { generations: 1, degraded: 0, spills: 0, switches: [] };
  if (config.mode === "plain") {
    const outcome = await drain(
      {
        ...sdkOptions(config.workspace, config.env, config.window),
        tools: WORKER_TOOLS,
        allowedTools: WORKER_TOOLS,
      },
      prompt,
    );
    return { ...none, ...outcome };
  }
  if (config.mode === "subagents") {
    const tools = ["Agent", ...WORKER_TOOLS];
    const outcome = await drain(
      {
        ...sdkOptions(config.workspace, config.env, config.window),
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
    return { ...none, ...outcome };
  }
  // A night-long job hands off more often than the default brake of 8 generations allows (at 90k the
  // seeds' line needs ~9 for 1,000 sub-tasks, the cost rule dozens): a user of such a job raises it.
  const policy = new HandoffPolicy({
    window: config.window,
    maxGenerations: 1000,
    ...(config.headroom !== undefined ? { headroom: config.headroom } : {}),
    ...(config.rule !== undefined ? { rule: config.rule } : {}),
  });
  const switches: Switch[] = [];
  const rt = new Runtime({
    workspace: config.workspace,
    runDir: config.runDir,
    env: config.env,
    workbench: true,
    handoff: policy,
    locale: "en",
    onEvent: (event: FlowerEvent) => {
      if (
        (event.type === "handoff" && event.phase === "writing") ||
        (event.type === "step-start" && event.resume)
      )
        send({ type: "resume" });
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
      worker: worker(WORKER_DESCRIPTION, WORKER_INSTRUCTIONS, { tools: WORKER_TOOLS }),
    });
    const result = await rt.run("horizon", lead, prompt);
    return {
      ok: true,
      generations: result.generations,
      degraded: result.degraded,
      spills: result.spills,
      switches,
    };
  } catch (error) {
    return { ...none, switches, ok: false, error: String(error instanceof Error ? error.message : error) };
  } finally {
    rt.close();
  }
}

process.on("message", (message: ParentMessage) => {
  if (message.type === "sample") send({ type: "sample", id: message.id, sample: sample() });
  else if (message.type === "start")
    void drive(message.config).then((outcome) => {
      send({ type: "done", outcome });
      process.disconnect?.();
    });
});
