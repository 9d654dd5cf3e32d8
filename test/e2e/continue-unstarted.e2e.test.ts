/**
 * A step whose driver was killed before its first answer (on a busy machine the binary's first request
 * can go out before the driver has recorded the session): its record has no session. `continue` — what a
 * fleet worker taking the run back calls, and `flower continue` — starts it from its task in that same
 * record, instead of failing the run with "no session to resume".
 */
import { describe, expect, it } from "vitest";
import type { AgentSpec } from "../../src/index.js";
import { newStepRecord } from "../../src/records/step-record.js";
import { text, toolUse } from "../../src/testing/index.js";
import { rig } from "./runtime-helpers.js";

const counter: AgentSpec = { name: "counter", instructions: "Count.", tools: ["Bash"], role: "agent" };

describe("continuing a step that never got a session", () => {
  it("starts it from its task in the same record and ends done", async () => {
    const current = await rig({
      policy: (request) =>
        request.countToolResults("Bash") === 0 ? toolUse("Bash", { command: "echo 3" }) : text("Three."),
    });
    const rt = current.runtime();
    const started = newStepRecord("count", "counter", "Count to three.", new Date("2026-12-04T10:00:00Z"));
    rt.records.put(started);

    const result = await rt.continue("count", counter);
    expect(result.status).toBe("done");
    expect(result.result).toBe("Three.");
    expect(result.generations).toBe(1);
    // The session was started from the task, not told to "continue" something it never began.
    expect(current.model.requests[0]!.firstUserText()).toContain("Count to three.");
    const record = rt.records.get("count")!;
    expect(record.startedAt).toBe(started.startedAt);
    expect(record.earlierRuns).toBeUndefined();
    current.model.assertNoErrors();
  });
});
