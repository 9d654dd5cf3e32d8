/**
 * A checkpoint that fails is said once per cause, not once per checkpoint: a lock that stays in the shadow
 * repository fails the resume's checkpoint, every call's and the stop's alike, and the terminal showed
 * three lines of the same thing. A different cause is said again. The tracker here fails every checkpoint
 * as git does on a held lock; the real git path is in test/integration/checkpoints/shadow-repo.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { FlowerEvent } from "../../../src/runtime/events.js";
import { StepWork } from "../../../src/runtime/files/step-work.js";
import type { WorkTracker } from "../../../src/checkpoints/work-tracker.js";

describe("a step's failed checkpoints", () => {
  it("are said once per cause, with the kind of the first", async () => {
    let why =
      "git update-index --add --remove failed (exit 128): fatal: Unable to create 'x/index-a.lock': File exists.";
    const tracker = {
      checkpoint: () => Promise.reject(new Error(why)),
    } as unknown as WorkTracker;
    const work = new StepWork({ step: "fix-it", tracker, hasResult: () => Promise.resolve(true) });
    const said: FlowerEvent[] = [];
    const sink = (event: FlowerEvent) => said.push(event);
    for (const kind of ["resume", "call", "call", "stop"] as const)
      await work.checkpoint({ kind, generation: 1 }, sink);
    why = "No space left on device";
    await work.checkpoint({ kind: "end", generation: 1 }, sink);
    expect(said).toEqual([
      {
        type: "work-warning",
        step: "fix-it",
        message:
          "a checkpoint of the run's files failed (resume): git update-index --add --remove failed (exit 128): fatal: Unable to create 'x/index-a.lock': File exists.",
      },
      {
        type: "work-warning",
        step: "fix-it",
        message: "a checkpoint of the run's files failed (end): No space left on device",
      },
    ]);
  });
});
