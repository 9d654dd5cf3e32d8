import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";
import ts from "typescript";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigurationError, StoreError } from "../../../src/errors.js";
import { SqliteSessionStore, dedupKeys } from "../../../src/storage/sqlite/sqlite-session-store.js";
import { openWal } from "../../../src/storage/sqlite/open-wal.js";
import {
  sampleTranscript,
  repeatedMarkers,
  type Entry,
} from "../../unit/session-layers/transcript-fixtures.js";
import { useTempDirs } from "../../support/temp-dir.js";

const ROOT = resolve(import.meta.dirname, "../../..");
const main = { projectKey: "-repo", sessionId: "s-1" };
const sub = { ...main, subpath: "subagents/agent-a1" };

const temp = useTempDirs();
let dir: string;
let store: SqliteSessionStore;

beforeEach(() => {
  dir = temp.make("flower-store-");
  store = new SqliteSessionStore({ path: join(dir, "nested", "runs", "sessions.db") });
});

afterEach(() => {
  store.close();
});

describe("SqliteSessionStore", () => {
  it("creates the file and its folder in WAL mode", () => {
    const db = new Database(store.path, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("keeps each connection's page cache at 2 MB, not better-sqlite3's 16 MB", () => {
    // A connection keeps every page it touched until it closes: with better-sqlite3's build default
    // (-16000 KiB) the session store's cache grew with the transcripts to 16 MB of a long run's RSS.
    const db = openWal(join(dir, "flower.db"), 1_000);
    expect(db.pragma("cache_size", { simple: true })).toBe(-2_000);
    db.close();
  });

  it("returns null for a key never written, and for an empty batch", async () => {
    expect(await store.load(main)).toBeNull();
    await store.append(main, []);
    expect(await store.load(main)).toBeNull();
    expect(await store.listSessions(main.projectKey)).toEqual([]);
  });

  it("returns entries deep-equal to what was appended, in order, across batches", async () => {
    const entries = sampleTranscript();
    await store.append(main, entries.slice(0, 3));
    await store.append(main, entries.slice(3));
    expect(await store.load(main)).toEqual(entries);
  });

  it("adds nothing when a batch is replayed or retried, uuid or not", async () => {
    const entries = sampleTranscript();
    await store.append(main, entries);
    await store.append(main, entries);
    await store.append(main, entries.slice(2, 5));
    expect(await store.load(main)).toEqual(entries);
  });

  it("keeps a uuid-less marker repeated after new conversation, and repeats inside one batch", async () => {
    const batch = repeatedMarkers();
    await store.append(main, batch);
    await store.append(main, batch);
    expect(await store.load(main)).toEqual(batch);
    expect(new Set(dedupKeys(batch).map(([key]) => key)).size).toBe(batch.length);
  });

  it("keeps subagent transcripts under their subpath and lists them", async () => {
    await store.append(main, sampleTranscript());
    await store.append(sub, [{ type: "agent_metadata", agentType: "general-purpose", toolUseId: "toolu_1" }]);
    await store.append({ ...main, subpath: "subagents/agent-b2" }, [{ type: "user", uuid: "x" }]);
    expect(await store.load(sub)).toEqual([
      { type: "agent_metadata", agentType: "general-purpose", toolUseId: "toolu_1" },
    ]);
    expect(await store.listSubkeys(main)).toEqual(["subagents/agent-a1", "subagents/agent-b2"]);
    expect(await store.load(main)).toEqual(sampleTranscript());
    // The same uuid in two transcripts is two rows: idempotency is per transcript.
    await store.append(sub, [{ type: "user", uuid: "x" }]);
    expect(await store.load(sub)).toHaveLength(2);
  });

  it("lists main sessions of a project with increasing mtimes", async () => {
    await store.append(main, sampleTranscript());
    await store.append({ ...main, sessionId: "s-2" }, sampleTranscript());
    await store.append({ projectKey: "-other", sessionId: "s-3" }, sampleTranscript());
    await store.append({ ...sub, sessionId: "s-4" }, sampleTranscript());
    const sessions = await store.listSessions(main.projectKey);
    expect(sessions.map((session) => session.sessionId).sort()).toEqual(["s-1", "s-2"]);
    const [first, second] = sessions.sort((a, b) => a.mtime - b.mtime);
    expect(Number.isInteger(first?.mtime)).toBe(true);
    expect(second!.mtime).toBeGreaterThan(first!.mtime);
  });

  it("deletes a subagent transcript alone, and a main transcript with its subagents", async () => {
    await store.append(main, sampleTranscript());
    await store.append(sub, sampleTranscript());
    await store.append({ ...main, subpath: "subagents/agent-b2" }, sampleTranscript());
    await store.delete({ ...main, subpath: "subagents/agent-b2" });
    expect(await store.listSubkeys(main)).toEqual(["subagents/agent-a1"]);
    await store.delete(main);
    expect(await store.load(main)).toBeNull();
    expect(await store.load(sub)).toBeNull();
    expect(await store.listSubkeys(main)).toEqual([]);
    const db = new Database(store.path, { readonly: true });
    expect(db.prepare("SELECT count(*) AS n FROM entries").get()).toEqual({ n: 0 });
    db.close();
  });

  it("survives reopening the file", async () => {
    await store.append(main, sampleTranscript());
    store.close();
    store = new SqliteSessionStore({ path: join(dir, "nested", "runs", "sessions.db") });
    expect(await store.load(main)).toEqual(sampleTranscript());
  });

  it("rejects bad options, bad keys and use after close with typed errors", async () => {
    expect(() => new SqliteSessionStore({ path: "" })).toThrow(ConfigurationError);
    expect(() => new SqliteSessionStore({ path: join(dir, "x.db"), busyTimeoutMs: -1 })).toThrow(
      /busyTimeoutMs/,
    );
    await expect(store.append({ ...main, subpath: "" }, sampleTranscript())).rejects.toThrow(StoreError);
    await expect(store.append(main, [{ type: "x", big: 10n }])).rejects.toThrow(StoreError);
    store.close();
    await expect(store.load(main)).rejects.toThrow(/closed/);
    expect(() => store.close()).not.toThrow();
  });

  it("writes a whole batch or nothing", async () => {
    const entries = sampleTranscript();
    const poisoned = [...entries.slice(0, 2), { type: "x", bad: 1n } as unknown as Entry];
    await expect(store.append(main, poisoned)).rejects.toThrow(StoreError);
    expect(await store.load(main)).toBeNull();
  });
});

/**
 * Two real processes appending to one file. The store's source is transpiled (type erasure only) next to
 * node_modules so the children run exactly this code, with better-sqlite3 resolved from the repo.
 */
describe("SqliteSessionStore across processes", () => {
  let build: string;

  beforeEach(() => {
    build = mkdtempSync(join(ROOT, "node_modules", ".flower-store-test-"));
    for (const file of [
      "storage/sqlite/sqlite-session-store.ts",
      "storage/sqlite/open-wal.ts",
      "session-layers/session-key.ts",
      "errors.ts",
      "fs/private-files.ts",
    ]) {
      const source = readFileSync(join(ROOT, "src", file), "utf8");
      const output = ts.transpileModule(source, {
        compilerOptions: {
          module: ts.ModuleKind.ESNext,
          target: ts.ScriptTarget.ES2022,
          verbatimModuleSyntax: true,
        },
      });
      const target = join(build, file.replace(/\.ts$/, ".js"));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, output.outputText);
    }
    writeFileSync(
      join(build, "writer.mjs"),
      `import { SqliteSessionStore } from "./storage/sqlite/sqlite-session-store.js";
const [path, id, batches] = process.argv.slice(2);
const store = new SqliteSessionStore({ path });
const key = { projectKey: "-repo", sessionId: "shared" };
// Start together: process start-up takes longer than the whole run, so without a barrier they never overlap.
process.stdout.write("ready\\n");
await new Promise((go) => process.stdin.once("data", go));
const replay = [{ type: "user", uuid: "replayed-1" }, { type: "cost-state", totalCostUSD: 1 }];
for (let b = 0; b < Number(batches); b += 1) {
  const batch = Array.from({ length: 25 }, (_, i) => ({ type: "assistant", uuid: id + "-" + b + "-" + i, body: "x".repeat(200) }));
  batch.push({ type: "cost-state", writer: id, batch: b });
  await store.append(key, batch);
  await store.append(key, replay);
  // A pause between batches so the two writers overlap even when one of them starts late on a busy machine.
  await new Promise((resolve) => setTimeout(resolve, 2));
}
store.close();
process.stdin.destroy();
`,
    );
  });

  afterEach(() => {
    rmSync(build, { recursive: true, force: true });
  });

  interface Writer {
    ready: Promise<void>;
    done: Promise<void>;
    go: () => void;
  }

  function startWriter(path: string, id: string, batches: number): Writer {
    const child = spawn(process.execPath, [join(build, "writer.mjs"), path, id, String(batches)], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const done = new Promise<void>((resolveDone, fail) => {
      child.on("error", fail);
      child.on("exit", (code) =>
        code === 0 ? resolveDone() : fail(new Error(`writer ${id} exited ${code}: ${stderr}`)),
      );
    });
    // A writer that dies before the barrier must fail the test, not leave it waiting.
    const ready = Promise.race([
      new Promise<void>((resolveReady) => child.stdout.once("data", () => resolveReady())),
      done,
    ]);
    return { ready, done, go: () => child.stdin.end("go\n") };
  }

  it("loses, duplicates and interleaves nothing when two processes append at once", async () => {
    const path = join(dir, "concurrent.db");
    const batches = 300;
    const writers = [startWriter(path, "A", batches), startWriter(path, "B", batches)];
    await Promise.all(writers.map((writer) => writer.ready));
    for (const writer of writers) writer.go();
    await Promise.all(writers.map((writer) => writer.done));

    const reader = new SqliteSessionStore({ path });
    const entries = (await reader.load({ projectKey: "-repo", sessionId: "shared" })) ?? [];
    reader.close();
    // 2 writers × batches × 26 entries + the replayed pair stored once.
    expect(entries).toHaveLength(2 * batches * 26 + 2);
    expect(entries.filter((entry) => entry.uuid === "replayed-1")).toHaveLength(1);
    for (const id of ["A", "B"]) {
      const own = entries.filter(
        (entry) => typeof entry.uuid === "string" && entry.uuid.startsWith(`${id}-`),
      );
      expect(own.map((entry) => entry.uuid)).toEqual(
        Array.from({ length: batches }, (_, b) =>
          Array.from({ length: 25 }, (_, i) => `${id}-${b}-${i}`),
        ).flat(),
      );
    }
    // One transaction per batch: a batch's entries are contiguous in the stored order.
    for (let index = 0; index < entries.length; index += 1) {
      const uuid = entries[index]?.uuid;
      if (typeof uuid === "string" && uuid.endsWith("-0") && !uuid.startsWith("replayed")) {
        const prefix = uuid.slice(0, -1);
        const run = entries.slice(index, index + 25).map((entry) => entry.uuid);
        expect(run).toEqual(Array.from({ length: 25 }, (_, i) => `${prefix}${i}`));
        expect(entries[index + 25]).toMatchObject({ type: "cost-state" });
      }
    }
    // The writers really overlapped (otherwise this test proves nothing about locking).
    const order = entries.flatMap((entry) =>
      typeof entry.uuid === "string" && /^[AB]-/.test(entry.uuid) ? [entry.uuid[0]] : [],
    );
    const switches = order.filter((writer, index) => index > 0 && writer !== order[index - 1]).length;
    expect(switches).toBeGreaterThan(2);
    const db = new Database(path, { readonly: true });
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    db.close();
  }, 60_000);
});
