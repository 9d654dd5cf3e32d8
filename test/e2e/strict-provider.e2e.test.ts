/**
 * Rewritten history through the real binary, checked by the kit in its strictest mode (roles must
 * alternate, as Amazon Bedrock requires). The shape real models produce all the time: a sentence, then a
 * tool call in the same turn; the call is denied, the step is stopped and continued, and the denial pass
 * removes the old call and its result on load.
 */
import { describe, expect, it } from "vitest";
import { coordinator, subagent } from "../../src/index.js";
import { text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { rig, type Rig } from "./runtime-helpers.js";

let current: Rig | undefined;

describe("a strict provider on resume, through the real binary", () => {
  it("text + a denied call, stopped and continued: the resumed request alternates roles", async () => {
    current = await rig({
      validation: "strict",
      policy: (request: ModelRequest) => {
        if (request.allText().includes("RESUMED")) return text("resumed fine");
        // A sentence, then a call the coordinator may not make, in one response, three times: the older
        // two denials are pruned on load (keepDenials 1), their sentences stay.
        const denials = request.countToolResults();
        return toolUse("Bash", { command: "npm test" }, { text: `Let me run the tests (try ${denials}).` });
      },
    });
    const spec = coordinator("lead", "Goal: test.", { engineer: subagent("Runs tests.", "Run tests.") });
    const first = current.runtime({ workbench: true });
    let denied = 0;
    first.on((event) => {
      if (event.type === "tool-denied" && ++denied === 3) first.stop();
    });
    const stopped = await first.run("strict", spec, "Run the tests.");
    expect(stopped.denials).toBeGreaterThanOrEqual(3);

    const result = await current.runtime({ workbench: true }).continue("strict", spec, {
      prompt: "RESUMED: carry on.",
    });
    expect(result.result).toBe("resumed fine");
    // The kit in strict mode accepted every request, the resumed one included.
    expect(current.model.exchanges.filter((e) => e.status === 400)).toEqual([]);
    const resumed = current.model.requests.find((r) => r.isMainThread && r.allText().includes("RESUMED"))!;
    const turns = resumed.body.messages.filter((m) => m.role !== "system");
    turns.forEach((turn, index) => {
      if (index > 0) expect(turn.role).not.toBe(turns[index - 1]!.role);
    });
    // Every sentence the model wrote survived the rewrite, in order, in one assistant message.
    const sentences = turns
      .filter((turn) => turn.role === "assistant")
      .flatMap((turn) =>
        typeof turn.content === "string" ? [turn.content] : turn.content.map((b) => b.text),
      )
      .filter((value): value is string => typeof value === "string" && value.startsWith("Let me run"));
    expect(sentences.slice(0, 3)).toEqual([
      "Let me run the tests (try 0).",
      "Let me run the tests (try 1).",
      "Let me run the tests (try 2).",
    ]);
  });
});
