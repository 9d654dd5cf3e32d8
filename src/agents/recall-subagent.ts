/**
 * Recall for a successor generation (docs/handoffs.md): flower's in-process MCP server with one read-only
 * tool, `mcp__flower__recall`, a search over the step's earlier generations' transcripts
 * (session-layers/recall-search.ts), and the subagent that uses it.
 *
 * The CLI's tool list is session-wide, and an MCP server can only be given to the whole session (a
 * createSdkMcpServer() server in an agent's own `mcpServers` is ignored), so the tool is in the main
 * thread's list too. Who calls it:
 * - a spec with subagents gets the `recall` subagent, whose tool list is the search (and Read, for a spill
 *   file a passage points at): nothing it can change. A coordinator's main thread that calls the tool
 *   itself is denied by the delegate guard like any MCP tool, and told to send a subagent; the recall
 *   subagent reads the passages and answers with the few lines that matter, so the coordinator's context
 *   gets the answer, not the search;
 * - a spec without subagents (a document agent, a plain agent) calls the tool on its main thread.
 * The other subagents never see the tool unless their spec has no tool list (then they inherit all).
 */
import {
  createSdkMcpServer,
  tool,
  type AgentDefinition,
  type McpSdkServerConfigWithInstance,
} from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { DEFAULTS } from "../defaults.js";
import type { Locale } from "../locale/locale.js";
import {
  RECALL_SERVER,
  RECALL_TOOL,
  RECALL_TOOL_NAME,
  RECALL_SUBAGENTS,
} from "../session-layers/recall-search.js";
import type { AgentSpec } from "./agent-spec.js";
import type { RecallMention } from "../handoff/handoff-document.js";

export { RECALL_TOOL } from "../session-layers/recall-search.js";

/** How a session reaches recall: its `recall` subagent (named here), or the tool on its main thread. */
export type RecallOffer = RecallMention;

/** The offer for a spec: the subagent when it has subagents (under a name none of them has), else the tool. */
export function recallOffer(spec: AgentSpec): RecallOffer {
  const taken = Object.keys(spec.subagents ?? {});
  if (taken.length === 0) return { tool: RECALL_TOOL };
  return { subagent: RECALL_SUBAGENTS.find((name) => !taken.includes(name)) ?? RECALL_SUBAGENTS.at(-1)! };
}

/** The search behind the tool: a query in, the answer's text out. */
export type RecallSearch = (query: string) => Promise<string>;

const TOOL_DESCRIPTION: Record<Locale, string> = {
  en:
    "Search this step's earlier generations — the sessions before yours, which handed over to you with a " +
    "handoff — for a detail the handoff does not have: an exact path, a value, a command's output, why " +
    "something was decided. Give a few distinctive words (a file name, an identifier, an error message). " +
    `Answers with the best passages (at most ${DEFAULTS.recallMaxChars} characters), each with where it ` +
    "came from (generation, turn, worker), and notes when later work revised it. Read-only.",
  zh:
    "在这一步更早的几代(你之前、用交接书交给你的那些会话)的记录里找交接书没写的细节:确切的路径、某个值、" +
    "某条命令的输出、某件事为什么这么定。给几个有区分度的词(文件名、标识符、报错信息)。" +
    `回答最相关的几段原文(最多 ${DEFAULTS.recallMaxChars} 字符),每段标明出处(第几代、第几轮、哪个执行者),` +
    "并注明之后的工作是否改过它。只读。",
};

const QUERY_DESCRIPTION: Record<Locale, string> = {
  en: "The words to look for, e.g. `deploy token vault` or `config.yml timeout`.",
  zh: "要找的词,例如 `deploy token vault` 或 `config.yml 超时`。",
};

/** flower's in-process MCP server for one session, answering with `search`. */
export function recallServer(search: RecallSearch, locale: Locale): McpSdkServerConfigWithInstance {
  return createSdkMcpServer({
    name: RECALL_SERVER,
    version: "1.0.0",
    // In the prompt from the first request on, never deferred behind tool search: the session's tool list
    // stays the same from request to request (a change would break the prompt cache), and the recall
    // subagent's list can name it.
    alwaysLoad: true,
    tools: [
      tool(
        RECALL_TOOL_NAME,
        TOOL_DESCRIPTION[locale],
        { query: z.string().describe(QUERY_DESCRIPTION[locale]) },
        async ({ query }) => {
          try {
            return { content: [{ type: "text", text: await search(query) }] };
          } catch (error) {
            // A store that cannot be read is an answer the model can act on, not a dead session.
            return { content: [{ type: "text", text: (error as Error).message }], isError: true };
          }
        },
        { annotations: { readOnlyHint: true } },
      ),
    ],
  });
}

const SUBAGENT_DESCRIPTION: Record<Locale, string> = {
  en:
    "Recall: searches this step's earlier generations' transcripts (the sessions before yours) for a " +
    "detail the handoff does not have — an exact path, a value, a command's output, why something was " +
    "decided — and answers with the passages and where they came from. Read-only. Brief it with what " +
    "you are looking for and why.",
  zh:
    "回忆:在这一步更早几代(你之前的会话)的记录里找交接书没写的细节 —— 确切的路径、某个值、某条命令的输出、" +
    "某件事为什么这么定 —— 回答原文和出处。只读。任务书里写清要找什么、为什么要。",
};

const SUBAGENT_PROMPT: Record<Locale, (withRead: boolean) => string> = {
  en: (withRead) =>
    `You look things up in the transcripts of this step's earlier generations for the session that sent ` +
    `you; you change nothing. Call ${RECALL_TOOL} with a few distinctive words from the brief (a file ` +
    `name, an identifier, an error message, a command); when nothing matches, try other words, twice at ` +
    `most.${withRead ? " When a passage points at a spilled output (.flower/spill/…), Read that file for the rest." : ""} ` +
    `Answer with the passages that answer the brief, quoted exactly, each with where it came from ` +
    `(generation, turn), and say when later work revised one (the answer's "Later:" notes). If nothing ` +
    `was found, say so in one line; never guess.`,
  zh: (withRead) =>
    `你替派你来的会话查这一步更早几代的记录,什么都不改。用任务书里几个有区分度的词(文件名、标识符、报错信息、` +
    `命令)调用 ${RECALL_TOOL};没找到就换词再查,最多再查两次。${withRead ? "某段指向溢出的输出(.flower/spill/…)时,用 Read 读那个文件看全文。" : ""}` +
    `回答能回答任务书的那几段,原文照引,每段标明出处(第几代、第几轮),之后的工作改过的要说明(回答里的"之后:"注释)。` +
    `什么都没找到就用一句话说没找到;不要猜。`,
};

/**
 * The recall subagent. Its tools: the search, and Read when the session has it (a spill file a passage
 * points at). No subagent rules: they are about doing a task and writing its output to the workbench,
 * and this subagent writes nothing.
 */
export function recallSubagent(locale: Locale, sessionTools: readonly string[] | undefined): AgentDefinition {
  const withRead = sessionTools === undefined || sessionTools.includes("Read");
  return {
    description: SUBAGENT_DESCRIPTION[locale],
    prompt: SUBAGENT_PROMPT[locale](withRead),
    tools: withRead ? [RECALL_TOOL, "Read"] : [RECALL_TOOL],
    model: "inherit",
    background: false,
  };
}
