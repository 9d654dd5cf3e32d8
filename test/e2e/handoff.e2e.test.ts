/**
 * Handoff generations through the real binary: what only the binary can show — the writing turn in the
 * burned session itself and the records it leaves, a subagent's own context, a stop at a handoff and a
 * person's edit of the frozen file reaching the successor. The step loop's other rules (degraded
 * handoffs, maxGenerations, handoff off, a successor's retry, a stop while writing) run over the step
 * harness in test/unit/runtime/step-rules.test.ts.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HandoffPolicy, coordinator, subagent, type AgentSpec } from "../../src/index.js";
import { text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { handoffMarkdown } from "../support/handoff-fixture.js";
import { rig, type Rig } from "./runtime-helpers.js";
import { delegateOnce } from "../support/delegate.js";

let current: Rig | undefined;

/** Big files the main thread reads to grow its context: ~40k chars (~10k tokens) each. */
function writeBigFiles(workspace: string, count = 6): void {
  for (let f = 0; f < count; f++) {
    const lines = Array.from(
      { length: 400 },
      (_, n) => `FILE-${f}-LINE-${n} ${"lorem ipsum dolor sit amet ".repeat(3)}`,
    );
    writeFileSync(join(workspace, `big-${f}.txt`), lines.join("\n"));
  }
}

function handoffAnswer(generation: number): string {
  return handoffMarkdown({
    preamble: "Here is my handoff.",
    doing: `GEN-${generation}: reading the big files one by one; got through several of them.`,
    decided: ["Read files in numeric order, because the later files refer to the earlier ones."],
    deadends: ["Reading all files in one Bash cat: denied for the coordinator; cost one turn."],
    next: [`Continue with the next unread file after generation ${generation}.`],
    scene: ["`big-0.txt` — the first input file", "`missing-output.csv` — not written yet"],
  });
}

const reader: AgentSpec = {
  name: "reader",
  instructions: "Read the big files.",
  tools: ["Read"],
  role: "agent",
};

/** Generation n is recognised by the marker the previous handoff left in the first prompt. */
function generationOf(request: ModelRequest): number {
  const first = request.firstUserText();
  return first.includes("GEN-2") ? 3 : first.includes("GEN-1") ? 2 : 1;
}

function readingPolicy(finishAtGeneration: number) {
  return (request: ModelRequest) => {
    if (request.isHandoffTurn) return text(handoffAnswer(generationOf(request)));
    const generation = generationOf(request);
    if (generation >= finishAtGeneration) return text(`All done in generation ${generation}.`);
    const reads = request.countToolResults("Read");
    return toolUse("Read", { file_path: `big-${reads % 6}.txt` });
  };
}

