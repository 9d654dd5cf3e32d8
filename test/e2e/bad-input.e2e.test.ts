/**
 * Bad input through the library and the real binary: bytes that are not text in a tool's output, a
 * task too large for any window, a huge handoff answer, a frozen handoff a person broke, and step names
 * that try to leave their folder. Each ends in a clear error or a degraded-but-working result; the
 * record always parses and holds what it was given, whole; no file lands outside its folder. An empty or
 * binary frozen handoff on continue is the step loop's rule: test/unit/runtime/step-rules.test.ts.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { HandoffPolicy, StepFailedError, type AgentSpec } from "../../src/index.js";
import { type StepRecord } from "../../src/public/stores.js";
import { text, toolUse, type ModelRequest, type Policy } from "../../src/testing/index.js";
import { handoffMarkdown } from "../support/handoff-fixture.js";
import { storedTranscripts } from "../support/transcripts.js";
import { rig, type Rig } from "./runtime-helpers.js";

let current: Rig | undefined;

const agent: AgentSpec = { name: "probe", instructions: "Do the task.", tools: ["Bash", "Read"] };
const HANDOFF_POLICY = new HandoffPolicy({ window: 100_000 });

function manifestRecord(step: string): StepRecord {
  const manifest = JSON.parse(readFileSync(join(current!.runDir, "manifest.json"), "utf8")) as {
    steps: Record<string, StepRecord>;
  };
  return manifest.steps[step]!;
}

/** One tool call whose response crosses the handoff line, the handoff, then the successor. */
function handingOff(handoff: string, successor: Policy): Policy {
  return (request) => {
    if (request.isHandoffTurn) return text(handoff);
    if (request.firstUserText().includes("You are taking over")) return successor(request);
    return { ...toolUse("Bash", { command: "echo step-one" }), outputTokens: 70_000 };
  };
}

