import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError, ManifestError } from "../../../src/errors.js";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { RunDirectory } from "../../../src/storage/run-directory.js";
import { newStepRecord, type StepRecord } from "../../../src/records/step-record.js";
import { SqliteSessionStore } from "../../../src/storage/sqlite/sqlite-session-store.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function runDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "flower-run-directory-"));
  dirs.push(dir);
  return dir;
}

/** Writes an older run directory's manifest.json, with the given update times (the records import it once). */
function record(dir: string, records: StepRecord[]): void {
  const steps = Object.fromEntries(records.map((r) => [r.step, r]));
  writeFileSync(
    join(dir, "manifest.json"),
    JSON.stringify({ format: "flower-manifest", version: 1, steps }, null, 2),
  );
}

describe("RunDirectory", () => {
  it("lists steps oldest update first, names them in recorded order, finds one and the last", () => {
    const dir = runDir();
    const late = { ...newStepRecord("late", "lead", "p"), updatedAt: "2026-01-02T00:00:00.000Z" };
    const early = { ...newStepRecord("early", "lead", "p"), updatedAt: "2026-01-01T00:00:00.000Z" };
    record(dir, [late, early]);
    const run = new RunDirectory(dir);
    expect(run.steps().map((r) => r.step)).toEqual(["early", "late"]);
    expect(run.stepNames()).toEqual(["early", "late"]);
    expect(run.lastStep()?.step).toBe("late");
    expect(run.step("early")?.updatedAt).toBe(early.updatedAt);
    expect(run.step("missing")).toBeUndefined();
    expect(run.recordsPath).toBe(join(dir, "records.db"));
  });

  it("reads an empty directory without creating anything, and refuses a foreign manifest", () => {
    const dir = join(runDir(), "not-yet");
    const run = new RunDirectory(dir);
    expect(run.steps()).toEqual([]);
    expect(run.lastStep()).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
    const foreign = runDir();
    writeFileSync(join(foreign, "manifest.json"), '{"steps": {}}');
    expect(() => new RunDirectory(foreign)).toThrow(ManifestError);
  });

  it("lists the current handoff and the archived ones of the same step only", () => {
    const dir = runDir();
    const notes = join(dir, "notes");
    const archive = join(notes, "archive", "handoff");
    mkdirSync(archive, { recursive: true });
    for (const name of [
      "build-2026-01-01T00-00-00-000Z.md",
      "build-extra-2026-01-01T00-00-00-000Z.md",
      "build-notes.md",
    ])
      writeFileSync(join(archive, name), "# handoff\n");
    const step = {
      ...newStepRecord("build", "lead", "p"),
      handoffs: [join(archive, "build-2026-01-01T00-00-00-000Z.md"), join(notes, "handoff-build.md")],
    };
    const files = new RunDirectory(dir).handoffFiles(step);
    expect(files.current).toEqual([join(notes, "handoff-build.md")]);
    expect(files.archived).toEqual([join(archive, "build-2026-01-01T00-00-00-000Z.md")]);
  });

  it("forgets a step's sessions through the store, keeps its record, and names unknown steps", async () => {
    const dir = runDir();
    expect(await new RunDirectory(dir).forgetStep("any")).toBeNull();
    const store = new SqliteSessionStore({ path: join(dir, "sessions.db") });
    const entry = { type: "user", uuid: "u1", timestamp: "2026-01-01T00:00:00.000Z" };
    await store.append({ projectKey: "p", sessionId: "s1" }, [entry]);
    await store.append({ projectKey: "p", sessionId: "s2" }, [entry]);
    store.close();
    const records = new SqliteRunRecords(dir);
    records.put({ ...newStepRecord("build", "lead", "p"), sessionId: "s2", retired: ["s1"] });
    records.close();
    const run = new RunDirectory(dir);
    await expect(run.forgetStep("nope")).rejects.toThrow(ConfigurationError);
    expect(await run.forgetStep("build")).toEqual({ deleted: 2, from: join(dir, "sessions.db") });
    expect(run.step("build")?.retired).toEqual(["s1"]);
    expect(await run.forgetStep("build")).toEqual({ deleted: 0, from: join(dir, "sessions.db") });
  });
});
