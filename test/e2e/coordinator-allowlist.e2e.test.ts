/**
 * The coordinator's tools are Agent, TodoWrite and Read (seed 003), through the real binary: the
 * session carries the subagents' Grep, Glob and WebFetch, the coordinator's own calls of them are denied,
 * a subagent's are not, and a tool the spec allows explicitly passes on the main thread.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { coordinator, subagent } from "../../src/index.js";
import { text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { rig, type Rig } from "./runtime-helpers.js";

let current: Rig | undefined;

const researcher = subagent("Searches the code and the web.", "Do what the brief says.", {
  tools: ["Read", "Grep", "Glob", "WebFetch"],
});

const NEEDLE = "NEEDLE-7f3a";

function seed(workspace: string): void {
  writeFileSync(join(workspace, "haystack.txt"), `hay\n${NEEDLE}\nhay\n`);
  writeFileSync(join(workspace, "other.md"), "nothing here\n");
}

describe("the coordinator's allowlist through the real binary", () => {
  it("denies Grep, Glob and WebFetch on the coordinator and lets its subagent grep", async () => {
    current = await rig({
      policy: (request: ModelRequest) => {
        if (request.isSubagent) {
          return request.countToolResults("Grep") === 0
            ? toolUse("Grep", { pattern: NEEDLE, path: current!.workspace })
            : text(`worker grep: ${request.lastToolResult()!.text.replace(/\s+/g, " ")}`);
        }
        const step = request.countToolResults();
        if (step === 0) return toolUse("Grep", { pattern: NEEDLE, path: current!.workspace });
        if (step === 1) return toolUse("Glob", { pattern: "*.txt", path: current!.workspace });
        if (step === 2) return toolUse("WebFetch", { url: "https://example.com/", prompt: "Summarise." });
        if (step === 3) {
          return toolUse("Agent", {
            description: "find the needle",
            prompt: `Find ${NEEDLE}.`,
            subagent_type: "researcher",
          });
        }
        return text("searched");
      },
    });
    seed(current.workspace);
    const rt = current.runtime();
    const result = await rt.run("search", coordinator("lead", "Find things.", { researcher }), "Find it.");
    expect(result.result).toBe("searched");

    const main = current.model.exchanges.filter((e) => e.kind === "main").at(-1)!.request;
    // The session really carries the subagents' tools: the denial is the guard's, not a missing tool.
    expect(main.toolNames).toEqual(expect.arrayContaining(["Grep", "Glob", "WebFetch", "Agent", "Read"]));
    const results = main.toolResults();
    expect(results.map((r) => r.name)).toEqual(["Grep", "Glob", "WebFetch", "Agent"]);
    for (const denied of results.slice(0, 3)) {
      expect(denied.isError).toBe(true);
      expect(denied.text).toContain("send a subagent via the Agent tool");
      expect(denied.text).not.toContain("haystack.txt");
    }
    expect(results[3]!.isError).toBe(false);
    expect(results[3]!.text).toContain("worker grep:");
    expect(results[3]!.text).toContain("haystack.txt");

    // The subagent's own Grep ran for real.
    const sub = current.model.exchanges.filter((e) => e.kind === "subagent").at(-1)!.request;
    const grep = sub.toolResults().find((r) => r.name === "Grep")!;
    expect(grep.isError).toBe(false);
    expect(grep.text).toContain("haystack.txt");
    expect(grep.text).not.toContain("other.md");

    expect(result.denials).toBe(3);
    const denied = current.events.flatMap((e) => (e.type === "tool-denied" ? [e.tool] : []));
    expect(denied).toEqual(["Grep", "Glob", "WebFetch"]);
  });

  it("lets a tool the spec allows explicitly through on the main thread, and still denies the rest", async () => {
    current = await rig({
      policy: (request: ModelRequest) => {
        if (request.isSubagent) return text("unused");
        const step = request.countToolResults();
        if (step === 0) return toolUse("Glob", { pattern: "*.txt", path: current!.workspace });
        if (step === 1) return toolUse("Grep", { pattern: NEEDLE, path: current!.workspace });
        return text("globbed");
      },
    });
    seed(current.workspace);
    const rt = current.runtime();
    const spec = coordinator("lead", "Find things.", { researcher }, { allowTools: ["Glob"] });
    const result = await rt.run("glob", spec, "Find it.");
    expect(result.result).toBe("globbed");

    const [glob, grep] = current.model.exchanges
      .filter((e) => e.kind === "main")
      .at(-1)!
      .request.toolResults();
    expect(glob!.name).toBe("Glob");
    expect(glob!.isError).toBe(false);
    expect(glob!.text).toContain("haystack.txt");
    expect(glob!.text).not.toContain("other.md");
    expect(grep!.name).toBe("Grep");
    expect(grep!.isError).toBe(true);
    expect(grep!.text).toContain("send a subagent via the Agent tool");
    expect(result.denials).toBe(1);
  });
});
