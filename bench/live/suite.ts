/**
 * The live suite's runner: the cases (cases.ts) one after another, each in its own repository and run
 * directory, through flower's Runtime with the caller's environment (a real key, or the offline kit's
 * base URL in `npm test`), each under flower's own run budget. It says what it will spend at most before
 * it starts and what it spent after, case by case, and never calls a case passed that did not run.
 */
import { rmSync } from "node:fs";
import { HandoffPolicy, Runtime, type FlowerEvent } from "flower-agent";
import { LIVE_CASES, type LiveCase, type LiveContext } from "./cases.js";
import { makeWorkspace, type Workspace } from "./workspace.js";

export interface LiveSuiteOptions {
  /** Merged over the process environment for the `claude` children (the kit's base URL, a config dir). */
  env?: Record<string, string>;
  /** The model alias or id. @default "haiku" (the cheapest; any the provider knows) */
  model?: string;
  /** Only these cases, by name. @default all */
  only?: readonly string[];
  /** Scale every case's budget (e.g. 2 for a slower model). @default 1 */
  budgetScale?: number;
  /** Keep each case's repository and run directory (their paths are printed). @default false */
  keep?: boolean;
  /** Where the lines go. @default console.log */
  out?: (line: string) => void;
}

export interface LiveCaseResult {
  name: string;
  checks: string;
  passed: boolean;
  failures: string[];
  notes: string[];
  budgetUsd: number;
  spentUsd: number;
  seconds: number;
}

export interface LiveSuiteResult {
  model: string;
  cases: LiveCaseResult[];
  /** What it could spend at most: the sum of the cases' budgets. */
  ceilingUsd: number;
  spentUsd: number;
  passed: number;
  failed: number;
}

/** The cases `only` names, in the suite's order; an unknown name is an error naming the known ones. */
export function selectCases(only: readonly string[] | undefined): LiveCase[] {
  if (only === undefined || only.length === 0) return [...LIVE_CASES];
  const known = LIVE_CASES.map((entry) => entry.name);
  for (const name of only)
    if (!known.includes(name)) throw new Error(`--only: no case "${name}" (known: ${known.join(", ")})`);
  return LIVE_CASES.filter((entry) => only.includes(entry.name));
}

const money = (usd: number) => `$${usd.toFixed(usd < 10 ? 4 : 2)}`;

export async function runLiveSuite(options: LiveSuiteOptions = {}): Promise<LiveSuiteResult> {
  const out = options.out ?? ((line: string) => console.log(line));
  const model = options.model ?? "haiku";
  const scale = options.budgetScale ?? 1;
  const cases = selectCases(options.only);
  const ceilingUsd = cases.reduce((sum, entry) => sum + entry.budgetUsd * scale, 0);
  out(
    `flower live check: ${cases.length} case(s) through the real API with model ${model}, each under a budget of its own: ` +
      `it will spend at most about ${money(ceilingUsd)} (a budget is checked after each response).`,
  );
  const results: LiveCaseResult[] = [];
  for (const entry of cases) {
    const result = await runCase(entry, { ...options, model, budgetUsd: entry.budgetUsd * scale });
    results.push(result);
    const status = result.passed ? "passed" : "FAILED";
    out(
      `  ${entry.name.padEnd(12)} ${status.padEnd(7)} ${money(result.spentUsd)} of ${money(result.budgetUsd)}` +
        `  ${Math.round(result.seconds)} s  ${result.notes.join("; ")}`,
    );
    for (const failure of result.failures) out(`      ✗ ${failure}`);
  }
  const spentUsd = results.reduce((sum, result) => sum + result.spentUsd, 0);
  const passed = results.filter((result) => result.passed).length;
  out(
    `spent ${money(spentUsd)} of at most ${money(ceilingUsd)} · ${passed} passed, ${results.length - passed} failed`,
  );
  return { model, cases: results, ceilingUsd, spentUsd, passed, failed: results.length - passed };
}

async function runCase(
  entry: LiveCase,
  options: LiveSuiteOptions & { model: string; budgetUsd: number },
): Promise<LiveCaseResult> {
  const started = performance.now();
  const events: Array<FlowerEvent & { [key: string]: unknown }> = [];
  const failures: string[] = [];
  const notes: string[] = [];
  const workspaces: Workspace[] = [];
  const runtimes: Runtime[] = [];
  const context: LiveContext = {
    events,
    workspace: (files) => {
      const made = makeWorkspace(entry.name, files);
      workspaces.push(made);
      return made;
    },
    runtime: (workspace, handoff) => {
      const rt = new Runtime({
        workspace: workspace.dir,
        runDir: workspace.runDir,
        model: options.model,
        budgetUsd: options.budgetUsd,
        handoff: handoff ?? new HandoffPolicy({ window: 200_000 }),
        locale: "en",
        ...(options.env ? { env: options.env } : {}),
        onEvent: (event) => events.push(event as FlowerEvent & { [key: string]: unknown }),
      });
      runtimes.push(rt);
      return rt;
    },
    check: (ok, what) => {
      if (!ok) failures.push(what);
    },
    note: (text) => notes.push(text),
  };
  try {
    await entry.run(context);
  } catch (error) {
    failures.push(`it threw: ${error instanceof Error ? error.message : String(error)}`);
  }
  // What it spent: every step record of its runtimes (generations, subagents, writing turns, reviewers).
  let spentUsd = 0;
  for (const rt of runtimes) {
    for (const record of rt.records.list()) spentUsd += record.costUsd;
    rt.close();
  }
  for (const workspace of workspaces) {
    if (options.keep) notes.push(`kept ${workspace.root}`);
    else rmSync(workspace.root, { recursive: true, force: true });
  }
  return {
    name: entry.name,
    checks: entry.checks,
    passed: failures.length === 0,
    failures,
    notes,
    budgetUsd: options.budgetUsd,
    spentUsd,
    seconds: (performance.now() - started) / 1000,
  };
}
