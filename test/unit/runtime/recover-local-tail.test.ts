import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import {
  claudeProjectsDir,
  missingTail,
  recoverLocalTail,
} from "../../../src/runtime/drive/recover-local-tail.js";
import { SqliteSessionStore } from "../../../src/storage/sqlite/sqlite-session-store.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();
const entry = (uuid: string | undefined, type = "user"): SessionStoreEntry =>
  uuid === undefined ? { type } : { type, uuid };

describe("missingTail", () => {
  it("is empty when the store has every uuid", () => {
    const local = [entry("a"), entry(undefined, "cost-state"), entry("b")];
    expect(missingTail(local, [entry("a"), entry("b")])).toEqual([]);
  });

  it("is the local entries from the first missing uuid on, uuid-less ones included, stored ones left out", () => {
    const local = [
      entry("a"),
      entry("b"),
      entry(undefined, "mode"),
      entry("c"),
      entry(undefined, "cost-state"),
    ];
    expect(missingTail(local, [entry("a")])).toEqual(local.slice(1));
    expect(missingTail(local, [entry("a"), entry("c")])).toEqual([
      entry("b"),
      entry(undefined, "mode"),
      entry(undefined, "cost-state"),
    ]);
  });
});

describe("recoverLocalTail", () => {
  it("appends the main and subagent tails, skips a torn last line, and adds nothing the second time", async () => {
    const root = temp.make();
    const projects = join(root, "projects");
    const session = "0b7e2c1a-1111-2222-3333-444455556666";
    mkdirSync(join(projects, "-ws", session, "subagents"), { recursive: true });
    const lines = (entries: object[]) => entries.map((e) => JSON.stringify(e)).join("\n");
    writeFileSync(
      join(projects, "-ws", `${session}.jsonl`),
      `${lines([entry("a"), entry("b"), entry("c")])}\n{"type":"us`,
    );
    writeFileSync(
      join(projects, "-ws", session, "subagents", "agent-x.jsonl"),
      lines([entry("s1"), entry("s2")]),
    );
    const store = new SqliteSessionStore({ path: join(root, "sessions.db") });
    try {
      await store.append({ projectKey: "-ws", sessionId: session }, [entry("a")]);
      expect(await recoverLocalTail(store, session, projects)).toEqual({ transcripts: 2, entries: 4 });
      expect((await store.load({ projectKey: "-ws", sessionId: session }))!.map((e) => e.uuid)).toEqual([
        "a",
        "b",
        "c",
      ]);
      expect(
        (await store.load({ projectKey: "-ws", sessionId: session, subpath: "subagents/agent-x" }))!.map(
          (e) => e.uuid,
        ),
      ).toEqual(["s1", "s2"]);
      expect(await recoverLocalTail(store, session, projects)).toEqual({ transcripts: 0, entries: 0 });
      // A session id that is not an id is never turned into a path.
      expect(await recoverLocalTail(store, "../x", projects)).toEqual({ transcripts: 0, entries: 0 });
    } finally {
      store.close();
    }
  });

  it("finds the CLI's folder from CLAUDE_CONFIG_DIR", () => {
    expect(claudeProjectsDir({ CLAUDE_CONFIG_DIR: "/c" })).toBe("/c/projects");
    expect(claudeProjectsDir({})).toMatch(/\.claude\/projects$/);
    expect(claudeProjectsDir({ HOME: "/h" })).toBe("/h/.claude/projects");
  });
});
