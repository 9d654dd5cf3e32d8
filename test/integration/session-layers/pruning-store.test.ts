import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionKey, SessionStore } from "@anthropic-ai/claude-agent-sdk";
import { ConfigurationError, StoreError } from "../../../src/errors.js";
import { blobAddress, type BlobStore } from "../../../src/session-layers/blob-store.js";
import type { RewriteReport } from "../../../src/session-layers/passes/rewrite-report.js";
import { PostgresBlobStore } from "../../../src/storage/postgres/postgres-blob-store.js";
import {
  PruningSessionStore,
  withRewrites,
  type PruningSessionStoreOptions,
} from "../../../src/session-layers/pruning-store.js";
import { SqliteSessionStore } from "../../../src/storage/sqlite/sqlite-session-store.js";
import { TrimPolicy } from "../../../src/session-layers/trim-policy.js";
import { TrimmingSessionStore } from "../../../src/session-layers/trimming-store.js";
import { sessionArbitrary } from "../../unit/session-layers/transcript-arbitrary.js";
import {
  TranscriptBuilder,
  assertLinksResolve,
  assertPaired,
  bash,
  read,
  resultBlockById,
  testIsEphemeral,
  type Entry,
} from "../../unit/session-layers/transcript-fixtures.js";
import { properties, propertyTimeout } from "../../support/properties.js";
import { BACKEND_NAMES, useStoreBackends, type BackendHandle } from "../storage/store-backends.js";

const main = { projectKey: "-repo", sessionId: "s-1" };
const backends = useStoreBackends();

let dir: string;
const open: Array<{ close(): unknown }> = [];
function track<T extends { close(): unknown }>(store: T): T {
  open.push(store);
  return store;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "flower-pruning-"));
});

afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A `git status -s` of twelve files: longer than the notice that replaces an expired one (an expiry never
 * puts in more than was there, so a one-line status would stay).
 */
function statusLines(i: number): string {
  return Array.from({ length: 12 }, (_, k) => ` M src/module-${i}-${k}.ts`).join("\n");
}

function session(): { entries: Entry[]; big: string; glances: string[] } {
  const t = new TranscriptBuilder();
  t.prompt("inspect");
  const glances: string[] = [];
  for (let i = 0; i < 8; i += 1) glances.push(...t.response(null, [bash("git status -s", statusLines(i))]));
  t.response(null, [bash("rm -rf a", "", "denied")]);
  t.response(null, [bash("rm -rf b", "", "denied")]);
  const [big] = t.response(null, [read("/repo/log.txt", "L".repeat(6000))]);
  for (let i = 0; i < 3; i += 1) t.response(null, [read(`/repo/${i}`, "short")]);
  t.apiRetry(1).apiErrorMessage();
  t.prompt("go on");
  t.response("done");
  return { entries: t.entries, big: big as string, glances };
}

/** A blob store in memory: any backend can keep spills in any BlobStore. */
class MemoryBlobStore implements BlobStore {
  readonly blobs = new Map<string, string>();
  async put(content: string): Promise<string> {
    const address = blobAddress(content);
    this.blobs.set(address, content);
    return address;
  }
  async get(prefix: string): Promise<string | null> {
    for (const [address, content] of this.blobs) if (address.startsWith(prefix)) return content;
    return null;
  }
}

