/**
 * Test helper: one real `query()` against the offline model kit, collected to the end, with the child
 * process always closed.
 */
import { query, type Options, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { afterEach } from "vitest";
import { startFakeModel, type FakeModel, type FakeModelOptions } from "../../src/testing/index.js";

export interface Collected {
  messages: SDKMessage[];
  results: Extract<SDKMessage, { type: "result" }>[];
  thrown: unknown;
}

/** Longer than any scripted run takes; a CLI that hangs is killed instead of outliving the test. */
const QUERY_DEADLINE_MS = 45_000;

export async function runQuery(
  model: FakeModel,
  prompt: string,
  cwd: string,
  options: Options = {},
  deadlineMs = QUERY_DEADLINE_MS,
): Promise<Collected> {
  const abortController = new AbortController();
  const deadline = setTimeout(() => abortController.abort(), deadlineMs);
  const q = query({
    prompt,
    options: {
      cwd,
      env: { ...process.env, ...model.env(), CLAUDE_CODE_MAX_RETRIES: "2" },
      permissionMode: "bypassPermissions",
      allowDangerouslySkipPermissions: true,
      settingSources: [],
      abortController,
      ...options,
    },
  });
  const collected: Collected = { messages: [], results: [], thrown: undefined };
  try {
    for await (const message of q) {
      collected.messages.push(message);
      if (message.type === "result") collected.results.push(message);
    }
  } catch (error) {
    collected.thrown = error;
  } finally {
    clearTimeout(deadline);
    q.close();
  }
  return collected;
}

/** Starts the offline model kit for a test; every model started is closed after the test. Call at the top. */
export function useModels(): (options: FakeModelOptions) => Promise<FakeModel> {
  const started: FakeModel[] = [];
  afterEach(async () => {
    for (const model of started.splice(0)) await model.close();
  });
  return async (options) => {
    const model = await startFakeModel(options);
    started.push(model);
    return model;
  };
}
