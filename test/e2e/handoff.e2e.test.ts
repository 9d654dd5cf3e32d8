import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HandoffPolicy, StepFailedError, coordinator, worker, type AgentSpec } from "../../src/index.js";
import { fault, on, script, text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { handoffMarkdown } from "../support/handoff-fixture.js";
import { rig, type Rig } from "./runtime-helpers.js";

let current: Rig | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

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
        if (request.countToolResults("Agent") === 0) {
          return toolUse("Agent", {
            description: "read files",
            prompt: "Read big-0..5.",
            subagent_type: "reader",
          });
        }
        return text("Coordinator done.");
      },
    });
    writeBigFiles(current.workspace);
    const spec = coordinator("lead", "Goal: have the files read.", {
      reader: worker("Reads files.", "Read them.", { tools: ["Read"] }),
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

  it("turns `prompt is too long` into a degraded handoff instead of a failed step", async () => {
    const policy = script(
      [
        on(
          {
            when: (request) => request.countToolResults("Read") === 1,
            label: "the turn after the first Read",
          },
          fault("prompt-too-long"),
        ),
      ],
      {
        otherwise: (request) =>
          request.firstUserText().includes("[降级:交接没写成]")
            ? text("Successor finished from the degraded handoff.")
            : toolUse("Read", { file_path: "big-0.txt" }),
      },
    );
    current = await rig({ policy });
    writeBigFiles(current.workspace, 1);
    const rt = current.runtime({ workbench: true, locale: "zh" });
    const task = `Summarise big-0.txt. ${"Context for the task. ".repeat(100)}`;
    const result = await rt.run("overflow", reader, task);
    policy.assertComplete();
    expect(result.result).toBe("Successor finished from the degraded handoff.");
    expect(result.attempts).toBe(0);
    expect(result.degraded).toBe(1);
    expect(result.errors).toEqual([expect.stringMatching(/^交接降级\(.*prompt is too long/i)]);
    const frozen = readFileSync(join(current.workspace, ".flower", "notes", "交接-overflow.md"), "utf8");
    expect(frozen).toContain("[降级:交接没写成]");
    expect(frozen).toContain(task.slice(0, 1200));
    expect(frozen).not.toContain(task.slice(0, 1201));
    const manifest = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8"));
    expect(manifest.steps.overflow.errors[0]).toMatch(/^交接降级/);
    expect(manifest.steps.overflow.history[0].handoff.why).toMatch(/prompt is too long/i);
    // No writing turn was attempted on an overflowing session.
    expect(current.model.exchanges.some((e) => e.request.isHandoffTurn)).toBe(false);
  });

  it("degrades when the writing turn returns no `doing`/`next`", async () => {
    current = await rig({
      policy: (request) => {
        if (request.isHandoffTurn) return text("Sorry, I cannot summarise right now.");
        if (generationOf(request) === 1 && !request.firstUserText().includes("[降级:交接没写成]")) {
          return toolUse("Read", { file_path: `big-${request.countToolResults("Read") % 6}.txt` });
        }
        return text("done after degraded handoff");
      },
    });
    writeBigFiles(current.workspace);
    const rt = current.runtime({
      workbench: true,
      spillThreshold: null,
      handoff: new HandoffPolicy({ window: 60_000, headroom: 30_000 }),
    });
    const result = await rt.run("bad-writer", reader, "Read the files.");
    expect(result.result).toBe("done after degraded handoff");
    expect(result.degraded).toBe(1);
    expect(result.errors[0]).toMatch(/^交接降级\(missing: doing, next\)/);
  });

  it("stops after maxGenerations with the start-up floor message when `window` is too small", async () => {
    current = await rig({
      policy: (request) => {
        if (request.isHandoffTurn) return text(handoffAnswer(1));
        return toolUse("Read", { file_path: "big-0.txt" });
      },
    });
    writeBigFiles(current.workspace, 1);
    const rt = current.runtime({
      handoff: new HandoffPolicy({ window: 20_000, headroom: 15_000, maxGenerations: 2 }),
    });
    const error = await rt.run("floor", reader, "Read it.").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepFailedError);
    expect((error as Error).message).toMatch(/start-up floor/);
    expect((error as Error).message).toMatch(/raise window, or use --no-handoff/);
    const manifest = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8"));
    expect(manifest.steps.floor.generations).toBe(2);
    expect(manifest.steps.floor.retired).toHaveLength(1);
    // The last generation is not asked to write a handoff nobody would take over.
    expect(current.model.exchanges.filter((e) => e.request.isHandoffTurn)).toHaveLength(1);
    expect(
      new Set(current.model.exchanges.filter((e) => !e.request.isHandoffTurn).map((e) => e.request.sessionId))
        .size,
    ).toBe(2);
  });

  it("with handoff disabled: auto-compact stays on and no handoff events", async () => {
    const probe = (request: ModelRequest) =>
      request.countToolResults("Bash") === 0
        ? toolUse("Bash", { command: 'echo "DAC=${DISABLE_AUTO_COMPACT:-unset}"' })
        : text(request.lastToolResult()!.text.trim());
    current = await rig({ policy: probe });
    const bash: AgentSpec = { name: "probe", instructions: "", tools: ["Bash"] };
    const off = await current.runtime({ handoff: false }).run("off", bash, "Probe.");
    expect(off.result).toBe("DAC=unset");
    const on = await current.runtime({ handoff: true }).run("on", bash, "Probe.");
    expect(on.result).toBe("DAC=1");
    expect(current.events.some((e) => e.type === "handoff")).toBe(false);
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

  it("without a workbench, a step stopped right after a handoff continues in the successor, not the burned session", async () => {
    current = await rig({ policy: readingPolicy(2) });
    writeBigFiles(current.workspace);
    const policy = new HandoffPolicy({ window: 80_000, headroom: 30_000 });
    const first = current.runtime({ handoff: policy });
    first.on((event) => {
      if (event.type === "handoff" && event.phase === "done") first.stop();
    });
    const stopped = await first.run("no bench", reader, "Read every big file.");
    expect(stopped.handoffs).toEqual([]);
    const burned = stopped.retired[0];
    const result = await current.runtime({ handoff: policy }).continue("no bench", reader);
    expect(result.result).toBe("All done in generation 2.");
    expect(result.sessionId).not.toBe(burned);
    const successor = current.model.exchanges.filter(
      (e) => e.kind === "main" && generationOf(e.request) === 2,
    )[0]!.request;
    expect(successor.sessionId).not.toBe(burned);
    expect(successor.firstUserText()).toContain("You are taking over");
  });

  it("a successor whose first attempt fails is retried from the handoff, not from the original task", async () => {
    const successor = {
      when: (request: ModelRequest) => !request.isHandoffTurn && generationOf(request) === 2,
      label: "the successor's first request",
    };
    const policy = script(
      // The successor's first request fails until the CLI gives up (1 + 2 retries): a failed attempt.
      [
        on(successor, fault("server-error")),
        on(successor, fault("server-error")),
        on(successor, fault("server-error")),
      ],
      { otherwise: readingPolicy(2) },
    );
    current = await rig({ policy });
    writeBigFiles(current.workspace);
    const rt = current.runtime({
      workbench: true,
      spillThreshold: null,
      handoff: new HandoffPolicy({ window: 80_000, headroom: 30_000 }),
    });
    const result = await rt.run("retry successor", reader, "Read every big file.");
    policy.assertComplete();
    expect(result.result).toBe("All done in generation 2.");
    expect(result.attempts).toBe(1);
    expect(result.generations).toBe(2);
    const retried = current.model.exchanges.filter(
      (e) => e.status === 200 && e.kind === "main" && generationOf(e.request) === 2,
    );
    expect(retried[0]!.request.firstUserText()).toContain("You are taking over");
    expect(
      current.model.requests
        .filter((r) => r.firstUserText().includes("Read every big file."))
        .every((r) => generationOf(r) === 1),
    ).toBe(true);
  });

  it("a stop during the writing turn lets the handoff finish, then stops", async () => {
    current = await rig({ policy: readingPolicy(2) });
    writeBigFiles(current.workspace);
    const policy = new HandoffPolicy({ window: 80_000, headroom: 30_000 });
    const rt = current.runtime({ workbench: true, spillThreshold: null, handoff: policy });
    rt.on((event) => {
      if (event.type === "handoff" && event.phase === "writing") rt.stop();
    });
    const stopped = await rt.run("stop while writing", reader, "Read every big file.");
    expect(rt.records.get("stop while writing")?.status).toBe("stopped");
    expect(stopped.degraded).toBe(0);
    expect(readFileSync(stopped.handoffs[0]!, "utf8")).toContain("GEN-1: reading the big files");
    const result = await current
      .runtime({ workbench: true, spillThreshold: null, handoff: policy })
      .continue("stop while writing", reader);
    expect(result.result).toBe("All done in generation 2.");
  });

  it("with handoff off, an overflow is an ordinary failure: no switch, no degraded handoff", async () => {
    current = await rig({ policy: () => fault("prompt-too-long") });
    const rt = current.runtime({ handoff: false, workbench: true, maxAttempts: 1 });
    const error = await rt.run("no switch", reader, "Read it.").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepFailedError);
    expect((error as Error).message).toMatch(/prompt is too long/i);
    const record = rt.records.get("no switch")!;
    expect(record.generations).toBe(1);
    expect(record.degraded).toBe(0);
    expect(record.handoffs).toEqual([]);
    expect(current.events.some((e) => e.type === "handoff")).toBe(false);
  });
});
