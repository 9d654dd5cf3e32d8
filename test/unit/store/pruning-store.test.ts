import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionKey } from "@anthropic-ai/claude-agent-sdk";
import { ConfigurationError } from "../../../src/errors.js";
import type { RewriteReport } from "../../../src/store/passes/report.js";
import { PruningSessionStore } from "../../../src/store/pruning-store.js";
import { SqliteSessionStore } from "../../../src/store/sqlite-store.js";
import { TrimPolicy } from "../../../src/store/trim-policy.js";
import { TrimmingSessionStore } from "../../../src/store/trimming-store.js";
import { sessionArbitrary } from "./transcript-arbitrary.js";
import {
  TranscriptBuilder,
  assertLinksResolve,
  assertPaired,
  bash,
  read,
  resultBlockById,
  testIsEphemeral,
  type Entry,
} from "./transcript-fixtures.js";
import { properties, propertyTimeout } from "../../support/properties.js";
import { useTempDirs } from "../../support/temp-dir.js";

const main = { projectKey: "-repo", sessionId: "s-1" };

const temp = useTempDirs();
let dir: string;
const open: SqliteSessionStore[] = [];
function track<T extends SqliteSessionStore>(store: T): T {
  open.push(store);
  return store;
}

beforeEach(() => {
  dir = temp.make("flower-pruning-");
});

afterEach(() => {
  for (const store of open.splice(0)) store.close();
});

function rows(path: string): unknown[] {
  const db = new Database(path, { readonly: true });
  const all = [
    ...db.prepare("SELECT * FROM transcripts ORDER BY id").all(),
    ...db.prepare("SELECT * FROM entries ORDER BY seq").all(),
  ];
  db.close();
  return all;
}

function session(): { entries: Entry[]; big: string; glances: string[] } {
  const t = new TranscriptBuilder();
  t.prompt("inspect");
  const glances: string[] = [];
  for (let i = 0; i < 8; i += 1) glances.push(...t.response(null, [bash("git status -s", ` M f${i}`)]));
  t.response(null, [bash("rm -rf a", "", "denied")]);
  t.response(null, [bash("rm -rf b", "", "denied")]);
  const [big] = t.response(null, [read("/repo/log.txt", "L".repeat(6000))]);
  for (let i = 0; i < 3; i += 1) t.response(null, [read(`/repo/${i}`, "short")]);
  t.apiRetry(1).apiErrorMessage();
  t.prompt("go on");
  t.response("done");
  return { entries: t.entries, big: big as string, glances };
}

