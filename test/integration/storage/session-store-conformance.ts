/**
 * The SDK's SessionStore conformance checks (the 13 of `examples/session-stores/shared/conformance.ts`
 * in anthropics/claude-agent-sdk-typescript), with the same contract, for vitest. Any store flower runs
 * over (SQLite, Postgres, the rewrite layers over either) must pass all of them.
 *
 * Call inside a `describe()`. The factory must return a fresh, isolated store on every call; a store it
 * returns with a `close()` is closed after its check by the caller's own cleanup (see `onStore`).
 */
import { expect, it } from "vitest";
import type { SessionKey, SessionStore, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";

export type ConformanceFactory = () => Promise<SessionStore> | SessionStore;

const KEY: SessionKey = { projectKey: "proj", sessionId: "sess" };

const E = (type: string, extra: Record<string, unknown> = {}): SessionStoreEntry => ({ type, ...extra });

/** Sorted-key stringify, so deep-equal ignores object-key order (a JSONB-backed store may reorder). */
function canon(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );
}

function expectEntries(actual: unknown, expected: SessionStoreEntry[]): void {
  expect(canon(actual)).toBe(canon(expected));
}

export function registerSessionStoreConformance(makeStore: ConformanceFactory): void {
  it("append then load returns same entries in same order", async () => {
    const store = await makeStore();
    const entries = [E("a", { n: 1, nested: { x: [1, 2] } }), E("b", { n: 2 })];
    await store.append(KEY, entries);
    expectEntries(await store.load(KEY), entries);
  });

  it("load unknown key returns null", async () => {
    const store = await makeStore();
    expect(await store.load(KEY)).toBeNull();
    expect(await store.load({ ...KEY, subpath: "subagents/a" })).toBeNull();
  });

  it("multiple append calls preserve call order", async () => {
    const store = await makeStore();
    await store.append(KEY, [E("a")]);
    await store.append(KEY, [E("b"), E("c")]);
    await store.append(KEY, [E("d")]);
    expectEntries(await store.load(KEY), [E("a"), E("b"), E("c"), E("d")]);
  });

  it("append([]) is a no-op", async () => {
    const store = await makeStore();
    await store.append(KEY, []);
    expect(await store.load(KEY)).toBeNull();
    await store.append(KEY, [E("a")]);
    await store.append(KEY, []);
    expectEntries(await store.load(KEY), [E("a")]);
  });

  it("subpath keys are stored independently of main", async () => {
    const store = await makeStore();
    await store.append(KEY, [E("main")]);
    await store.append({ ...KEY, subpath: "subagents/x" }, [E("sub")]);
    expectEntries(await store.load(KEY), [E("main")]);
    expectEntries(await store.load({ ...KEY, subpath: "subagents/x" }), [E("sub")]);
  });

  it("projectKey isolation", async () => {
    const store = await makeStore();
    const A = { projectKey: "A", sessionId: "s" };
    const B = { projectKey: "B", sessionId: "s" };
    await store.append(A, [E("a")]);
    await store.append(B, [E("b")]);
    expectEntries(await store.load(A), [E("a")]);
    expectEntries(await store.load(B), [E("b")]);
  });

  // flower's stores implement every optional method; a missing one fails here instead of passing vacuously.
  it("listSessions returns sessionIds for project", async () => {
    const store = await makeStore();
    expect(typeof store.listSessions).toBe("function");
    await store.append({ projectKey: "P", sessionId: "s1" }, [E("a")]);
    await store.append({ projectKey: "P", sessionId: "s2" }, [E("b")]);
    await store.append({ projectKey: "Q", sessionId: "s3" }, [E("c")]);
    const ids = (await store.listSessions!("P")).map((s) => s.sessionId).sort();
    expect(ids).toEqual(["s1", "s2"]);
    const listed = await store.listSessions!("P");
    expect(listed.every((s) => s.mtime > 1e12)).toBe(true);
    expect(await store.listSessions!("never-seen")).toEqual([]);
  });

  it("listSessions excludes subagent subpaths", async () => {
    const store = await makeStore();
    expect(typeof store.listSessions).toBe("function");
    await store.append({ projectKey: "P", sessionId: "s1", subpath: "subagents/x" }, [E("sub")]);
    const ids = (await store.listSessions!("P")).map((s) => s.sessionId);
    expect(ids).not.toContain("s1");
  });

  it("delete main then load returns null", async () => {
    const store = await makeStore();
    expect(typeof store.delete).toBe("function");
    await store.append(KEY, [E("a")]);
    await store.delete!(KEY);
    expect(await store.load(KEY)).toBeNull();
    await store.delete!({ projectKey: "x", sessionId: "never" });
  });

  it("delete main cascades to subkeys", async () => {
    const store = await makeStore();
    expect(typeof store.delete).toBe("function");
    await store.append(KEY, [E("main")]);
    await store.append({ ...KEY, subpath: "subagents/a" }, [E("sa")]);
    await store.append({ ...KEY, subpath: "subagents/b" }, [E("sb")]);
    await store.append({ projectKey: "proj", sessionId: "other" }, [E("o")]);
    await store.append({ projectKey: "proj2", sessionId: "sess" }, [E("p2")]);
    await store.delete!(KEY);
    expect(await store.load(KEY)).toBeNull();
    expect(await store.load({ ...KEY, subpath: "subagents/a" })).toBeNull();
    expect(await store.load({ ...KEY, subpath: "subagents/b" })).toBeNull();
    expectEntries(await store.load({ projectKey: "proj", sessionId: "other" }), [E("o")]);
    expectEntries(await store.load({ projectKey: "proj2", sessionId: "sess" }), [E("p2")]);
    if (store.listSubkeys) expect(await store.listSubkeys(KEY)).toEqual([]);
  });

  it("delete with subpath removes only that subkey", async () => {
    const store = await makeStore();
    expect(typeof store.delete).toBe("function");
    await store.append(KEY, [E("main")]);
    await store.append({ ...KEY, subpath: "subagents/a" }, [E("sa")]);
    await store.append({ ...KEY, subpath: "subagents/b" }, [E("sb")]);
    await store.delete!({ ...KEY, subpath: "subagents/a" });
    expectEntries(await store.load(KEY), [E("main")]);
    expect(await store.load({ ...KEY, subpath: "subagents/a" })).toBeNull();
    expectEntries(await store.load({ ...KEY, subpath: "subagents/b" }), [E("sb")]);
  });

  it("listSubkeys returns subpaths for the session", async () => {
    const store = await makeStore();
    expect(typeof store.listSubkeys).toBe("function");
    await store.append({ ...KEY, subpath: "subagents/a" }, [E("sa")]);
    await store.append({ ...KEY, subpath: "subagents/b" }, [E("sb")]);
    await store.append({ projectKey: "proj", sessionId: "other", subpath: "subagents/c" }, [E("sc")]);
    const subs = (await store.listSubkeys!(KEY)).sort();
    expect(subs).toEqual(["subagents/a", "subagents/b"]);
  });

  it("listSubkeys excludes main transcript", async () => {
    const store = await makeStore();
    expect(typeof store.listSubkeys).toBe("function");
    await store.append(KEY, [E("main")]);
    expect(await store.listSubkeys!(KEY)).toEqual([]);
    expect(await store.listSubkeys!({ projectKey: "x", sessionId: "never" })).toEqual([]);
  });
}
