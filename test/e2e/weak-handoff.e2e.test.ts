/**
 * What the writing turn wrote reaches the successor, through the real binary. Two ways it used to be
 * lost whole: one hollow section (`TBD` under next) replaced every section with the degraded handoff;
 * and a writing turn that sent a subagent to write the handoff to a file answered only with the file's
 * name. The successor's first request is read as the fake model received it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HandoffPolicy, coordinator, subagent, type AgentSpec } from "../../src/index.js";
import { WRITING_DENIAL } from "../../src/guards/guard-text.js";
import { MECHANICAL } from "../../src/handoff/mechanical.js";
import { parseHandoff } from "../../src/handoff/read-handoff.js";
import { text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { handoffMarkdown } from "../support/handoff-fixture.js";
import { rig, writeBigFiles, type Rig } from "./runtime-helpers.js";

let current: Rig | undefined;

const POLICY = new HandoffPolicy({ window: 80_000, headroom: 30_000 });

const DECIDED = "DECIDED-4c1: summarise per file, not per line, because the lines repeat in every file.";
const DEADEND = "DEADEND-9e2: one Bash `cat big-*.txt` was denied for the coordinator; cost 2 turns.";
const SCENE = "`big-0.txt` — SCENE-b77: the first input file";

const isSuccessor = (request: ModelRequest) => request.firstUserText().includes("You are taking over");

/** Reads the big files one by one until the switch; the successor finishes at once. */
function reading(request: ModelRequest) {
  if (isSuccessor(request)) return text("Successor done.");
  return toolUse("Read", { file_path: `big-${request.countToolResults("Read") % 6}.txt` });
}

describe("the writing turn's sections reach the successor", () => {
  it("TBD under next: asked once more, then next is filled in and decided, dead ends and scene are kept", async () => {
    const weak = handoffMarkdown({
      doing: "Reading the big files before summarising them.",
      decided: [DECIDED],
      deadends: [DEADEND],
      next: "TBD",
      scene: [SCENE],
    });
    current = await rig({
      policy: (request) => {
        // Both writing turns (the handoff and the follow-up for next) get a hollow next.
        if (request.isHandoffTurn)
          return text(request.lastUserText().includes("## What I am doing") ? weak : "## Next step\nTBD");
        return reading(request);
      },
    });
    writeBigFiles(current.workspace);
    const reader: AgentSpec = {
      name: "reader",
      instructions: "Read the files.",
      tools: ["Read"],
      role: "agent",
    };
    const rt = current.runtime({ workbench: true, spillThreshold: null, handoff: POLICY });
    const result = await rt.run("weak next", reader, "Summarise the big files.");
    expect(result.result).toBe("Successor done.");
    expect(result.generations).toBe(2);

    // The follow-up ran in the burned session, naming only the weak section.
    const writing = current.model.exchanges.filter((e) => e.request.isHandoffTurn);
    expect(writing).toHaveLength(2);
    expect(writing[1]!.request.sessionId).toBe(result.retired[0]);
    expect(writing[1]!.request.lastUserText()).toContain("## Next step");
    expect(writing[1]!.request.lastUserText()).not.toContain("## Already decided");

    // The successor's first request carries the three written sections, and says next is flower's.
    const successor = current.model.exchanges.find((e) => e.kind === "main" && isSuccessor(e.request))!;
    const first = successor.request.firstUserText();
    for (const written of [DECIDED, DEADEND, "SCENE-b77", "Reading the big files before summarising them."]) {
      expect(first).toContain(written);
    }
    expect(first).toContain(`## Next step\n${MECHANICAL}`);
    expect(first).toContain('except "Next step"');
    expect(first).not.toContain("[降级:交接没写成]");

    // The record lists the weak section.
    const manifest = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8"));
    expect(manifest.steps["weak next"].history[0].handoff).toMatchObject({
      missing: ["next"],
      weak: ["next"],
      askedAgain: true,
    });
    const done = current.events.find((e) => e.type === "handoff" && e.phase === "done");
    expect(done).toMatchObject({ weak: ["next"] });
    current.model.assertNoErrors();
  });

  it("a writing turn that sends a subagent to write the handoff to a file is turned back, and its text reaches the successor", async () => {
    const handoff = handoffMarkdown({
      doing: "DOING-31a: reading the big files before summarising them.",
      decided: [DECIDED],
      deadends: [DEADEND],
      next: ["NEXT-5d0: have a reader summarise big-3.txt to big-5.txt."],
      scene: [SCENE],
    });
    const turnedBack = (request: ModelRequest) =>
      request.toolResults().some((r) => r.name === "Agent" && r.text.includes(WRITING_DENIAL.en));
    current = await rig({
      policy: (request) => {
        if (request.isSubagent) return text("SUBAGENT-RAN: wrote .flower/notes/my-handoff.md");
        // The coordinator delegates the handoff, as it delegates everything else.
        if (request.isHandoffTurn) {
          return toolUse("Agent", {
            subagent_type: "writer",
            description: "write the handoff",
            prompt: `Write this to .flower/notes/my-handoff.md:\n\n${handoff}`,
          });
        }
        // Turned back with the one line, it answers with the text it had given the subagent.
        if (turnedBack(request)) return text(handoff);
        return reading(request);
      },
    });
    writeBigFiles(current.workspace);
    const team = coordinator("lead", "Have the big files summarised.", {
      writer: subagent("Writes files.", "Write what you are given.", { tools: ["Write"] }),
    });
    const rt = current.runtime({ workbench: true, spillThreshold: null, handoff: POLICY });
    const result = await rt.run("delegating writer", team, "Summarise the big files.");
    expect(result.result).toBe("Successor done.");
    expect(result.degraded).toBe(0);

    // The subagent never ran: the writing turn's Agent call came back with the one line.
    expect(current.model.exchanges.some((e) => e.kind === "subagent")).toBe(false);
    const back = current.model.exchanges.find((e) => turnedBack(e.request))!;
    expect(back.request.sessionId).toBe(result.retired[0]);

    // The successor's first request carries that handoff, not a degraded one.
    const successor = current.model.exchanges.find((e) => e.kind === "main" && isSuccessor(e.request))!;
    const first = successor.request.firstUserText();
    for (const written of ["DOING-31a", DECIDED, DEADEND, "NEXT-5d0", "SCENE-b77"])
      expect(first).toContain(written);
    expect(first).not.toContain("[降级:交接没写成]");
    const frozen = parseHandoff(
      readFileSync(join(current.workspace, ".flower", "notes", "handoff-delegating-writer.md"), "utf8"),
    );
    expect(frozen.next).toContain("NEXT-5d0");
    current.model.assertNoErrors();
  });
});
