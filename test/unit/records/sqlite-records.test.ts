import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LeaseLostError, ManifestError } from "../../../src/errors.js";
import { currentProcess } from "../../../src/records/process-identity.js";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { newStepRecord, type StepRecord } from "../../../src/records/step-record.js";

const dirs: string[] = [];
const open: SqliteRunRecords[] = [];
afterEach(() => {
  for (const records of open.splice(0)) records.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function runDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "flower-records-"));
  dirs.push(dir);
  return dir;
}

function records(dir: string): SqliteRunRecords {
  const store = new SqliteRunRecords(dir);
  open.push(store);
  return store;
}

function record(step: string): StepRecord {
  return newStepRecord(step, "a", "p");
}

const self = currentProcess();
const now = new Date("2026-11-30T12:00:00.000Z");

describe("SqliteRunRecords", () => {
  it("keeps every step two writers put, and mirrors them to manifest.json atomically", () => {
    const dir = runDir();
    const a = records(dir);
    const b = records(dir);
    a.put(record("one"));
    b.put(record("two"));
    a.put({ ...record("one"), status: "done" });
    const file = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    expect(file).toMatchObject({ format: "flower-manifest", version: 1 });
    expect(Object.keys(file.steps).sort()).toEqual(["one", "two"]);
    expect(file.steps.one.status).toBe("done");
    expect(b.get("one")?.status).toBe("done");
    // No temp files are left behind; the mirror is readable by its owner only.
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(statSync(join(dir, "manifest.json")).mode & 0o077).toBe(0);
  });

  it("imports an older manifest.json once", () => {
    const dir = runDir();
    const old = { ...record("legacy"), status: "done" as const, costUsd: 1.5 };
    writeFileSync(
      join(dir, "manifest.json"),
      JSON.stringify({ format: "flower-manifest", version: 1, steps: { legacy: old } }),
    );
    const store = records(dir);
    expect(store.get("legacy")).toMatchObject({ status: "done", costUsd: 1.5 });
    store.put(record("new"));
    store.close();
    // A second open does not import again (the file is now the mirror, and holds both).
    expect(
      records(dir)
        .list()
        .map((r) => r.step),
    ).toEqual(["legacy", "new"]);
  });

  it("refuses a corrupt manifest with a clear error and leaves it untouched", () => {
    const dir = runDir();
    writeFileSync(join(dir, "manifest.json"), '{"format": "flower-manif');
    expect(() => new SqliteRunRecords(dir)).toThrow(ManifestError);
    expect(() => new SqliteRunRecords(dir)).toThrow(/not valid JSON; it was left as it is/);
    expect(readFileSync(join(dir, "manifest.json"), "utf8")).toBe('{"format": "flower-manif');
  });

  it("refuses a foreign manifest.json without overwriting it", () => {
    const dir = runDir();
    writeFileSync(join(dir, "manifest.json"), '{"name": "some web app", "icons": []}');
    expect(() => new SqliteRunRecords(dir)).toThrow(/not written by flower-agent/);
    expect(readFileSync(join(dir, "manifest.json"), "utf8")).toContain("some web app");
  });

  it("writes a record under a lease only while that lease holds the step", () => {
    const store = records(runDir());
    expect(store.acquire("s", { self, now, token: "t1" }).kind).toBe("acquired");
    store.put(record("s"), { lease: "t1" });
    expect(store.acquire("s", { self, now, token: "t2" })).toMatchObject({
      kind: "held",
      lease: { token: "t1" },
    });
    expect(store.takeOver("s", "t1", { self, now, token: "t2" })).toBe(true);
    expect(() => store.put({ ...record("s"), status: "done" }, { lease: "t1" })).toThrow(LeaseLostError);
    expect(store.get("s")?.status).toBe("running");
    // A takeover names the lease it replaces: a second one with the same dead token loses.
    expect(store.takeOver("s", "t1", { self, now, token: "t3" })).toBe(false);
  });

  it("records heartbeats and children, and forgets a released lease", () => {
    const store = records(runDir());
    store.acquire("s", { self, now, token: "t1" });
    expect(store.heartbeat("s", "t1", new Date("2026-11-30T12:00:05.000Z"), [123, 456])).toBe(true);
    expect(store.heartbeat("s", "other", now)).toBe(false);
    expect(store.leases()).toEqual([
      expect.objectContaining({
        step: "s",
        pid: process.pid,
        children: [123, 456],
        heartbeatAt: "2026-11-30T12:00:05.000Z",
      }),
    ]);
    store.release("s", "t1");
    expect(store.leases()).toEqual([]);
  });
});
