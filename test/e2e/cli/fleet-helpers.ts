/**
 * What the fleet's CLI tests share: a workspace (a checkout with notes to read), `flower worker`
 * processes as a user starts them (each with its own CLAUDE_CONFIG_DIR and a header naming it, so the
 * kit's request log says which worker sent each request), the fleet's rows and leases read straight
 * from PostgreSQL, and waiting for a condition.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeModel, ModelRequest } from "../../../src/testing/index.js";
import { cleanEnv, runFlowerOk, spawnFlower, writeNotes, type Spawned } from "./helpers.js";
import { queryOnce as query } from "../../support/postgres-server.js";
import type { useTempDirs } from "../../support/temp-dir.js";

/** The header each worker's `claude` children send (ANTHROPIC_CUSTOM_HEADERS, read by the binary). */
export const WORKER_HEADER = "x-flower-test-worker";

export interface FleetRow {
  run: string;
  status: string;
  step: string | null;
  pid: number | null;
  cancel_requested: boolean;
  /** Why a failed run failed (the worker's words), null otherwise. */
  error: string | null;
}

export interface LeaseSample {
  step: string;
  pid: number;
}

export function fleetProject(temp: ReturnType<typeof useTempDirs>): string {
  const root = temp.make("flower-fleet-");
  writeNotes(root);
  writeFileSync(join(root, "README.md"), "# Clock\n\nThe clock library.\n");
  return root;
}

/** `flower worker --store <url> --concurrency N`, named `name` in the requests it causes. */
export function startWorker(
  model: FakeModel,
  temp: ReturnType<typeof useTempDirs>,
  options: {
    name: string;
    url: string;
    workspace: string;
    concurrency?: number;
    timeoutMs?: number;
    /** More environment for the worker (a crash test's FLOWER_TEST_PAUSE_AT). */
    env?: Record<string, string>;
    /** More flags, as a person adds them (`--notify …`). */
    flags?: string[];
  },
): Spawned {
  const env = cleanEnv({
    ...model.env({
      CLAUDE_CONFIG_DIR: temp.make(`flower-claude-${options.name}-`),
      ANTHROPIC_CUSTOM_HEADERS: `${WORKER_HEADER}: ${options.name}`,
    }),
    ...options.env,
  });
  const args = ["worker", "--store", options.url, "--concurrency", String(options.concurrency ?? 1)];
  return spawnFlower([...args, ...(options.flags ?? [])], {
    env,
    cwd: options.workspace,
    timeoutMs: options.timeoutMs ?? 240_000,
  });
}

/** `flower submit "<task>" --store <url> [flags]`; returns the printed run name. */
export async function submitRun(
  url: string,
  task: string,
  flags: string[] = [],
  cwd?: string,
): Promise<string> {
  const submitted = await runFlowerOk(["submit", task, ...flags, "--store", url], {
    env: cleanEnv(),
    ...(cwd ? { cwd } : {}),
  });
  return submitted.stdout.trim();
}

export function workerOf(request: ModelRequest): string {
  const value = request.headers[WORKER_HEADER];
  return (Array.isArray(value) ? value[0] : value) ?? "?";
}

/** One query on a connection of its own: the store tests' helper, under the fleet tests' name. */
export { query };

export function fleetRows(serverUrl: string, schema: string): Promise<FleetRow[]> {
  return query<FleetRow>(
    serverUrl,
    `SELECT run, status, step, pid, cancel_requested, error FROM ${schema}.flower_fleet_runs ORDER BY submitted_at, run`,
  );
}

export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  ms = 120_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
