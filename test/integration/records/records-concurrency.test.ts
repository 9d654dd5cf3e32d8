/**
 * 8 processes × 50 record updates on one run directory: no update is lost, and manifest.json parses at
 * every moment a reader looks (it is replaced atomically, in commit order).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { runNode } from "../../support/run-node.js";

const WRITERS = 8;
const UPDATES = 50;
let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

it(`loses no update when ${WRITERS} processes write ${UPDATES} records each`, async () => {
  root = mkdtempSync(join(tmpdir(), "flower-records-race-"));
  const runDir = join(root, "runs");
  // Create the database once, so the writers race on updates, not on creating the file.
  new SqliteRunRecords(runDir).close();
  let reads = 0;
  let writing = true;
  const reader = (async () => {
    while (writing) {
      try {
        const text = readFileSync(join(runDir, "manifest.json"), "utf8");
        JSON.parse(text); // must never see half a file
        reads += 1;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  const fixture = join(import.meta.dirname, "fixtures", "record-writer.mjs");
  const runs = await Promise.all(
    Array.from({ length: WRITERS }, (_, writer) =>
      runNode([fixture, runDir, String(writer), String(UPDATES)], { cwd: root!, timeoutMs: 120_000 }),
    ),
  );
  writing = false;
  await reader;
  for (const run of runs) expect(run.code, run.stderr).toBe(0);
  expect(reads).toBeGreaterThan(0);

  const manifest = JSON.parse(readFileSync(join(runDir, "manifest.json"), "utf8"));
  const records = new SqliteRunRecords(runDir);
  try {
    for (let writer = 0; writer < WRITERS; writer++) {
      // Each writer's last update is there, in the database and in the mirror.
      expect(records.get(`writer-${writer}`)).toMatchObject({ numTurns: UPDATES, status: "done" });
      expect(manifest.steps[`writer-${writer}`]).toMatchObject({ numTurns: UPDATES, status: "done" });
    }
    expect(Object.keys(manifest.steps)).toHaveLength(WRITERS);
  } finally {
    records.close();
  }
}, 180_000);
