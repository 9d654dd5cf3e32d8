/**
 * The coordinator's plan tool through the real binary: the binary offers TodoWrite to an SDK session
 * only when flower's child environment asks for it (build-options.ts), and the plan the coordinator
 * kept there in generation 1 reaches generation 2's first request (handoff/plan.ts), even when the
 * handoff the model wrote says nothing about it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HandoffPolicy, coordinator, subagent } from "../../src/index.js";
import { text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { handoffMarkdown } from "../support/handoff-fixture.js";
import { rig, writeBigFiles, type Rig } from "./runtime-helpers.js";

let current: Rig | undefined;

const POLICY = new HandoffPolicy({ window: 80_000, headroom: 30_000 });

const isSuccessor = (request: ModelRequest) => /You are taking over/.test(request.firstUserText());

const todos = (statuses: string[]) =>
  ["PLAN-A read the big files", "PLAN-B summarise them", "PLAN-C write summary.md"].map((content, i) => ({
    content,
    status: statuses[i],
    activeForm: content,
  }));

/** A handoff that forgets the plan, as a model may. */
const SILENT = handoffMarkdown({
  doing: "Reading the big files.",
  next: ["Go on reading."],
  scene: ["`big-0.txt` — the first input file"],
});

describe("the coordinator's plan tool", () => {
  it("is offered through the real binary, and the plan of generation 1 reaches generation 2", async () => {
    current = await rig({
      policy: (request: ModelRequest) => {
        if (request.isSubagent) return text("unused");
        if (request.isHandoffTurn) return text(SILENT);
        if (isSuccessor(request)) return text("Successor done.");
        const plans = request.countToolResults("TodoWrite");
        if (plans === 0) return toolUse("TodoWrite", { todos: todos(["in_progress", "pending", "pending"]) });
        const reads = request.countToolResults("Read");
        if (reads === 2 && plans === 1)
          return toolUse("TodoWrite", { todos: todos(["completed", "in_progress", "pending"]) });
        return toolUse("Read", { file_path: `big-${reads % 6}.txt` });
      },
    });
    writeBigFiles(current.workspace);
    const rt = current.runtime({ workbench: true, spillThreshold: null, handoff: POLICY });
    const team = coordinator("lead", "Have the big files summarised.", {
      reader: subagent("Reads files.", "Read the files you are given.", { tools: ["Read"] }),
    });
    const result = await rt.run("plan", team, "Summarise the big files.");
    expect(result.result).toBe("Successor done.");
    expect(result.generations).toBe(2);

    const main = current.model.exchanges.filter((e) => e.kind === "main");
    // The coordinator's first request lists its plan tool, not the deferred Task tools.
    expect(main[0]!.request.toolNames).toContain("TodoWrite");
    expect(main[0]!.request.toolNames).not.toContain("TaskCreate");
    // The binary ran it (the delegate guard lets the coordinator plan).
    const ran = main[1]!.request.toolResults().find((r) => r.name === "TodoWrite")!;
    expect(ran.isError).toBe(false);

    // Generation 2's first request carries the latest plan, marked, though the handoff never named it.
    const successor = main.find((e) => isSuccessor(e.request))!.request.firstUserText();
    expect(successor).toContain("Plan at the handoff (TodoWrite");
    expect(successor).toContain("- [x] PLAN-A read the big files");
    expect(successor).toContain("- [~] (in progress) PLAN-B summarise them");
    expect(successor).toContain("- [ ] PLAN-C write summary.md");
    const manifest = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8"));
    expect(manifest.steps.plan.plan).toHaveLength(3);
    current.model.assertNoErrors();
  });
});
