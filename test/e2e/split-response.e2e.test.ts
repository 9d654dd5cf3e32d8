/**
 * A response split by a removal, resumed through the real binary against the kit in strict mode (roles
 * must alternate, as Amazon Bedrock requires). The stored transcript holds `a, b | c, b` around a prompt
 * once the denial pass has taken two denied calls out: the binary looks for an earlier message with an
 * entry's `message.id` up to a prompt, so a repair that re-labelled the last `b` as `a` across the prompt
 * left it a second assistant message next to `c`'s, and the resumed request was refused.
 */
import { join } from "node:path";
import type { SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { SqliteSessionStore } from "../../src/storage/sqlite/sqlite-session-store.js";
import { PruningSessionStore } from "../../src/session-layers/pruning-store.js";
import { text, type ModelRequest } from "../../src/testing/index.js";
import { useTempDirs } from "../support/temp-dir.js";
import { runQuery, useModels } from "./sdk-session.js";

const temp = useTempDirs();
const startModel = useModels();

type Block = Record<string, unknown>;

describe("a split response on resume, through the real binary", () => {
  it("a, b | c, b with the denied calls pruned: the resumed request alternates roles, every word sent", async () => {
    const model = await startModel({
      validation: "strict",
      policy: (request: ModelRequest) =>
        text(request.allText().includes("RESUMED") ? "resumed fine" : "hello"),
    });
    const cwd = temp.make("flower-split-");
    const store = new PruningSessionStore({
      inner: new SqliteSessionStore({ path: join(cwd, "sessions.db") }),
      workspace: cwd,
      keepDenials: 0,
    });
    try {
      // A real session first, so the entries below extend a transcript the binary wrote itself.
      const first = await runQuery(model, "Say hello.", cwd, { sessionStore: store });
      const sessionId = first.results[0]?.session_id;
      expect(sessionId).toBeDefined();
      const [projectKey] = await store.projectKeysOf(sessionId!);
      const key = { projectKey: projectKey!, sessionId: sessionId! };
      const written = (await store.inner.load(key))!;
      const userTemplate = written.find((entry) => entry.type === "user")!;
      const assistantTemplate = written.find((entry) => entry.type === "assistant")!;

      let parent = written.filter((entry) => typeof entry.uuid === "string").at(-1)!.uuid!;
      let count = 0;
      const next = (template: SessionStoreEntry, fields: Record<string, unknown>): SessionStoreEntry => {
        count += 1;
        const uuid = `00000000-0000-4000-8000-${String(count).padStart(12, "0")}`;
        const entry = { ...template, uuid, parentUuid: parent, ...fields };
        parent = uuid;
        return entry;
      };
      const prompt = (words: string) =>
        next(userTemplate, { message: { role: "user", content: [{ type: "text", text: words }] } });
      const assistant = (id: string, block: Block) =>
        next(assistantTemplate, {
          message: {
            ...(assistantTemplate["message"] as Block),
            id,
            content: [block],
            stop_reason: block["type"] === "tool_use" ? "tool_use" : "end_turn",
          },
        });
      const denied = (toolUseId: string) => {
        const owner = parent;
        return next(userTemplate, {
          promptId: undefined,
          sourceToolAssistantUUID: owner,
          toolDenialKind: "permission-rule",
          message: {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: toolUseId, content: "denied by policy", is_error: true },
            ],
          },
        });
      };
      const call = (id: string, command: string) => ({
        type: "tool_use",
        id,
        name: "Bash",
        input: { command },
      });
      await store.inner.append(key, [
        prompt("Run the tests."),
        assistant("msg_split_a", { type: "text", text: "WORDS-1 first a." }),
        assistant("msg_split_a", call("toolu_split_1", "npm test")),
        denied("toolu_split_1"),
        assistant("msg_split_b", { type: "text", text: "WORDS-2 then b." }),
        prompt("Go on."),
        assistant("msg_split_c", { type: "text", text: "WORDS-3 now c." }),
        assistant("msg_split_c", call("toolu_split_2", "make")),
        denied("toolu_split_2"),
        assistant("msg_split_b", { type: "text", text: "WORDS-4 b again." }),
      ]);

      const resumed = await runQuery(model, "RESUMED: carry on.", cwd, {
        sessionStore: store,
        resume: sessionId,
      });
      // The kit in strict mode accepted every request (a refused one names the provider's error).
      expect(model.exchanges.filter((e) => e.status !== 200).map((e) => e.reply)).toEqual([]);
      expect(resumed.results.at(-1)).toMatchObject({ subtype: "success", result: "resumed fine" });
      const request = model.requests.find((r) => r.allText().includes("RESUMED"))!;
      const turns = request.body.messages.filter((message) => message.role !== "system");
      expect(turns.map((turn) => turn.role[0]).join("")).not.toMatch(/aa|uu/);
      const words = turns
        .filter((turn) => turn.role === "assistant")
        .flatMap((turn) =>
          typeof turn.content === "string" ? [turn.content] : turn.content.map((b) => b.text),
        )
        .filter((value): value is string => typeof value === "string" && value.startsWith("WORDS-"));
      expect(words).toEqual(["WORDS-1 first a.", "WORDS-2 then b.", "WORDS-3 now c.", "WORDS-4 b again."]);
      expect(request.allText()).not.toContain("denied by policy");
    } finally {
      await store.close();
    }
  });
});
