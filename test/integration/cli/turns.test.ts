/**
 * One meaning of "turn" (issue 23, item 4): a turn is one model request of the step's main thread. The
 * demo's work step had 18 such requests while the SDK counted 94 (subagents' requests included); the report
 * said 18 and `flower runs`/`show` said 94. Here a record holds both numbers, and every view says the
 * main thread's: `runs`, `show <step>`, `show <run>`, `runs --json` and the report, in English and Chinese.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { newStepRecord, type GenerationRecord } from "../../../src/records/step-record.js";
import { useTempDirs } from "../../support/temp-dir.js";
import { cleanEnv, killAll, runFlower } from "../../e2e/cli/helpers.js";

const temp = useTempDirs();
afterEach(() => killAll());

function generation(number: number, sdkTurns: number, contexts: number[]): GenerationRecord {
  return {
    generation: number,
    sessionId: `s${number}`,
    startedAt: "2026-12-01T10:00:00.000Z",
    endedAt: "2026-12-01T10:05:00.000Z",
    costUsd: 0.1,
    numTurns: sdkTurns,
    context: contexts.at(-1)!,
    turns: contexts.map((context) => [context, 0, 0]),
    handoff: null,
  };
}

/** A work step of run `r1`: generation 1 made 8 main-thread requests (SDK: 46), generation 2 made 10 (SDK: 48). */
function recorded(): string {
  const runDir = join(temp.make("flower-turns-"), "runs");
  const records = new SqliteRunRecords(runDir);
  records.put({
    ...newStepRecord("r1/work", "coordinator", "generated prompt"),
    status: "done",
    run: "r1",
    workflow: { run: "r1", name: "work", task: "Write the summary" },
    numTurns: 94,
    generations: 2,
    history: [
      generation(1, 46, [9_000, 10_000, 11_000, 12_000, 13_000, 14_000, 15_000, 16_000]),
      generation(2, 48, [9_000, 10_000, 11_000, 12_000, 13_000, 14_000, 15_000, 16_000, 17_000, 18_000]),
    ],
  });
  records.close();
  return runDir;
}

const options = { env: cleanEnv(), timeoutMs: 20_000 };

describe.each([
  ["en", "turns"],
  ["zh", "轮"],
])("a turn is a main-thread request everywhere (%s)", (lang, word) => {
  it("runs, show and the report say 18 (8 + 10), never the SDK's 94", async () => {
    const runDir = recorded();
    const runs = await runFlower(["runs", "--run-dir", runDir, "--lang", lang], options);
    expect(runs.code).toBe(0);
    const rows = runs.stdout.split("\n").filter((line) => /^\s*(r1|work|r1\/work)\s/.test(line));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row).toMatch(/\s18\s/);
      expect(row).not.toMatch(/\b94\b/);
    }

    const json = await runFlower(["runs", "--run-dir", runDir, "--json"], options);
    expect(json.stdout).toContain('"numTurns":18');

    const step = await runFlower(["show", "r1/work", "--run-dir", runDir, "--lang", lang], options);
    expect(step.code).toBe(0);
    expect(step.stdout).toContain(`${word} 18`);
    // The task as the person typed it, not the prompt flower generated for the step.
    expect(step.stdout).toContain("Write the summary");
    expect(step.stdout).not.toContain("generated prompt");
    expect(step.stdout).toContain(`8 ${word}`);
    expect(step.stdout).toContain(`10 ${word}`);
    // Next to the word, not anywhere: the record's update time (now) may well read 01:46:48.
    expect(step.stdout).not.toMatch(new RegExp(`\\b(94|46|48) ${word}|${word} (94|46|48)\\b`));

    const run = await runFlower(["show", "r1", "--run-dir", runDir, "--lang", lang], options);
    expect(run.stdout).toContain(`${word} 18`);
    expect(run.stdout).toContain(`18 ${word}`);
    expect(run.stdout).not.toMatch(/\b94\b/);

    const out = join(runDir, "..", "report.html");
    const report = await runFlower(["report", "r1/work", "--run-dir", runDir, "--out", out], options);
    expect(report.code).toBe(0);
    const html = readFileSync(out, "utf8");
    expect(html).toMatch(/data-total="turns"><dt>[^<]*<\/dt><dd>18<\/dd>/);
    expect(html).toMatch(/<tr data-generation="1"><td>1<\/td><td class="number">8<\/td>/);
    expect(html).not.toMatch(/>94</);
  });
});
