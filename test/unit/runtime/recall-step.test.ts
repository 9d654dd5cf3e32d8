/**
 * The step loop's side of recall (issue 35): every session of a generation is given the generations
 * before it (the first none, its writing turn none, the successor the first with its session), and the
 * successor's first prompt says how to recall; a step without recall says nothing of it.
 */
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { StepEnvironment } from "../../../src/runtime/drive/step-plan.js";
import { response, result } from "../../support/scripted-query.js";
import { HANDOFF_ANSWER, session, stepHarness } from "../../support/step-harness.js";

const workspaces: string[] = [];
afterEach(() => {
  for (const dir of workspaces.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type SessionInput = Parameters<StepEnvironment["sessionOptions"]>[0];

function handingOff(recall: boolean) {
  const seen: SessionInput[] = [];
  const h = stepHarness(
    [
      session("s1", response("s1", 35_000, "tool_use"), response("s1", 55_000, "tool_use")),
      session("s1", response("s1", 56_000), result("s1", { text: HANDOFF_ANSWER })),
      session("s2", response("s2", 9_000), result("s2", { text: "done" })),
    ],
    recall ? { recall: { subagent: "recall" } } : {},
    "flower-recall-step-",
    {
      sessionOptions: (input) => {
        seen.push(input);
        return { ...(input.resume ? { resume: input.resume } : {}), env: { WRITING: String(input.writing) } };
      },
    },
  );
  workspaces.push(h.workspace);
  return { h, seen };
}

describe("recall in the step loop", () => {
  it("gives each session the generations before its own, and tells the successor how to recall", async () => {
    const { h, seen } = handingOff(true);
    const done = await h.run.run();
    expect(done.generations).toBe(2);
    expect(seen.map((input) => [input.writing, input.earlier])).toEqual([
      [false, []],
      [true, []],
      [false, [{ generation: 1, sessionIds: ["s1"] }]],
    ]);
    const successorPrompt = h.calls[2]!.prompt;
    expect(successorPrompt).toContain('send the "recall" worker with what you are looking for');
    expect(h.calls[0]!.prompt).not.toContain("Recall:");
  });

  it("says nothing of recall and passes no generations when the step has none", async () => {
    const { h, seen } = handingOff(false);
    await h.run.run();
    expect(seen.every((input) => input.earlier === undefined)).toBe(true);
    expect(h.calls[2]!.prompt).not.toContain("Recall:");
  });
});