describe("bad input", () => {
  it("invalid UTF-8 and NUL bytes in a tool's output: the step finishes, spill and store stay readable", async () => {
    const command =
      "printf 'BAD-\\377\\376-NUL-\\000-END\\n'; head -c 6000 /dev/zero | tr '\\000' x; printf '\\377\\000TAIL'";
    current = await rig({
      policy: (request: ModelRequest) =>
        request.countToolResults("Bash") === 0
          ? toolUse("Bash", { command })
          : text(`saw: ${request.lastToolResult()!.text.slice(0, 200)}`),
    });
    const rt = current.runtime({ workbench: true });
    const result = await rt.run("bytes", agent, "Print the bytes.");
    expect(result.result).toMatch(/^saw: /);
    // The output was spilled (over 4000 characters): the pointer went to the model, the text to disk.
    const spill = join(current.workspace, ".flower", "spill");
    const files = readdirSync(spill).filter((name) => !name.startsWith("."));
    expect(files).toHaveLength(1);
    const spilled = readFileSync(join(spill, files[0]!), "utf8");
    expect(spilled).toContain("BAD-");
    expect(spilled).toContain("-END");
    expect(spilled).toContain("TAIL");
    expect(manifestRecord("bytes").status).toBe("done");
    // Every stored entry parses.
    const stored = storedTranscripts(join(current.runDir, "sessions.db"));
    expect([...stored.values()].flat().length).toBeGreaterThan(0);
    current.model.assertNoErrors();
  });

  it("a 5 MB task: one clear error before any work, and the record keeps the whole task", async () => {
    current = await rig({ policy: () => text("never") });
    const rt = current.runtime();
    const task = `TASK-START ${"lorem ipsum dolor sit amet ".repeat(190_000)} TASK-END`;
    expect(task.length).toBeGreaterThan(5_000_000);
    const error = await rt.run("huge", agent, task).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StepFailedError);
    expect((error as Error).message).toMatch(/task itself \(\d+ characters\) does not fit/);
    expect((error as Error).message).toMatch(/prompt is too long/i);
    const record = manifestRecord("huge");
    expect(record.status).toBe("failed");
    expect(record.prompt).toBe(task);
    expect(record.generations).toBeLessThanOrEqual(1);
    // No request reached the model's answer side: the first one was refused as too long.
    expect(current.model.exchanges.every((exchange) => exchange.status === 400)).toBe(true);
  }, 120_000);

  it("a 200,000-character handoff answer reaches the frozen file and the successor whole", async () => {
    const long = Array.from({ length: 2_600 }, (_, n) => `- scene line ${n}: ${"y".repeat(60)}`).join("\n");
    const handoff = handoffMarkdown({
      doing: "GEN-1: a long scene follows.",
      next: ["Say it is finished."],
      scene: `${long}\n- LAST-LINE-TOKEN`,
    });
    expect(handoff.length).toBeGreaterThan(200_000);
    current = await rig({ policy: handingOff(handoff, () => text("finished with the long handoff")) });
    const rt = current.runtime({ workbench: true, handoff: HANDOFF_POLICY });
    const result = await rt.run("long", agent, "Work.");
    expect(result.result).toBe("finished with the long handoff");
    const frozen = readFileSync(join(current.workspace, ".flower", "notes", "handoff-long.md"), "utf8");
    expect(frozen).toContain("scene line 2599");
    expect(frozen).toContain("LAST-LINE-TOKEN");
    const successor = current.model.requests.find((request) => request.firstUserText().includes("GEN-1"))!;
    expect(successor.firstUserText()).toContain("scene line 0:");
    expect(successor.firstUserText()).toContain("LAST-LINE-TOKEN");
  }, 120_000);

  describe("a frozen handoff a person broke before continue", () => {
    const handoff = handoffMarkdown({ doing: "GEN-1: working.", next: ["Say it is finished."] });

    async function stoppedAtHandoff(): Promise<string> {
      current = await rig({
        policy: handingOff(handoff, (request) =>
          text(`successor started from ${request.firstUserText().length} characters`),
        ),
      });
      const first = current.runtime({ workbench: true, handoff: HANDOFF_POLICY });
      first.on((event) => {
        if (event.type === "handoff" && event.phase === "done") first.stop();
      });
      await first.run("edited", agent, "TASK-WORK: work.");
      const record = manifestRecord("edited");
      expect(record.pendingHandoff).toBeTruthy();
      return record.pendingHandoff!;
    }

    it("10 MB: one clear error, the successor's first request does not fit", async () => {
      const path = await stoppedAtHandoff();
      writeFileSync(path, `${handoff}\n${"- filler line of the scene\n".repeat(400_000)}`);
      const rt = current!.runtime({ workbench: true, handoff: HANDOFF_POLICY });
      const error = await rt.continue("edited", agent).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StepFailedError);
      expect((error as Error).message).toMatch(/over the context window/);
      expect(manifestRecord("edited").status).toBe("failed");
    }, 120_000);
  });

  it("step names with ../, slashes, NUL and 300 characters: every file stays in its folder", async () => {
    const handoff = handoffMarkdown({ doing: "GEN-1: working.", next: ["Say it is finished."] });
    current = await rig({ policy: handingOff(handoff, () => text("done")) });
    const rt = current.runtime({ workbench: true, handoff: HANDOFF_POLICY });
    // Separators, `..` and NUL in one name; 300 characters of 3 UTF-8 bytes each in the other.
    const names = ["../../a/b\\c\u0000d", "名".repeat(300)];
    for (const name of names) {
      const result = await rt.run(name, agent, "Work.");
      expect(result.result).toBe("done");
      const record = rt.records.get(name)!;
      expect(record.step).toBe(name);
      for (const path of record.handoffs) {
        const inside = relative(join(current.workspace, ".flower", "notes"), path);
        expect(inside.startsWith(".."), path).toBe(false);
        expect(Buffer.byteLength(path.split("/").at(-1)!), path).toBeLessThanOrEqual(255);
        expect(dirname(path).startsWith(join(current.workspace, ".flower", "notes"))).toBe(true);
      }
    }
    expect(
      Object.keys(JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8")).steps),
    ).toEqual(expect.arrayContaining(names));
  }, 180_000);
});
