/**
 * Workload 4: the session store. One session of N realistic CLI entries is appended in turn-sized
 * batches, then loaded raw and through `PruningSessionStore` with every rewrite pass on (trim
 * included). Each size runs in its own node process (`node store.js <entries>`), so its peak resident
 * memory is its own. Linear cost shows as a flat time per entry from 20k to 100k entries.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PruningSessionStore, SqliteSessionStore } from "flower-agent/stores";
import { TrimPolicy } from "flower-agent";
import type { SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";

const run = promisify(execFile);

/** The CLI flushed a whole turn as one append of ~26 entries (facts §4). */
export const BATCH = 26;

type Entry = Record<string, unknown>;

/** A realistic main-thread session: prompts, parallel tool calls, glances, long reads, denials, retries. */
export function makeSession(count: number, prefix: string): Entry[] {
  const entries: Entry[] = [];
  let last: string | null = null;
  let n = 0;
  let turn = 0;
  const base = (type: string): Entry => {
    n += 1;
    const uuid = `${prefix}-${n}`;
    const entry: Entry = {
      type,
      uuid,
      parentUuid: last,
      isSidechain: false,
      sessionId: prefix,
      timestamp: new Date(1_767_225_600_000 + n * 1000).toISOString(),
      cwd: "/repo",
      version: "2.1.332",
      entrypoint: "sdk-ts",
      userType: "external",
    };
    last = uuid;
    entries.push(entry);
    return entry;
  };
  base("user").message = {
    role: "user",
    content: [{ type: "text", text: "Refactor the parser and keep the tests green." }],
  };
  while (entries.length < count) {
    turn += 1;
    const id = `msg_${turn}`;
    if (turn % 50 === 0) {
      Object.assign(base("system"), {
        subtype: "api_error",
        level: "error",
        error: { status: 529 },
        retryInMs: 530,
        retryAttempt: 1,
        maxRetries: 2,
      });
    }
    const calls: Array<[string, Record<string, string>]> =
      turn % 3 === 0
        ? [
            ["Bash", { command: "git status -s" }],
            ["Read", { file_path: `/repo/src/f${turn}.ts` }],
          ]
        : turn % 7 === 0
          ? [["Bash", { command: "rm -rf build" }]]
          : [["Read", { file_path: `/repo/src/g${turn}.ts` }]];
    const owners: string[] = [];
    const message = {
      id,
      model: "claude-opus-5-5",
      role: "assistant",
      type: "message",
      content: [{ type: "text", text: "Looking at the next file to see how the tokens flow." }],
      stop_reason: "tool_use",
      usage: { input_tokens: 100, cache_read_input_tokens: 20000, output_tokens: 80 },
    };
    base("assistant").message = message;
    calls.forEach(([name, input], index) => {
      const use = base("assistant");
      use.message = {
        ...message,
        content: [{ type: "tool_use", id: `toolu_${turn}_${index}`, name, input }],
      };
      owners.push(use.uuid as string);
    });
    calls.forEach(([name], index) => {
      const result = base("user");
      result.sourceToolAssistantUUID = owners[index];
      const denied = name === "Bash" && turn % 7 === 0;
      const output = denied
        ? "PreToolUse:Bash hook error: denied"
        : name === "Bash"
          ? " M src/parser.ts\n?? notes.md"
          : `// file ${turn}\n${"export const x = 1;\n".repeat(turn % 5 === 0 ? 150 : 20)}`;
      result.message = {
        role: "user",
        content: [
          { tool_use_id: `toolu_${turn}_${index}`, type: "tool_result", content: output, is_error: denied },
        ],
      };
      if (denied)
        Object.assign(result, { toolDenialKind: "permission-rule", toolUseResult: `Error: ${output}` });
      else result.toolUseResult = { stdout: output.slice(0, 200), stderr: "", interrupted: false };
    });
    if (turn % 40 === 0) entries.push({ type: "cost-state", totalCostUSD: turn / 100, modelUsage: {} });
  }
  return entries.slice(0, count);
}

export interface StoreSize {
  entries: number;
  appendMs: number;
  appendEntriesPerSecond: number;
  replayEntriesPerSecond: number;
  rawLoadMs: number;
  loadRewriteColdMs: number;
  loadRewriteWarmMs: number;
  warmMsPerThousand: number;
  loadedEntries: number;
  charsSaved: number;
  peakRssMb: number;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

export async function measureSize(count: number): Promise<StoreSize> {
  const dir = mkdtempSync(join(tmpdir(), "flower-bench-store-"));
  try {
    const path = join(dir, "sessions.db");
    const entries = makeSession(count, "long") as unknown as SessionStoreEntry[];
    const key = { projectKey: "-repo", sessionId: "long" };
    const writer = new SqliteSessionStore({ path });
    const appendStart = performance.now();
    for (let i = 0; i < entries.length; i += BATCH) await writer.append(key, entries.slice(i, i + BATCH));
    const appendMs = performance.now() - appendStart;
    // Replaying batches (SDK retries, imports) must be cheap and add nothing.
    const replayed = Math.min(count, 10_000);
    const replayStart = performance.now();
    for (let i = 0; i < replayed; i += BATCH) await writer.append(key, entries.slice(i, i + BATCH));
    const replayMs = performance.now() - replayStart;
    const rawStart = performance.now();
    await writer.load(key);
    const rawLoadMs = performance.now() - rawStart;
    writer.close();

    let charsSaved = 0;
    const store = new PruningSessionStore({
      inner: new SqliteSessionStore({ path }),
      workspace: join(dir, "ws"),
      trim: new TrimPolicy(),
      locale: "en",
      onLoad: (_key, report) => (charsSaved = report.charsSaved),
    });
    const coldStart = performance.now();
    const loaded = await store.load(key);
    const coldMs = performance.now() - coldStart;
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      await store.load(key);
      warm.push(performance.now() - start);
    }
    await store.close();
    warm.sort((a, b) => a - b);
    const warmMs = warm[Math.floor(warm.length / 2)]!;
    return {
      entries: count,
      appendMs: round(appendMs),
      appendEntriesPerSecond: Math.round(count / (appendMs / 1000)),
      replayEntriesPerSecond: Math.round(replayed / (replayMs / 1000)),
      rawLoadMs: round(rawLoadMs),
      loadRewriteColdMs: round(coldMs),
      loadRewriteWarmMs: round(warmMs),
      warmMsPerThousand: round((warmMs / count) * 1000),
      loadedEntries: loaded?.length ?? 0,
      charsSaved,
      // maxRSS is in kilobytes and covers this process only: one size per process.
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs one size in a fresh node process, so its peak memory is not the bench's. */
export async function measureInChild(count: number): Promise<StoreSize> {
  const { stdout } = await run(process.execPath, [fileURLToPath(import.meta.url), String(count)], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as StoreSize;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const count = Number(process.argv[2] ?? "20000");
  if (!Number.isInteger(count) || count < 100)
    throw new Error(`store.js: entries must be an integer >= 100, got ${process.argv[2]}`);
  process.stdout.write(`${JSON.stringify(await measureSize(count))}\n`);
}
