import { describe, expect, it } from "vitest";
import { runStatus } from "../../../src/cli/record-views/run-status.js";
import { newStepRecord, type StepRecord } from "../../../src/records/step-record.js";

/** A step record of run `r` as the workflow writes it; `at` orders the updates. */
function step(name: string, status: StepRecord["status"], at: number): StepRecord {
  const time = new Date(Date.UTC(2026, 10, 30, 12, 0, at)).toISOString();
  return {
    ...newStepRecord(`r/${name}`, name, "task", new Date(time)),
    status,
    run: "r",
    workflow: { run: "r", name, task: "Fix it" },
    pid: process.pid,
    updatedAt: time,
  };
}

describe("runStatus", () => {
  it("is paused after the requirements when they are the only step, done", () => {
    expect(runStatus([step("requirements", "done", 1)])).toMatchObject({
      status: "paused",
      at: "requirements",
    });
  });

  it("follows the step the run is on, and puts the steps in workflow order whatever order they come in", () => {
    const state = runStatus([step("goal", "stopped", 3), step("requirements", "done", 1)]);
    expect(state).toMatchObject({ status: "stopped", at: "goal", paused: false });
    expect(state.steps.map((record) => record.workflow?.name)).toEqual(["requirements", "goal"]);
  });

  it("after the goal with no work step yet, the process ended between two steps: interrupted", () => {
    const state = runStatus([step("requirements", "done", 1), step("goal", "done", 2)]);
    expect(state).toMatchObject({ status: "interrupted", paused: false, at: "goal" });
  });

  it("is done when the work step is done", () => {
    const state = runStatus([
      step("work", "done", 3),
      step("goal", "done", 2),
      step("requirements", "done", 1),
    ]);
    expect(state).toMatchObject({ status: "done", at: null });
  });

  it("a run of someone else's workflow is done when all its recorded steps are", () => {
    expect(runStatus([step("design", "done", 1), step("build", "done", 2)]).status).toBe("done");
  });
});
