/**
 * What the SQLite session store keeps of a process's memory while it is written to (bench/README.md,
 * "Workload 5", the driver's RSS): workload 4's realistic entries appended in turn-sized batches to one
 * `SqliteSessionStore`, and after every eighth of them the RSS outside the V8 heap (RSS − heapTotal, after
 * a full GC). Each page-cache size runs in a process of its own, one after another:
 *
 *   node bench/dist/store-memory.js [--entries 21000] [--cache-kib 16000,2000]
 *
 * 16000 KiB is better-sqlite3's build default, which flower's connections had before `openWal` set
 * 2000; 21,000 entries of ~1.5 kB are about the transcripts of workload 5's 1,000 sub-tasks.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SqliteSessionStore } from "flower-agent/stores";
import type { SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { BATCH, makeSession } from "./store.js";

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : (process.argv[index + 1] ?? "");
}

/** MB outside the V8 heap after a full GC: native memory (SQLite's page cache among it). */
function nativeMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return Math.round((usage.rss - usage.heapTotal) / 2 ** 20);
}

/** In the child: one store, one cache size; prints the samples as JSON. */
async function measure(entries: number, cacheKib: number): Promise<void> {
  // flower's openWal sets `cache_size = -2000`; this replaces it with the size under test.
  const require = createRequire(import.meta.url);
  const Database = require("better-sqlite3") as { prototype: { pragma: (...args: unknown[]) => unknown } };
  const { pragma } = Database.prototype;
  Database.prototype.pragma = function (this: unknown, ...args: unknown[]) {
    if (typeof args[0] === "string" && args[0].startsWith("cache_size ="))
      return pragma.apply(this, [`cache_size = -${cacheKib}`]);
    return pragma.apply(this, args);
  };
  const session = makeSession(entries, "s-memory") as unknown as SessionStoreEntry[];
  const dir = mkdtempSync(join(tmpdir(), "flower-store-memory-"));
  const store = new SqliteSessionStore({ path: join(dir, "sessions.db") });
  const key = { projectKey: "-repo", sessionId: "s-memory" };
  const samples = [nativeMb()];
  const step = Math.ceil(session.length / 8);
  try {
    for (let start = 0; start < session.length; start += BATCH) {
      await store.append(key, session.slice(start, start + BATCH));
      const done = Math.min(start + BATCH, session.length);
      if (Math.floor(done / step) > Math.floor(start / step) || done === session.length)
        samples.push(nativeMb());
    }
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const text = session.reduce((sum, entry) => sum + JSON.stringify(entry).length, 0);
  console.log(
    JSON.stringify({ cacheKib, entries: session.length, textMb: Math.round(text / 2 ** 20), samples }),
  );
}

if (process.argv.includes("--child")) {
  await measure(Number(argument("entries", "21000")), Number(argument("cache-kib", "2000")));
} else {
  const entries = Number(argument("entries", "21000"));
  const sizes = argument("cache-kib", "16000,2000").split(",").map(Number);
  if (!Number.isInteger(entries) || entries < 1 || sizes.some((size) => !Number.isInteger(size) || size < 1))
    throw new Error(
      `--entries and --cache-kib take positive integers, got ${entries} and ${sizes.join(",")}`,
    );
  for (const size of sizes) {
    const output = execFileSync(
      process.execPath,
      [
        "--expose-gc",
        fileURLToPath(import.meta.url),
        "--child",
        "--entries",
        String(entries),
        "--cache-kib",
        String(size),
      ],
      { encoding: "utf8" },
    );
    const result = JSON.parse(output) as {
      cacheKib: number;
      entries: number;
      textMb: number;
      samples: number[];
    };
    const first = result.samples[0]!;
    const last = result.samples.at(-1)!;
    console.log(
      `page cache ${result.cacheKib} KiB: ${result.entries} entries (${result.textMb} MB of JSON); ` +
        `RSS outside the V8 heap ${result.samples.join(" → ")} MB, +${last - first} MB`,
    );
  }
}
