/**
 * A handoff must not silently lose the tool calls it cut. The response that crosses the handoff line
 * delegates work (an `Agent` call); the switch stops the session at that message boundary, so the call
 * never runs. The scripted model writes a handoff that forgets the delegation, as a real model may: the
 * successor must still learn of it, from the line flower puts into the frozen file's next step. That a
 * degraded handoff carries the line too is the step loop's rule: test/unit/runtime/step-run.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HandoffPolicy, coordinator, subagent } from "../../src/index.js";
import { DEFAULTS } from "../../src/defaults.js";
import { parseHandoff } from "../../src/handoff/read-handoff.js";
import { INTERRUPTED_NOTE } from "../../src/session-layers/store-notice-text.js";
import { measurePrompt, text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { handoffMarkdown } from "../support/handoff-fixture.js";
import { rig, writeBigFiles, type Rig } from "./runtime-helpers.js";

let current: Rig | undefined;

const POLICY = new HandoffPolicy({ window: 80_000, headroom: 30_000 });
const DELEGATED = "DELEGATED-7f3: summarise big-0.txt to big-5.txt into summary.md, one line per file.";

const isSuccessor = (request: ModelRequest) => /You are taking over|你在接手/.test(request.firstUserText());

/** A handoff that says nothing about the delegation, as a model that forgot it would write. */
const FORGETFUL = handoffMarkdown({
  doing: "Reading the big files before summarising them.",
  next: ["Check that every big file was read."],
  scene: ["`big-0.txt` — the first input file"],
});

/** Past this the switch cuts the calls of the crossing response instead of letting them finish. */
const ROOM_UNTIL = POLICY.window - DEFAULTS.inflightMargin;

/**
 * The coordinator reads until its prompt is past 40k (a Read adds ~10k, so the line at 50k is not yet
 * crossed), then delegates: that response is the one that crosses, its reported output setting the
 * context to `crossing`. `handoff` is what it answers in the writing turn. After the delegation came
 * back it reads once more (that response is the next boundary). A successor told that the delegation
 * was cut issues it again, as a model following its handoff would.
 */
const policy =
  (handoff: string, crossing: number, subagentDelayMs = 5_000) =>
  (request: ModelRequest) => {
    // Slow enough that the interrupt always lands first, should the CLI start the subagent at all.
    if (request.isSubagent) return text("SUBAGENT-RAN", { delayMs: subagentDelayMs });
    if (request.isHandoffTurn) return text(handoff);
    if (isSuccessor(request)) {
      const redo = request.firstUserText().includes(`Cut by the handoff (issued, did not run): Agent`);
      if (redo && request.countToolResults("Agent") === 0)
        return toolUse("Agent", { subagent_type: "reader", description: "redo", prompt: DELEGATED });
      return text("Successor done.");
    }
    if (request.countToolResults("Agent") > 0) return toolUse("Read", { file_path: "big-5.txt" });
    const prompt = measurePrompt(request.body, undefined).totalTokens;
    if (prompt >= 40_000) {
      const delegate = toolUse("Agent", {
        subagent_type: "reader",
        description: "summarise the files",
        prompt: DELEGATED,
      });
      return { ...delegate, outputTokens: crossing - prompt };
    }
    return toolUse("Read", { file_path: `big-${request.countToolResults("Read") % 6}.txt` });
  };

/** Subagent requests that carry the delegation: how often the subagent was sent. */
const delegations = (rig: Rig) =>
  rig.model.exchanges.filter((e) => e.kind === "subagent" && e.request.firstUserText().includes(DELEGATED));

const team = () =>
  coordinator("lead", "Have the big files summarised.", {
    reader: subagent("Reads and summarises files.", "Read the files you are given.", { tools: ["Read"] }),
  });

