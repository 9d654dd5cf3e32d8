import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { TrimPolicy, coordinator, subagent, type AgentSpec } from "../../src/index.js";
import { fault, on, script, text, toolUse, type ModelRequest } from "../../src/testing/index.js";
import { rig, type Rig } from "./runtime-helpers.js";

let current: Rig | undefined;

const EXPIRED = /的结果已过期\(第 \d+ 轮前\),当前状态可能已变。需要请重新执行\]/;
const DENIED = "主线程不亲自动手";
const INTERRUPTED = "[上一轮在此处被中断,该工具结果未产生]";

/** The watch step: glances, denied tests, then a subagent that sleeps until the stop; after the resume, one more denial. */
function watching(request: ModelRequest) {
  if (request.isSubagent) return toolUse("Bash", { command: "sleep 30" });
  if (request.allText().includes("RESUMED")) {
    // One more denied call after the resume shows the hooks still run.
    return request.lastToolResult()?.text.includes(DENIED)
      ? text("resumed fine")
      : toolUse("Bash", { command: "npm test" });
  }
  const n = request.countToolResults();
  if (n < 10) return toolUse("Bash", { command: "git status" });
  if (n < 13) return toolUse("Bash", { command: "npm test" });
  return toolUse("Agent", {
    description: "wait",
    prompt: "Wait for the build.",
    subagent_type: "sleeper",
  });
}

describe("the pruning store on resume, through the real binary", () => {
  it("expires old glances, keeps one denial, neutralises the interrupted call, drops API errors", async () => {
    // One overloaded answer on the fourth main-thread turn (the CLI retries it itself): an API error in the
    // transcript for the store to drop on resume. Everything else comes from the conversation's state.
    const policy = script(
      [
        on(
          { when: (request) => request.countToolResults() === 3, label: "the fourth turn" },
          fault("overloaded"),
        ),
      ],
      { otherwise: watching },
    );
    current = await rig({ policy });
    const spec = coordinator("lead", "Goal: watch the build.", {
      sleeper: subagent("Waits.", "Wait.", { tools: ["Bash"] }),
    });
    const first = current.runtime({ locale: "zh", workbench: true });
    first.on((event) => {
      if (event.type === "tool-use" && event.summary === "sleep 30") setTimeout(() => first.stop(), 300);
    });
    const stopped = await first.run("watch", spec, "Watch the build.");
    policy.assertComplete();
    expect(stopped.denials).toBe(3);
    const before = current.model.requests.filter((r) => r.isMainThread).at(-1)!;

    const second = current.runtime({ locale: "zh", workbench: true });
    const result = await second.continue("watch", spec, { prompt: "RESUMED: carry on." });
    expect(result.result).toBe("resumed fine");

    const resumed = current.model.requests.find((r) => r.isMainThread && r.allText().includes("RESUMED"))!;
    // The kit validates like the real API: the rewritten transcript was accepted.
    expect(current.model.exchanges.filter((e) => e.status === 400)).toEqual([]);
    const results = resumed.toolResults();
    expect(results.filter((r) => EXPIRED.test(r.text))).toHaveLength(4);
    expect(
      results.filter((r) => !EXPIRED.test(r.text) && r.name === "Bash" && r.input?.command === "git status"),
    ).toHaveLength(6);
    expect(results.filter((r) => r.text.includes(DENIED))).toHaveLength(1);
    expect(results.filter((r) => r.text.includes(INTERRUPTED))).toHaveLength(1);
    expect(resumed.allText()).not.toMatch(/API Error|Overloaded/);
    // The SQLite rows still hold everything: only what was fed back changed.
    const db = new Database(join(current.runDir, "sessions.db"), { readonly: true });
    const count = (like: string) =>
      (db.prepare("SELECT count(*) AS n FROM entries WHERE body LIKE ?").get(like) as { n: number }).n;
    expect(count("%已过期%")).toBe(0);
    expect(count("%上一轮在此处被中断%")).toBe(0);
    // The three original denials and the one after the resume are all still stored.
    expect(count("%permission-rule%")).toBe(4);
    db.close();
    // Resuming kept the harness: same system prompt and tools, and the hooks still run.
    expect(resumed.systemText).toBe(before.systemText);
    expect(resumed.toolNames).toEqual(before.toolNames);
    const final = current.model.requests.filter((r) => r.isMainThread).at(-1)!;
    expect(final.lastToolResult()!.text).toContain(DENIED);
    const manifest = JSON.parse(readFileSync(join(current.runDir, "manifest.json"), "utf8"));
    const load = manifest.steps.watch.storeLoads.find((l: { expired: number }) => l.expired > 0);
    expect(load).toMatchObject({ expired: 4, prunedDenials: 2, interrupted: 1 });
    expect(current.events.some((e) => e.type === "store-load" && e.expired === 4)).toBe(true);
  });

  it("with trim on, a long result becomes a pointer the agent can Read back", async () => {
    current = await rig({
      policy: (request: ModelRequest) => {
        if (request.allText().includes("AGAIN")) {
          const pointer = /已移到 (\S+?),需要全文请用 Read 读取/.exec(request.allText());
          if (request.countToolResults("Read") === 0 && pointer)
            return toolUse("Read", { file_path: pointer[1]! });
          return text(
            request.lastToolResult()?.text.includes("2500") ? "read the trimmed file" : "no pointer",
          );
        }
        const n = request.countToolResults();
        if (n === 0) return toolUse("Bash", { command: "seq 1 2500" });
        if (n < 3) return toolUse("Bash", { command: `echo short-${n}` });
        return text("first run done");
      },
    });
    const plain: AgentSpec = { name: "plain", instructions: "", tools: ["Bash", "Read"] };
    await current.runtime({ locale: "zh" }).run("trim", plain, "Count.");
    const rt = current.runtime({ locale: "zh", trim: new TrimPolicy({ keepRecent: 1, minChars: 2000 }) });
    const result = await rt.continue("trim", plain, { prompt: "AGAIN: read what you counted." });
    expect(result.result).toBe("read the trimmed file");
    const resumed = current.model.requests.find((r) => r.allText().includes("AGAIN"))!;
    const first = resumed.toolResults()[0]!;
    expect(first.text).toMatch(
      /^\[该工具结果共 \d+ 字符,已移到 .*\/\.flower\/spill\/.*,需要全文请用 Read 读取\]$/,
    );
    expect(resumed.toolResults()[2]!.text).toBe("short-2");
  });

  it("deleteSessions removes a step's sessions from the store and leaves the manifest readable", async () => {
    current = await rig({
      policy: (request: ModelRequest) =>
        request.countToolResults() === 0 ? toolUse("Bash", { command: "echo kept" }) : text("done"),
    });
    const plain: AgentSpec = { name: "plain", instructions: "", tools: ["Bash"] };
    const rt = current.runtime();
    const result = await rt.run("short", plain, "Echo.");
    const [projectKey] = await rt.store.projectKeysOf(result.sessionId!);
    expect(await rt.store.load({ projectKey: projectKey!, sessionId: result.sessionId! })).not.toBeNull();
    expect(await rt.deleteSessions("short")).toBe(1);
    expect(await rt.store.load({ projectKey: projectKey!, sessionId: result.sessionId! })).toBeNull();
    expect(rt.records.get("short")?.costUsd).toBe(result.costUsd);
    await expect(rt.deleteSessions("no such step")).rejects.toThrow(
      /Invalid option step: got "no such step"/,
    );
  });
});