describe("PruningSessionStore (constructor forms)", () => {
  it("wraps the store it is given, alone or through withRewrites", async () => {
    const store = track(
      new PruningSessionStore({ inner: new SqliteSessionStore({ path: join(dir, "s.db") }), workspace: dir }),
    );
    expect(store).toBeInstanceOf(TrimmingSessionStore);
    expect(store.inner).toBeInstanceOf(SqliteSessionStore);
    expect(store.keepEphemeral).toBe(6);
    expect(store.keepDenials).toBe(1);
    expect(store.trim).toBeNull();
    expect(store.blobs).toBeNull();
    const inner = new SqliteSessionStore({ path: join(dir, "t.db") });
    const wrapped = track(withRewrites(inner, { workspace: dir, keepDenials: 3 }));
    expect(wrapped.inner).toBe(inner);
    expect(wrapped.keepDenials).toBe(3);
    await wrapped.close();
    await expect(inner.load(main)).rejects.toThrow(/closed/);
  });

  it("takes the locale it is given and never reads the environment (default en)", () => {
    const saved = { FLOWER_LANG: process.env.FLOWER_LANG, LANG: process.env.LANG };
    process.env.FLOWER_LANG = "zh";
    process.env.LANG = "zh_CN.UTF-8";
    try {
      const inner = () => new SqliteSessionStore({ path: join(dir, "s.db") });
      expect(track(new PruningSessionStore({ inner: inner(), workspace: dir })).locale).toBe("en");
      expect(track(new PruningSessionStore({ inner: inner(), workspace: dir, locale: "zh" })).locale).toBe(
        "zh",
      );
    } finally {
      for (const [name, value] of Object.entries(saved))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
  });

  it("validates its options once, naming the option, and opens no database itself", () => {
    const path = join(dir, "s.db");
    // A store that is only its shape: the layer checks append and load, and calls neither here.
    const inner = { append: async () => undefined, load: async () => null } as SessionStore;
    expect(() => new PruningSessionStore({ inner, workspace: "" })).toThrow(/workspace/);
    expect(() => new PruningSessionStore({ inner, workspace: dir, keepEphemeral: -1 })).toThrow(
      ConfigurationError,
    );
    expect(() => new PruningSessionStore({ inner, workspace: dir, keepDenials: 1.5 })).toThrow(/keepDenials/);
    expect(
      () => new PruningSessionStore({ inner, workspace: dir, trim: "yes" as unknown as boolean }),
    ).toThrow(/trim/);
    expect(() => new PruningSessionStore({ inner, workspace: dir, locale: "fr" as "en" })).toThrow(/locale/);
    expect(
      () => new PruningSessionStore({ inner, workspace: dir, isEphemeral: 1 as unknown as () => boolean }),
    ).toThrow(/isEphemeral/);
    expect(
      () => new PruningSessionStore({ workspace: dir } as unknown as PruningSessionStoreOptions),
    ).toThrow(/inner/);
    // The old form that opened a SQLite file here is refused with the form that replaces it.
    expect(
      () => new PruningSessionStore({ path, inner, workspace: dir } as unknown as PruningSessionStoreOptions),
    ).toThrow(/path.*new SqliteSessionStore\(\{ path \}\)/);
    expect(() => new PruningSessionStore({ inner: {} as unknown as SessionStore, workspace: dir })).toThrow(
      /inner/,
    );
    expect(
      () => new PruningSessionStore({ inner, workspace: dir, blobs: {} as unknown as BlobStore }),
    ).toThrow(/blobs/);
    expect(() => new TrimPolicy({ minChars: 0 })).toThrow(/minChars/);
    expect(() => new TrimPolicy({ keepRecent: -2 })).toThrow(/keepRecent/);
    expect(existsSync(path)).toBe(false);
  });

  it("passes a store without the optional methods through, saying which one is missing", async () => {
    const rows = new Map<string, Entry[]>();
    const minimal: SessionStore = {
      append: async (key, entries) =>
        void rows.set(key.sessionId, [...(rows.get(key.sessionId) ?? []), ...entries]),
      load: async (key) => rows.get(key.sessionId) ?? null,
    };
    const store = withRewrites(minimal, { workspace: dir });
    await store.append(main, session().entries);
    expect((await store.load(main))?.length).toBeGreaterThan(0);
    expect(await store.listSubkeys(main)).toEqual([]);
    await expect(store.delete(main)).rejects.toThrow(StoreError);
    await expect(store.projectKeysOf("s-1")).rejects.toThrow(/projectKeysOf/);
    await store.close();
  });
});

describe.each(BACKEND_NAMES)("PruningSessionStore over %s", (name) => {
  let backend: BackendHandle;
  beforeEach(async () => {
    backend = await backends[name].open();
  });
  const layer = (options: Omit<PruningSessionStoreOptions, "inner" | "path">, inner?: SessionStore) =>
    new PruningSessionStore({ ...options, inner: inner ?? backend.store });

  it("rewrites on load only, reports it, and never changes the rows", async () => {
    const reports: Array<[SessionKey, RewriteReport]> = [];
    const store = track(
      layer({
        workspace: join(dir, "ws"),
        trim: new TrimPolicy({ keepRecent: 3 }),
        locale: "zh",
        isEphemeral: testIsEphemeral,
        onLoad: (key, report) => reports.push([key, report]),
      }),
    );
    const { entries, big, glances } = session();
    await store.append(main, entries);
    const before = await backend.rows();

    const loaded = (await store.load(main)) ?? [];
    expect(await backend.rows()).toEqual(before);
    assertPaired(loaded);
    assertLinksResolve(loaded);
    expect(reports).toHaveLength(1);
    expect(reports[0]?.[0]).toEqual(main);
    const report = reports[0]?.[1];
    expect(report).toMatchObject({
      expired: 2,
      trimmed: 1,
      prunedDenials: 1,
      prunedApiErrors: 2,
      interrupted: 0,
    });
    expect(Object.keys(report ?? {}).sort()).toEqual([
      "charsSaved",
      "expired",
      "interrupted",
      "prunedApiErrors",
      "prunedDenials",
      "trimmed",
    ]);
    expect(resultBlockById(loaded, glances[0] as string)?.block["content"]).toMatch(
      /^\[`git status -s` 的结果已过期\(第 \d+ 轮前\)/,
    );

    // The spill file is inside the workspace and holds the original text.
    const pointer = String(resultBlockById(loaded, big)?.block["content"]);
    const spillDir = join(dir, "ws", ".flower", "spill");
    const files = readdirSync(spillDir);
    expect(files).toHaveLength(1);
    expect(pointer).toContain(join(spillDir, files[0] as string));
    expect(readFileSync(join(spillDir, files[0] as string), "utf8")).toBe("L".repeat(6000));

    // A second load gives the same result and writes nothing new; the original is still there raw.
    expect(await store.load(main)).toEqual(loaded);
    expect(readdirSync(spillDir)).toHaveLength(1);
    expect(await backend.reopen().load(main)).toEqual(entries);
  });

  it("applies the same passes to subagent transcripts under their subpath", async () => {
    const store = track(
      layer({
        workspace: dir,
        isEphemeral: testIsEphemeral,
        keepEphemeral: 1,
      }),
    );
    const t = new TranscriptBuilder({ prefix: "a1", agentId: "a1" });
    t.prompt("sub task");
    const listing = statusLines(1);
    const [first] = t.response(null, [bash("ls", listing)]);
    t.response(null, [bash("ls", statusLines(2))]);
    t.response("report");
    const subKey = { ...main, subpath: "subagents/agent-a1" };
    await store.append(subKey, t.entries);
    const loaded = (await store.load(subKey)) ?? [];
    expect(resultBlockById(loaded, first as string)?.block["content"]).not.toBe(listing);
    expect(loaded.every((entry) => entry["isSidechain"] === true)).toBe(true);
    expect(await store.listSubkeys(main)).toEqual(["subagents/agent-a1"]);
  });

  it("returns null without calling onLoad for a session never written", async () => {
    let calls = 0;
    const store = track(layer({ workspace: dir, onLoad: () => (calls += 1) }));
    expect(await store.load(main)).toBeNull();
    expect(calls).toBe(0);
  });

  it("uses the guard's glance table by default", async () => {
    const store = track(layer({ workspace: dir, keepEphemeral: 0, locale: "en" }));
    const t = new TranscriptBuilder();
    t.prompt("look");
    const [id] = t.response(null, [bash("git status -s", statusLines(0))]);
    t.response("ok");
    await store.append(main, t.entries);
    const loaded = (await store.load(main)) ?? [];
    expect(resultBlockById(loaded, id as string)?.block["content"]).toBe(
      "[The result of `git status -s` has expired (1 turn ago); the state may have changed. Run it again if needed]",
    );
  });

  it("turns expiry and denial pruning off with Infinity, and trimming on with true", async () => {
    const store = track(
      layer({
        workspace: dir,
        keepEphemeral: Infinity,
        keepDenials: Infinity,
        trim: true,
      }),
    );
    expect(store.trim).toEqual(new TrimPolicy());
    const { entries } = session();
    await store.append(main, entries);
    let report: RewriteReport | undefined;
    const observed = layer(
      { workspace: dir, keepEphemeral: Infinity, keepDenials: Infinity, onLoad: (_key, r) => (report = r) },
      backend.reopen(),
    );
    await observed.load(main);
    expect(report).toMatchObject({ expired: 0, prunedDenials: 0, trimmed: 0, prunedApiErrors: 2 });
  });

  it("falls back to an untrimmed load when the spill folder cannot be written", async () => {
    const blocker = join(dir, "ws-file");
    // The workspace is a file, so `<workspace>/.flower/spill` cannot be created.
    await import("node:fs").then((fs) => fs.writeFileSync(blocker, "not a folder"));
    let report: RewriteReport | undefined;
    const store = track(
      layer({
        workspace: blocker,
        trim: true,
        onLoad: (_k, r) => (report = r),
      }),
    );
    const { entries, big } = session();
    await store.append(main, entries);
    const loaded = (await store.load(main)) ?? [];
    expect(resultBlockById(loaded, big)?.block["content"]).toBe("L".repeat(6000));
    expect(report?.trimmed).toBe(0);
    expect(report?.prunedDenials).toBe(1);
  });

  it(
    "never changes a database row, over generated sessions with subagents (property)",
    async () => {
      const store = layer({
        workspace: join(dir, "ws"),
        trim: new TrimPolicy({ keepRecent: 2, minChars: 500 }),
        isEphemeral: testIsEphemeral,
      });
      const raw = backend.reopen();
      let run = 0;
      await fc.assert(
        fc.asyncProperty(sessionArbitrary, fc.integer({ min: 1, max: 12 }), async (generated, batchSize) => {
          run += 1;
          const key = { projectKey: "-repo", sessionId: `s-${run}` };
          for (let i = 0; i < generated.main.length; i += batchSize)
            await store.append(key, generated.main.slice(i, i + batchSize));
          for (const [subpath, entries] of generated.subagents)
            await store.append({ ...key, subpath }, entries);
          const before = await backend.rows();
          const loaded = (await store.load(key)) ?? [];
          assertPaired(loaded);
          assertLinksResolve(loaded);
          for (const subpath of await store.listSubkeys(key)) {
            const sub = (await store.load({ ...key, subpath })) ?? [];
            assertPaired(sub);
            assertLinksResolve(sub);
          }
          expect(await backend.rows()).toEqual(before);
          expect(await raw.load(key)).toEqual(generated.main);
        }),
        // A Postgres round trip costs more than a SQLite call; 40 generated sessions keep the test near
        // the SQLite one's time while still crossing batch sizes, subagents and trims.
        properties(name === "postgres" ? 40 : 150),
      );
    },
    propertyTimeout(180_000),
  );

  it("keeps spill files as blobs and writes them back on a machine that lacks them", async () => {
    // SQLite keeps spills as local files only; any backend can be given a BlobStore of its own.
    const blobs = name === "postgres" ? undefined : new MemoryBlobStore();
    const machineOne = track(
      layer({
        workspace: join(dir, "one"),
        trim: new TrimPolicy({ keepRecent: 1 }),
        ...(blobs ? { blobs } : {}),
      }),
    );
    if (name === "postgres") expect(machineOne.blobs).toBeInstanceOf(PostgresBlobStore);
    else expect(layer({ workspace: dir }).blobs).toBeNull();
    const { entries, big } = session();
    await machineOne.append(main, entries);
    const loaded = (await machineOne.load(main)) ?? [];
    const pointer = String(resultBlockById(loaded, big)?.block["content"]);
    const [name1] = readdirSync(join(dir, "one", ".flower", "spill"));
    expect(pointer).toContain(name1);
    // The resumed CLI writes the history it was given: pointers now live in the stored transcript.
    const resumed = { ...main, sessionId: "s-2" };
    await machineOne.append(resumed, loaded);

    // Machine two: another workspace path, no .flower/ at all, trimming off.
    const machineTwo = track(
      layer({ workspace: join(dir, "two"), ...(blobs ? { blobs } : {}) }, backend.reopen()),
    );
    const again = (await machineTwo.load(resumed)) ?? [];
    expect(String(resultBlockById(again, big)?.block["content"])).toBe(pointer);
    expect(readFileSync(join(dir, "two", ".flower", "spill", name1 as string), "utf8")).toBe(
      "L".repeat(6000),
    );

    // A blob whose content does not match its name is never written out.
    const forged: BlobStore = { put: async () => "0".repeat(64), get: async () => "forged" };
    const machineThree = track(layer({ workspace: join(dir, "three"), blobs: forged }, backend.reopen()));
    await machineThree.load(resumed);
    expect(existsSync(join(dir, "three", ".flower", "spill", name1 as string))).toBe(false);
  });

  it("passes delete, listSessions and projectKeysOf through to the wrapped store", async () => {
    const store = track(layer({ workspace: dir }));
    await store.append(main, session().entries);
    await store.append({ ...main, subpath: "subagents/agent-x" }, session().entries);
    expect((await store.listSessions(main.projectKey)).map((s) => s.sessionId)).toEqual(["s-1"]);
    expect(await store.projectKeysOf("s-1")).toEqual(["-repo"]);
    await store.delete(main);
    expect(await store.load(main)).toBeNull();
    expect(await store.listSubkeys(main)).toEqual([]);
  });
});
