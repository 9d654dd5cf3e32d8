import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomically, writeFileAtomicallyAsync } from "../../../src/fs/atomic-write.js";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { SqliteSessionStore } from "../../../src/storage/sqlite/sqlite-session-store.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe("what flower creates is owner-only, whatever the umask", () => {
  it("atomic writes: folders 0700, files 0600", async () => {
    const previous = process.umask(0o000);
    try {
      const root = temp.make();
      writeFileAtomically(join(root, "a", "b", "x.md"), "x");
      await writeFileAtomicallyAsync(join(root, "c", "y.md"), "y");
      expect([mode(join(root, "a")), mode(join(root, "a", "b")), mode(join(root, "c"))]).toEqual([
        "700",
        "700",
        "700",
      ]);
      expect([mode(join(root, "a", "b", "x.md")), mode(join(root, "c", "y.md"))]).toEqual(["600", "600"]);
    } finally {
      process.umask(previous);
    }
  });

  it("the SQLite stores: database, WAL and shared-memory files 0600, their folder 0700", async () => {
    const previous = process.umask(0o000);
    try {
      const root = temp.make();
      const runDir = join(root, "runs");
      const records = new SqliteRunRecords(runDir);
      const store = new SqliteSessionStore({ path: join(runDir, "sessions.db") });
      await store.append({ projectKey: "-p", sessionId: "s" }, [{ type: "user", uuid: "u" }]);
      try {
        expect(mode(runDir)).toBe("700");
        for (const name of [
          "records.db",
          "sessions.db",
          "sessions.db-wal",
          "sessions.db-shm",
          "records.db-wal",
        ])
          expect(mode(join(runDir, name)), name).toBe("600");
      } finally {
        store.close();
        records.close();
      }
    } finally {
      process.umask(previous);
    }
  });
});
