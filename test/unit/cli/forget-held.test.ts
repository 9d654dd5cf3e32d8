/**
 * `flower forget` in a run directory refuses a step a live driver holds (its sessions are being written),
 * naming the holder, as `flower continue` does; once the lease is released it deletes them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { forgetCommand } from "../../../src/cli/commands/forget.js";
import { LeaseHeldError } from "../../../src/errors.js";
import { currentProcess } from "../../../src/records/process-identity.js";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { newStepRecord } from "../../../src/records/step-record.js";
import { SqliteSessionStore } from "../../../src/storage/sqlite/sqlite-session-store.js";

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("flower forget and a live driver (run directory)", () => {
  it("refuses while the lease is held, deleting nothing, and forgets after it is released", async () => {
    const dir = mkdtempSync(join(tmpdir(), "flower-forget-held-"));
    dirs.push(dir);
    const store = new SqliteSessionStore({ path: join(dir, "sessions.db") });
    await store.append({ projectKey: "p", sessionId: "s1" }, [
      { type: "user", uuid: "u1", timestamp: "2026-01-01T00:00:00.000Z" },
    ]);
    const records = new SqliteRunRecords(dir);
    records.put({ ...newStepRecord("build", "lead", "p"), sessionId: "s1" });
    const acquired = records.acquire("build", { self: currentProcess(), now: new Date(), token: "t1" });
    expect(acquired.kind).toBe("acquired");
    const written = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const forget = { command: "forget" as const, values: { "run-dir": dir }, positionals: ["build"] };

    const refused = await forgetCommand(forget).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LeaseHeldError);
    expect((refused as LeaseHeldError).message).toContain(
      `Step "build" is being driven by pid ${process.pid}`,
    );
    expect(store.projectKeysOf("s1")).toEqual(["p"]);

    records.release("build", "t1");
    records.close();
    expect(await forgetCommand(forget)).toBe(0);
    expect(written).toHaveBeenCalledWith(`deleted 1 session of "build" from ${join(dir, "sessions.db")}\n`);
    expect(store.projectKeysOf("s1")).toEqual([]);
    store.close();
  });
});