describe("handoff generations through the real binary", () => {
  it("hands off twice past `at`, with a real handoff, a clean successor and summed accounting", async () => {
    current = await rig({ policy: readingPolicy(3) });
    writeBigFiles(current.workspace);
    const rt = current.runtime({
      workbench: true,
      spillThreshold: null,
      handoff: new HandoffPolicy({ window: 80_000, headroom: 30_000 }),
    });
    const result = await rt.run("read all", reader, "Read every big file and summarise.");

    expect(result.result).toBe("All done in generation 3.");
    expect(result.generations).toBe(3);
    expect(result.attempts).toBe(0);
    expect(result.degraded).toBe(0);
    expect(result.retired).toHaveLength(2);
    expect(result.retired).not.toContain(result.sessionId);
    expect(new Set([...result.retired, result.sessionId]).size).toBe(3);

    const handoffEvents = current.events.filter((e) => e.type === "handoff");
    const near = handoffEvents.filter((e) => e.phase === "near").map((e) => e.generation);
    expect(near).toEqual([1, 2]);
    expect(handoffEvents.filter((e) => e.phase === "done")).toHaveLength(2);

    // The frozen file: all five sections as the model wrote them.
    const path = join(current.workspace, ".flower", "notes", "handoff-read-all.md");
    const archive = join(current.workspace, ".flower", "notes", "archive", "handoff");
    const archived = readdirSync(archive);
    expect(archived).toHaveLength(1);
    // The first generation's file moved to the archive, and the records followed it.
    expect(result.handoffs).toEqual([join(archive, archived[0]!), path]);
    const frozen = readFileSync(path, "utf8");
    expect(frozen).toContain("GEN-2: reading the big files");
    expect(frozen).toContain("because the later files refer to the earlier ones");
    expect(frozen).toContain("denied for the coordinator; cost one turn");
    expect(frozen).toContain("Continue with the next unread file after generation 2.");
    expect(frozen).toContain("`big-0.txt`");
    // The second crossing archived the first generation's file.
    expect(readFileSync(join(archive, archived[0]!), "utf8")).toContain("GEN-1: reading");

    // Each successor starts from the handoff alone: none of the old history.
    const main = current.model.exchanges.filter((e) => e.kind === "main" && !e.request.isHandoffTurn);
    const successorFirst = main.find((e) => generationOf(e.request) === 2)!.request;
    expect(successorFirst.firstUserText()).toContain("You are taking over");
    expect(successorFirst.firstUserText()).toContain("GEN-1");
    expect(successorFirst.allText()).not.toContain("FILE-0-LINE-1 ");
    expect(successorFirst.sessionId).not.toBe(result.retired[0]);

    // The writing turn ran in the burned session itself.
    const writingTurns = current.model.exchanges.filter((e) => e.request.isHandoffTurn);
    expect(writingTurns.map((e) => e.request.sessionId)).toEqual(result.retired);

    const manifest = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8"));
    const record = manifest.steps["read all"];
    expect(record.retired).toEqual(result.retired);
    expect(record.history).toHaveLength(3);
    const sumCost = record.history.reduce((total: number, g: { costUsd: number }) => total + g.costUsd, 0);
    const sumTurns = record.history.reduce((total: number, g: { numTurns: number }) => total + g.numTurns, 0);
    expect(sumCost).toBeCloseTo(result.costUsd, 10);
    expect(sumTurns).toBe(result.numTurns);
    expect(record.history[0].handoff.scene).toEqual({
      found: ["big-0.txt"],
      missing: ["missing-output.csv"],
    });
    // The context fell back after each switch.
    const contexts = current.events
      .filter((e) => e.type === "context")
      .map((e) => (e.type === "context" ? e : null)!);
    const firstOfGen2 = contexts.find((e) => e.generation === 2)!;
    expect(firstOfGen2.context).toBeLessThan(50_000);
    current.model.assertNoErrors();
  });

  it("a subagent whose own context passes `at` causes no handoff", async () => {
    current = await rig({
      policy: (request) => {
        if (request.isSubagent) {
          const reads = request.countToolResults("Read");
          return reads < 6
            ? toolUse("Read", { file_path: `big-${reads}.txt` })
            : text("Worker read everything: 6 files.");
        }
        return delegateOnce(
          request,
          { subagent_type: "reader", description: "read files", prompt: "Read big-0..5." },
          "Coordinator done.",
        );
      },
    });
    writeBigFiles(current.workspace);
    const spec = coordinator("lead", "Goal: have the files read.", {
      reader: subagent("Reads files.", "Read them.", { tools: ["Read"] }),
    });
    const rt = current.runtime({
      workbench: true,
      spillThreshold: null,
      handoff: new HandoffPolicy({ window: 80_000, headroom: 30_000 }),
    });
    const result = await rt.run("delegated", spec, "Get the files read.");
    expect(result.result).toBe("Coordinator done.");
    expect(result.generations).toBe(1);
    expect(current.events.some((e) => e.type === "handoff")).toBe(false);
    const subagentPeak = Math.max(
      ...current.model.exchanges.filter((e) => e.kind === "subagent").map((e) => e.promptTokens),
    );
    expect(subagentPeak).toBeGreaterThan(50_000);
    expect(result.context).toBeLessThan(50_000);
  });

  it("a person's edit to the frozen handoff reaches the successor after a stop and continue", async () => {
    current = await rig({ policy: readingPolicy(2) });
    writeBigFiles(current.workspace);
    const policy = new HandoffPolicy({ window: 80_000, headroom: 30_000 });
    const first = current.runtime({ workbench: true, spillThreshold: null, handoff: policy });
    first.on((event) => {
      if (event.type === "handoff" && event.phase === "done") first.stop();
    });
    const stopped = await first.run("edit me", reader, "Read every big file.");
    expect(stopped.generations).toBe(1);
    const path = join(current.workspace, ".flower", "notes", "handoff-edit-me.md");
    expect(existsSync(path)).toBe(true);
    const edited = readFileSync(path, "utf8").replace(
      /Continue with the next unread file after generation 1\./,
      "HUMAN-EDIT: skip big-3.txt.",
    );
    writeFileSync(path, edited);

    const second = current.runtime({ workbench: true, spillThreshold: null, handoff: policy });
    const result = await second.continue("edit me", reader);
    expect(result.result).toBe("All done in generation 2.");
    const successor = current.model.exchanges.filter(
      (e) => e.kind === "main" && generationOf(e.request) === 2,
    )[0]!.request;
    expect(successor.firstUserText()).toContain("HUMAN-EDIT: skip big-3.txt.");
    expect(result.generations).toBe(2);
  });
});