describe("PruningSessionStore", () => {
  it("is a TrimmingSessionStore is a SqliteSessionStore", () => {
    const store = track(new PruningSessionStore({ path: join(dir, "s.db"), workspace: dir }));
    expect(store).toBeInstanceOf(TrimmingSessionStore);
    expect(store).toBeInstanceOf(SqliteSessionStore);
    expect(store.keepEphemeral).toBe(6);
    expect(store.keepDenials).toBe(1);
    expect(store.trim).toBeNull();
  });

  it("rewrites on load only, reports it, and never changes the rows", async () => {
    const reports: Array<[SessionKey, RewriteReport]> = [];
    const path = join(dir, "runs", "sessions.db");
    const store = track(
      new PruningSessionStore({
        path,
        workspace: join(dir, "ws"),
        trim: new TrimPolicy({ keepRecent: 3 }),
        locale: "zh",
        isEphemeral: testIsEphemeral,
        onLoad: (key, report) => reports.push([key, report]),
      }),
    );
    const { entries, big, glances } = session();
    await store.append(main, entries);
    const before = rows(path);

    const loaded = (await store.load(main)) ?? [];
    expect(rows(path)).toEqual(before);
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
    const raw = track(new SqliteSessionStore({ path }));
    expect(await raw.load(main)).toEqual(entries);
  });

  it("applies the same passes to subagent transcripts under their subpath", async () => {
    const store = track(
      new PruningSessionStore({
        path: join(dir, "s.db"),
        workspace: dir,
        isEphemeral: testIsEphemeral,
        keepEphemeral: 1,
      }),
    );
    const t = new TranscriptBuilder({ prefix: "a1", agentId: "a1" });
    t.prompt("sub task");
    const [first] = t.response(null, [bash("ls", "a b c")]);
    t.response(null, [bash("ls", "a b c d")]);
    t.response("report");
    const subKey = { ...main, subpath: "subagents/agent-a1" };
    await store.append(subKey, t.entries);
    const loaded = (await store.load(subKey)) ?? [];
    expect(resultBlockById(loaded, first as string)?.block["content"]).not.toBe("a b c");
    expect(loaded.every((entry) => entry["isSidechain"] === true)).toBe(true);
    expect(await store.listSubkeys(main)).toEqual(["subagents/agent-a1"]);
  });

  it("returns null without calling onLoad for a session never written", async () => {
    let calls = 0;
    const store = track(
      new PruningSessionStore({ path: join(dir, "s.db"), workspace: dir, onLoad: () => (calls += 1) }),
    );
    expect(await store.load(main)).toBeNull();
    expect(calls).toBe(0);
  });

  it("uses the guard's glance table by default", async () => {
    const store = track(
      new PruningSessionStore({ path: join(dir, "s.db"), workspace: dir, keepEphemeral: 0, locale: "en" }),
    );
    const t = new TranscriptBuilder();
    t.prompt("look");
    const [id] = t.response(null, [bash("git status -s", " M a")]);
    t.response("ok");
    await store.append(main, t.entries);
    const loaded = (await store.load(main)) ?? [];
    expect(resultBlockById(loaded, id as string)?.block["content"]).toBe(
      "[The result of `git status -s` has expired (1 turn ago); the state may have changed. Run it again if needed]",
    );
  });

  it("turns expiry and denial pruning off with Infinity, and trimming on with true", async () => {
    const store = track(
      new PruningSessionStore({
        path: join(dir, "s.db"),
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
    const observed = track(
      new PruningSessionStore({
        path: join(dir, "s.db"),
        workspace: dir,
        keepEphemeral: Infinity,
        keepDenials: Infinity,
        onLoad: (_key, r) => (report = r),
      }),
    );
    await observed.load(main);
    expect(report).toMatchObject({ expired: 0, prunedDenials: 0, trimmed: 0, prunedApiErrors: 2 });
  });

  it("validates its options once, naming the option", () => {
    const path = join(dir, "s.db");
    expect(() => new PruningSessionStore({ path, workspace: "" })).toThrow(/workspace/);
    expect(() => new PruningSessionStore({ path, workspace: dir, keepEphemeral: -1 })).toThrow(
      ConfigurationError,
    );
    expect(() => new PruningSessionStore({ path, workspace: dir, keepDenials: 1.5 })).toThrow(/keepDenials/);
    expect(
      () => new PruningSessionStore({ path, workspace: dir, trim: "yes" as unknown as boolean }),
    ).toThrow(/trim/);
    expect(() => new PruningSessionStore({ path, workspace: dir, locale: "fr" as "en" })).toThrow(/locale/);
    expect(
      () => new PruningSessionStore({ path, workspace: dir, isEphemeral: 1 as unknown as () => boolean }),
    ).toThrow(/isEphemeral/);
    expect(() => new TrimPolicy({ minChars: 0 })).toThrow(/minChars/);
    expect(() => new TrimPolicy({ keepRecent: -2 })).toThrow(/keepRecent/);
    expect(existsSync(path)).toBe(false);
  });

  it("falls back to an untrimmed load when the spill folder cannot be written", async () => {
    const blocker = join(dir, "ws-file");
    // The workspace is a file, so `<workspace>/.flower/spill` cannot be created.
    await import("node:fs").then((fs) => fs.writeFileSync(blocker, "not a folder"));
    let report: RewriteReport | undefined;
    const store = track(
      new PruningSessionStore({
        path: join(dir, "s.db"),
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
      const path = join(dir, "prop.db");
      const store = track(
        new PruningSessionStore({
          path,
          workspace: join(dir, "ws"),
          trim: new TrimPolicy({ keepRecent: 2, minChars: 500 }),
          isEphemeral: testIsEphemeral,
        }),
      );
      let run = 0;
      await fc.assert(
        fc.asyncProperty(sessionArbitrary, fc.integer({ min: 1, max: 12 }), async (generated, batchSize) => {
          run += 1;
          const key = { projectKey: "-repo", sessionId: `s-${run}` };
          for (let i = 0; i < generated.main.length; i += batchSize)
            await store.append(key, generated.main.slice(i, i + batchSize));
          for (const [subpath, entries] of generated.subagents)
            await store.append({ ...key, subpath }, entries);
          const before = rows(path);
          const loaded = (await store.load(key)) ?? [];
          assertPaired(loaded);
          assertLinksResolve(loaded);
          for (const subpath of await store.listSubkeys(key)) {
            const sub = (await store.load({ ...key, subpath })) ?? [];
            assertPaired(sub);
            assertLinksResolve(sub);
          }
          expect(rows(path)).toEqual(before);
          const raw = track(new SqliteSessionStore({ path }));
          expect(await raw.load(key)).toEqual(generated.main);
          raw.close();
        }),
        properties(150),
      );
    },
    propertyTimeout(120_000),
  );
});