describe("tool calls cut by the handoff switch", () => {
  it("without room, the delegation the crossing response issued is cut and reaches the successor through the frozen handoff", async () => {
    current = await rig({ policy: policy(FORGETFUL, ROOM_UNTIL + 2_000) });
    writeBigFiles(current.workspace);
    const rt = current.runtime({ workbench: true, spillThreshold: null, handoff: POLICY });
    const result = await rt.run("delegate", team(), "Summarise the big files.");

    expect(result.result).toBe("Successor done.");
    expect(result.generations).toBe(2);
    expect(result.degraded).toBe(0);

    // The crossing response was the Agent call, and it never came back in the first generation.
    const first = current.model.exchanges.filter((e) => e.kind === "main" && !isSuccessor(e.request));
    const writing = first.filter((e) => e.request.isHandoffTurn);
    expect(writing).toHaveLength(1);
    const beforeWriting = first.filter((e) => !e.request.isHandoffTurn);
    expect(beforeWriting.at(-1)!.reply).toMatchObject({ content: [{ type: "tool_use", name: "Agent" }] });

    // On resume the store's disconnect pass keeps the dangling call with a neutral note (not "the user
    // refused"), so the writing turn sees it; the note alone says nothing about the handoff.
    const dangling = writing[0]!.request.toolResults().find((r) => r.name === "Agent");
    expect(dangling).toMatchObject({ isError: true, text: INTERRUPTED_NOTE.en });
    // The writing turn was told the call was cut.
    const writingPrompt = writing[0]!.request.lastUserText();
    expect(writingPrompt).toContain("did not run");
    expect(writingPrompt).toContain(DELEGATED);

    // The frozen file names it in the next step, next to what the model wrote there.
    const path = join(current.workspace, ".flower", "notes", "handoff-delegate.md");
    const frozen = parseHandoff(readFileSync(path, "utf8"));
    expect(frozen.next).toContain("Check that every big file was read.");
    expect(frozen.next).toContain(
      `- Cut by the handoff (issued, did not run): Agent (reader) "summarise the files" — ${DELEGATED}`,
    );
    expect(frozen.doing).not.toContain("DELEGATED-7f3");

    // The successor's first request carries it.
    const successor = current.model.exchanges.find((e) => e.kind === "main" && isSuccessor(e.request))!;
    expect(successor.request.firstUserText()).toContain(DELEGATED);

    // Counted in the record and the handoff event.
    const manifest = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8"));
    expect(manifest.steps.delegate.history[0].handoff.cutCalls).toBe(1);
    const done = current.events.find((e) => e.type === "handoff" && e.phase === "done");
    expect(done).toMatchObject({ cutCalls: 1 });
    current.model.assertNoErrors();
  });

  it("with room left, the subagent the crossing response sent runs before the switch and is not redone", async () => {
    const crossing = POLICY.at + 2_000;
    expect(crossing).toBeLessThan(ROOM_UNTIL);
    current = await rig({ policy: policy(FORGETFUL, crossing, 0) });
    writeBigFiles(current.workspace);
    const rt = current.runtime({ workbench: true, spillThreshold: null, handoff: POLICY });
    const result = await rt.run("delegate", team(), "Summarise the big files.");

    expect(result.result).toBe("Successor done.");
    expect(result.generations).toBe(2);
    // The subagent ran once, in the first generation, and its report came back before the switch.
    expect(delegations(current)).toHaveLength(1);
    const writing = current.model.exchanges.find((e) => e.kind === "main" && e.request.isHandoffTurn)!;
    const report = writing.request.toolResults().find((r) => r.name === "Agent")!;
    expect(report).toMatchObject({ isError: false });
    expect(report.text).toContain("SUBAGENT-RAN");
    // The switch came one boundary later: the Read issued after the report is the call it cut.
    const writingPrompt = writing.request.lastUserText();
    expect(writingPrompt).not.toContain(DELEGATED);
    expect(writingPrompt).toContain("Read — big-5.txt");

    const path = join(current.workspace, ".flower", "notes", "handoff-delegate.md");
    const frozen = parseHandoff(readFileSync(path, "utf8"));
    expect(frozen.next).not.toContain("DELEGATED-7f3");
    const successor = current.model.exchanges.find((e) => e.kind === "main" && isSuccessor(e.request))!;
    expect(successor.request.firstUserText()).not.toContain(DELEGATED);
    expect(successor.request.countToolResults("Agent")).toBe(0);

    const manifest = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8"));
    expect(manifest.steps.delegate.history[0].handoff).toMatchObject({ cutCalls: 1, finishedCalls: 1 });
    current.model.assertNoErrors();
  });
});
