/**
 * `sayToRun` (what `flower say`, `Runtime.say` and the live page's field do): which run a name means,
 * whether anyone will read the message, and what is kept for whom. Over an in-memory target: the run's
 * records, leases (a live one is this very process) and fleet row.
 */
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../src/errors.js";
import type { FleetStatus } from "../../../src/records/fleet-run.js";
import type { LeaseRow } from "../../../src/records/lease.js";
import type { PersonMessage, SayTarget } from "../../../src/records/person-messages.js";
import { currentProcess } from "../../../src/records/process-identity.js";
import { newStepRecord, type StepRecord } from "../../../src/records/step-record.js";
import { sayToRun } from "../../../src/runtime/person/say.js";

function step(
  name: string,
  status: StepRecord["status"],
  at: number,
  workflow?: { run: string; name: string; document?: string },
): StepRecord {
  const record = newStepRecord(name, "lead", "Fix it", new Date(Date.UTC(2026, 11, 1, 12, at)));
  record.status = status;
  if (workflow) {
    record.run = workflow.run;
    record.workflow = { ...workflow, task: "Fix it" };
  }
  return record;
}

/** A lease this process holds now: alive by every rule a takeover uses. */
function liveLease(name: string): LeaseRow {
  const now = new Date().toISOString();
  return { ...currentProcess(), step: name, token: "t", startedAt: now, heartbeatAt: now, children: [] };
}

function target(
  steps: StepRecord[],
  leases: LeaseRow[] = [],
  fleet: Record<string, FleetStatus> = {},
): SayTarget & { kept: PersonMessage[] } {
  const kept: PersonMessage[] = [];
  return {
    kept,
    steps: () => Promise.resolve(steps),
    leases: () => Promise.resolve(leases),
    messages: {
      put: (message) => void kept.push(message),
      list: (run) => kept.filter((message) => message.run === run),
      take: () => undefined,
    },
    fleetStatus: (run) => Promise.resolve(fleet[run]),
  };
}

describe("sayToRun", () => {
  it("keeps the words for a step run on its own that a live driver drives, naming it", async () => {
    const to = target([step("fix", "running", 1)], [liveLease("fix")]);
    const said = await sayToRun(to, "fix", "  Look at b.ts first  ", { by: "ann@box" });
    expect(said).toMatchObject({
      kind: "said",
      run: "fix",
      step: "fix",
      waits: "driven",
      holder: { pid: process.pid },
      message: { run: "fix", text: "Look at b.ts first", by: "ann@box" },
    });
    expect(to.kept).toHaveLength(1);
  });

  it("keeps it for the next session of a run that is stopped, cut off, or stopped at its budget", async () => {
    for (const [status, waits] of [
      ["stopped", "stopped"],
      ["running", "stopped"],
      ["budget-reached", "budget-reached"],
    ] as const) {
      const to = target([step("fix", status, 1)]);
      expect(await sayToRun(to, "fix", "go on")).toMatchObject({
        kind: "said",
        waits,
        step: null,
        holder: null,
      });
      expect(to.kept.map((message) => message.run)).toEqual(["fix"]);
    }
  });

  it("refuses a run that has ended, naming how, and keeps nothing", async () => {
    for (const status of ["done", "failed", "goal-not-met"] as const) {
      const to = target([step("fix", status, 1)]);
      expect(await sayToRun(to, "fix", "too late")).toEqual({ kind: "ended", run: "fix", status });
      expect(to.kept).toEqual([]);
    }
  });

  it("a workflow run: any of its steps' names means the run; its current step is the goal step", async () => {
    const requirements = step("r/requirements", "done", 1, {
      run: "r",
      name: "requirements",
      document: "requirements",
    });
    const goal = step("r/goal", "running", 2, { run: "r", name: "goal", document: "goal" });
    const to = target([requirements, goal], [liveLease("r/goal")]);
    // Named by its first, finished step: the message is the run's, and the goal step's driver has it.
    const said = await sayToRun(to, "r/requirements", "The goal must name the flaky test");
    expect(said).toMatchObject({ kind: "said", run: "r", step: "r/goal", waits: "driven" });
    expect(to.kept.map((message) => message.run)).toEqual(["r"]);
    expect(await sayToRun(to, "r", "And keep the timeout")).toMatchObject({ run: "r", step: "r/goal" });
  });

  it("a workflow run paused after a document step waits for its next step; one whose work is done has ended", async () => {
    const requirements = step("r/requirements", "done", 1, {
      run: "r",
      name: "requirements",
      document: "requirements",
    });
    expect(await sayToRun(target([requirements]), "r", "one more criterion")).toMatchObject({
      kind: "said",
      waits: "paused",
    });
    const work = step("r/work", "done", 3, { run: "r", name: "work" });
    expect(await sayToRun(target([requirements, work]), "r", "thanks")).toEqual({
      kind: "ended",
      run: "r",
      status: "done",
    });
  });

  it("a fleet run: queued before any step, paused for approval, ended as the fleet says", async () => {
    expect(await sayToRun(target([], [], { q: "queued" }), "q", "start with the tests")).toMatchObject({
      kind: "said",
      run: "q",
      waits: "queued",
      fleet: true,
    });
    const requirements = step("p/requirements", "done", 1, {
      run: "p",
      name: "requirements",
      document: "requirements",
    });
    expect(await sayToRun(target([requirements], [], { p: "paused" }), "p", "ok")).toMatchObject({
      waits: "paused",
      fleet: true,
    });
    expect(await sayToRun(target([], [], { c: "cancelled" }), "c", "hello")).toEqual({
      kind: "ended",
      run: "c",
      status: "cancelled",
    });
  });

  it("an unknown name lists the runs there are; empty words are refused before anything is read", async () => {
    const to = target([step("fix", "running", 1), step("r/goal", "running", 2, { run: "r", name: "goal" })]);
    expect(await sayToRun(to, "fxi", "hello")).toEqual({ kind: "unknown", known: ["fix", "r"] });
    await expect(sayToRun(to, "fix", "   ")).rejects.toThrow(ConfigurationError);
    await expect(sayToRun(to, "fix", "   ")).rejects.toThrow(/text/);
    expect(to.kept).toEqual([]);
  });
});
