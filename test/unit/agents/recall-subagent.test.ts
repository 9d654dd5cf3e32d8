/**
 * How recall reaches a successor: a spec with subagents gets the `recall` subagent (read-only:
 * the search, and Read) and flower's MCP server; a spec without subagents gets the tool on its main
 * thread; the successor's first prompt says which, in both languages; the first generation gets none.
 */
import { describe, expect, it } from "vitest";
import { buildOptions } from "../../../src/agents/build-options.js";
import { coordinator } from "../../../src/agents/coordinator.js";
import { RECALL_TOOL, recallOffer, recallServer } from "../../../src/agents/recall-subagent.js";
import { SUBAGENT_RULES } from "../../../src/agents/rules.js";
import { subagent } from "../../../src/agents/subagent.js";
import { Handoff } from "../../../src/handoff/handoff-document.js";

const analyst = subagent("Analyses.", "Count things.", { tools: ["Read", "Bash"] });
const context = { workspace: "/tmp/ws", locale: "en" as const, handoffEnabled: true };
const search = async (query: string) => `found ${query}`;

describe("recallOffer", () => {
  it("is the recall subagent for a spec with subagents (under a free name), the tool for one without", () => {
    expect(recallOffer(coordinator("lead", "g", { analyst }))).toEqual({ subagent: "recall" });
    expect(recallOffer(coordinator("lead", "g", { recall: analyst }))).toEqual({ subagent: "flower-recall" });
    expect(recallOffer({ name: "p", instructions: "", subagents: {} })).toEqual({ tool: RECALL_TOOL });
    expect(recallOffer({ name: "p", instructions: "" })).toEqual({ tool: "mcp__flower__recall" });
  });
});

describe("buildOptions with recall", () => {
  it("adds flower's MCP server and the read-only recall subagent, without the subagent rules", () => {
    const lead = coordinator("lead", "g", { analyst });
    const options = buildOptions(lead, { ...context, recall: { offer: recallOffer(lead), search } });
    expect(Object.keys(options.mcpServers ?? {})).toEqual(["flower"]);
    expect(options.mcpServers?.flower).toMatchObject({ type: "sdk", name: "flower" });
    const recall = options.agents?.recall;
    expect(recall).toMatchObject({ tools: [RECALL_TOOL, "Read"], model: "inherit", background: false });
    expect(recall?.prompt).not.toContain(SUBAGENT_RULES.en);
    expect(recall?.prompt).toContain(`Call ${RECALL_TOOL} with a few distinctive words`);
    expect(recall?.description).toMatch(/^Recall: searches this step's earlier generations' transcripts/);
    // The other subagents and the session's tool list are as without recall.
    expect(options.agents?.analyst).toEqual(buildOptions(lead, context).agents?.analyst);
    expect(options.tools).toEqual(buildOptions(lead, context).tools);
  });

  it("leaves Read out of the subagent's list when the session has no Read", () => {
    const spec = { name: "p", instructions: "", tools: ["Bash"], subagents: { analyst } };
    const options = buildOptions(spec, { ...context, recall: { offer: recallOffer(spec), search } });
    expect(options.agents?.recall?.tools).toEqual([RECALL_TOOL]);
  });

  it("gives a spec without subagents the server only, and nothing without recall", () => {
    const plain = { name: "p", instructions: "" };
    const options = buildOptions(plain, { ...context, recall: { offer: recallOffer(plain), search } });
    expect(Object.keys(options.mcpServers ?? {})).toEqual(["flower"]);
    expect(options.agents).toBeUndefined();
    expect(buildOptions(plain, context).mcpServers).toBeUndefined();
  });

  it("serves one tool, named as the subagent's list names it", () => {
    const server = recallServer(search, "zh");
    expect(server.name).toBe("flower");
    expect(`mcp__${server.name}__recall`).toBe(RECALL_TOOL);
  });
});

describe("the successor's prompt", () => {
  const handoff = new Handoff({ step: "deploy", doing: "Deploying.", next: "Write deploy.txt." });

  it("says recall exists and when to use it: the subagent to send, or the tool to call", () => {
    const mention = handoff.promptBlock("en", "context", { subagent: "recall" });
    expect(mention).toContain(
      'Recall: the transcripts of the generations before you are kept. When you need a detail this handoff does not have — an exact path, a value, a command\'s output, why something was decided — send the "recall" worker with what you are looking for instead of redoing the work that found it; the answer is the passages and where they came from (generation, turn). Start from the handoff: recall only what it leaves out.',
    );
    // Before the handoff itself, after the header.
    expect(mention.indexOf("Recall:")).toBeLessThan(mention.indexOf("# Handoff: deploy"));
    const tool = handoff.promptBlock("en", "context", { tool: RECALL_TOOL });
    expect(tool).toContain(`call the ${RECALL_TOOL} tool with a few distinctive words instead of redoing`);
    const zh = handoff.promptBlock("zh", "context", { subagent: "recall" });
    expect(zh).toContain("回忆:你之前几代的记录都还在。");
    expect(zh).toContain('就派 "recall" 执行者去找(任务书写清要找什么)');
    expect(handoff.promptBlock("zh", "context", { tool: RECALL_TOOL })).toContain(
      `就用几个有区分度的词调用 ${RECALL_TOOL} 工具去找`,
    );
  });

  it("says nothing of recall without it", () => {
    expect(handoff.promptBlock("en")).not.toContain("Recall");
    expect(handoff.promptBlock("zh")).not.toContain("回忆");
  });
});
