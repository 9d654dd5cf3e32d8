import { describe, expect, it } from "vitest";
import { fleetRows } from "../../../src/cli/page/serve-fleet.js";
import { runRows } from "../../../src/cli/page/serve-rows.js";
import type { FleetRunView } from "../../../src/fleet/fleet-runs.js";
import { newGuardRecord, type CheckResultRecord } from "../../../src/records/guard-record.js";
import { newStepRecord, type StepRecord } from "../../../src/records/step-record.js";

const POLICY = { enabled: true, window: 200_000, at: 150_000, warnAt: 120_000 };

function step(name: string, status: StepRecord["status"], at: number, run: string | null = "r"): StepRecord {
  const time = new Date(Date.UTC(2026, 11, 2, 4, 0, at)).toISOString();
  const record = newStepRecord(run === null ? name : `${run}/${name}`, name, "task", new Date(time));
  return {
    ...record,
    status,
    ...(run === null ? {} : { run, workflow: { run, name, task: "Fix the flaky test" } }),
    pid: process.pid,
    policy: POLICY,
    updatedAt: time,
  };
}

/** A generation whose series ends at `contexts.at(-1)`; `context` (written at its end) stays 0. */
function generation(record: StepRecord, contexts: number[]): void {
  record.generations += 1;
  record.history.push({
    generation: record.generations,
    sessionId: `s${record.generations}`,
    startedAt: record.startedAt,
    endedAt: null,
    costUsd: 0.5,
    numTurns: contexts.length,
    context: 0,
    turns: contexts.map((context) => [context, 0, 0]),
    handoff: null,
  });
  record.costUsd += 0.5;
}

function check(command: string, passed: boolean): CheckResultRecord {
  return { command, passed, exitCode: passed ? 0 : 1, reason: "", tail: "", logPath: "x.log" } as never;
}

const statusOf = (record: StepRecord) => record.status;

describe("runRows", () => {
  it("counts the generations of the step the run is on, not a sum over its steps (2 handoffs: 3, not 5)", () => {
    const requirements = step("requirements", "done", 1);
    generation(requirements, [20_000]);
    const goal = step("goal", "done", 2);
    generation(goal, [21_000]);
    const work = step("work", "done", 3);
    for (const contexts of [[40_000], [41_000], [42_000]]) generation(work, contexts);
    const [row] = runRows({ steps: [requirements, goal, work], holders: new Map(), statusOf });
    expect(row).toMatchObject({ name: "r", status: "done", step: "work", generations: 3 });
    // The fleet's view sums its steps: the records' count wins where they are known.
    const view = {
      run: "r",
      status: "done",
      generations: 5,
      costUsd: 0,
      steps: ["x"],
    } as unknown as FleetRunView;
    expect(fleetRows([row!], [{ ...view, task: "t", updatedAt: row!.updatedAt }])[0]).toMatchObject({
      generations: 3,
    });
  });

  it("folds a workflow run into one row: the step it is on, its live gauge, the last checks, the documents", () => {
    const requirements = { ...step("requirements", "done", 1), frozen: { kind: "requirements" } as never };
    const goal = { ...step("goal", "done", 2), frozen: { kind: "goal" } as never };
    const work = step("work", "running", 3);
    generation(work, [40_000, 90_000]);
    generation(work, [30_000, 61_000]);
    work.guard = newGuardRecord(3);
    work.guard.checkRuns.push(
      { round: 0, at: work.updatedAt, passed: false, results: [check("npm test", false)] },
      {
        round: 1,
        at: work.updatedAt,
        passed: true,
        results: [check("npm test", true), check("npm run lint", true)],
      },
    );
    const [row] = runRows({ steps: [requirements, goal, work], holders: new Map(), statusOf });
    expect(row).toMatchObject({
      name: "r",
      status: "running",
      step: "work",
      machine: null,
      // The live generation's last turn, not `context` (written only when a session ends).
      gauge: { context: 61_000, window: 200_000, at: 150_000, warnAt: 120_000 },
      generations: 2,
      costUsd: 1,
      checks: [
        { name: "npm test", passed: true },
        { name: "npm run lint", passed: true },
      ],
      documents: ["requirements", "goal"],
      task: "Fix the flaky test",
      report: true,
    });
    // A run going on may be told something (flower say).
    expect(row!.can).toEqual({ approve: false, cancel: true, say: true });
  });

  it("names the holder, marks a paused run approvable, and keeps runs in the order of their last update", () => {
    const paused = step("requirements", "done", 5, "p");
    const lone = step("alone", "done", 2, null);
    const holders = new Map([["alone", { pid: 7, host: "b3", startedAt: "", heartbeatAt: "" }]]);
    const rows = runRows({ steps: [lone, paused], holders, statusOf });
    expect(rows.map((row) => [row.name, row.status, row.step, row.machine, row.gauge])).toEqual([
      ["alone", "done", null, "pid 7@b3", null],
      ["p", "paused", "requirements", null, null],
    ]);
    expect(rows[1]!.can).toEqual({ approve: true, cancel: true, say: true });
    // A run that has ended has no session left to read a message.
    expect(rows[0]!.can).toEqual({ approve: false, cancel: false, say: false });
  });
});

function view(run: string, status: FleetRunView["status"], extra: Partial<FleetRunView> = {}): FleetRunView {
  return {
    run,
    status,
    step: null,
    task: `task of ${run}`,
    direct: false,
    yes: false,
    approved: false,
    cancelRequested: false,
    error: null,
    generations: 0,
    costUsd: 0,
    steps: [],
    submittedAt: "2026-12-02T04:00:00.000Z",
    updatedAt: "2026-12-02T04:00:09.000Z",
    ...extra,
  };
}

describe("fleetRows", () => {
  it("lays the fleet's status and machine over the records, adds queued runs, offers only what applies", () => {
    const work = step("work", "running", 3);
    generation(work, [50_000]);
    const records = runRows({ steps: [work, step("alone", "done", 1, null)], holders: new Map(), statusOf });
    const rows = fleetRows(records, [
      view("r", "running", { step: "work", machine: "b3", pid: 9, cancelRequested: true }),
      view("q", "queued"),
    ]);
    const byName = new Map(rows.map((row) => [row.name, row]));
    expect(byName.get("r")).toMatchObject({
      status: "cancelling",
      machine: "pid 9@b3",
      gauge: { context: 50_000 },
      report: true,
      can: { approve: false, cancel: false, say: false },
    });
    expect(byName.get("q")).toMatchObject({
      status: "queued",
      gauge: null,
      report: false,
      task: "task of q",
      can: { approve: false, cancel: true, say: true },
    });
    // A step outside the fleet is shown, with nothing to approve or cancel.
    expect(byName.get("alone")!.can).toEqual({ approve: false, cancel: false, say: false });
    expect(fleetRows([], [view("d", "done"), view("p", "paused")]).map((row) => row.can)).toEqual([
      { approve: false, cancel: false, say: false },
      { approve: true, cancel: true, say: true },
    ]);
  });
});
