/**
 * Workload 3: what flower's hooks add to each tool call. The same script — a main thread that runs
 * `ls` (a glance the delegate guard lets through, too short to spill) N times — is run with the options
 * `buildOptions()` makes for a coordinator with a workbench, once with every flower hook installed
 * (delegate guard, foreground-agents, spill guard, index guard) and once with `hooks: {}`. Everything
 * else, the system prompt included, is the same. The runs alternate in halves so that load on the
 * shared machine falls on both alike.
 *
 * Per-call latency is the time between two consecutive main-thread requests reaching the kit: reply
 * streaming, the CLI, the command and the hooks. The added latency is the difference of the two modes'
 * medians (and 95th percentiles).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { query, type Options } from "@anthropic-ai/claude-agent-sdk";
import { Workbench, buildOptions, coordinator, indexGuard, spillGuard, worker } from "flower-agent";
import { startFakeModel, text, toolUse, type ModelRequest } from "flower-agent/testing";

export interface HookResult {
  calls: number;
  wallHooksMs: number;
  wallNoneMs: number;
  wallRatio: number;
  medianNoneMs: number;
  medianHooksMs: number;
  addedMedianMs: number;
  p95NoneMs: number;
  p95HooksMs: number;
  addedP95Ms: number;
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
      worker: worker("Runs commands.", "Run what the brief says.", { tools: ["Bash", "Read"] }),
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
    const withoutHooks: Options = { ...withHooks, hooks: {} };
    const kit = async (policy: (request: ModelRequest) => ReturnType<typeof text>) => {
      const model = await startFakeModel({ policy });
      return { env: model.env(), close: () => model.close() };
    };
    const half = Math.floor(calls / 2);
    const none: number[] = [];
    const hooks: number[] = [];
    let wallNoneMs = 0;
    let wallHooksMs = 0;
    let error: string | undefined;
    for (const part of [half, calls - half]) {
      const plain = await runOnce(withoutHooks, part, kit);
      const guarded = await runOnce(withHooks, part, kit);
      none.push(...plain.gaps);
      hooks.push(...guarded.gaps);
      wallNoneMs += plain.wallMs;
      wallHooksMs += guarded.wallMs;
      error ??= plain.error ?? guarded.error;
    }
    const round = (value: number) => Math.round(value * 10) / 10;
    const medianNoneMs = quantile(none, 0.5);
    const medianHooksMs = quantile(hooks, 0.5);
    const p95NoneMs = quantile(none, 0.95);
    const p95HooksMs = quantile(hooks, 0.95);
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
      ok: error === undefined && none.length >= calls - 2 && hooks.length >= calls - 2,
      ...(error ? { error } : {}),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
