/**
 * `flower forget` (RunDirectory.forgetStep) deletes the goal guard's reviewer sessions with the step's
 * own: each review runs as a session of its own in the same store, and forgetting a step must not
 * leave its transcripts behind.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { newGuardRecord } from "../../../src/records/guard-record.js";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { newStepRecord } from "../../../src/records/step-record.js";
import { stepSessionIds } from "../../../src/storage/retention.js";
import { RunDirectory } from "../../../src/storage/run-directory.js";
import { SqliteSessionStore } from "../../../src/storage/sqlite/sqlite-session-store.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const review = (sessionId: string | null) => ({
  round: 0,
  at: "2026-01-01T00:00:00.000Z",
  sessionId,
  outcome: "met" as const,
  criteria: [],
  why: null,
  answerPath: null,
});

describe("forgetting a step's reviewer sessions", () => {
  it("deletes the reviewers' sessions with the generations', and leaves other steps' sessions", async () => {
    const dir = mkdtempSync(join(tmpdir(), "flower-forget-reviewers-"));
    dirs.push(dir);
    const store = new SqliteSessionStore({ path: join(dir, "sessions.db") });
    const entry = { type: "user", uuid: "u1", timestamp: "2026-01-01T00:00:00.000Z" };
    for (const sessionId of ["gen-1", "gen-2", "review-1", "review-2", "other"])
      await store.append({ projectKey: "p", sessionId }, [entry]);
    const records = new SqliteRunRecords(dir);
    const guard = { ...newGuardRecord(3), reviews: [review("review-1"), review(null), review("review-2")] };
    records.put({ ...newStepRecord("build", "lead", "p"), sessionId: "gen-2", retired: ["gen-1"], guard });
    records.put({ ...newStepRecord("else", "lead", "p"), sessionId: "other" });
    records.close();

    expect(
      stepSessionIds({ ...newStepRecord("x", "lead", "p"), sessionId: "a", retired: ["a"], guard }),
    ).toEqual(["a", "review-1", "review-2"]);
    expect(await new RunDirectory(dir).forgetStep("build")).toEqual({
      deleted: 4,
      from: join(dir, "sessions.db"),
    });
    expect(store.projectKeysOf("review-1")).toEqual([]);
    expect(store.projectKeysOf("review-2")).toEqual([]);
    expect(store.projectKeysOf("gen-1")).toEqual([]);
    expect(store.projectKeysOf("other")).toEqual(["p"]);
    store.close();
  });
});
