/**
 * `npm run bench -- --live` in CI, where there is no key: the live bench's own entry (bench/live/
 * bench-main.ts, what `--live` runs) against the offline kit, at the bench's small window, with a
 * scripted model that works each task as a careful real one does — reads the files one at a time, keeps
 * track of what it has read through a compaction summary or a handoff, then makes the change. Both modes
 * of every task run through the real binary: the auto-compact runs compact, the handoff runs hand off,
 * the goal's checks decide success, the tokens are the binary's own totals, and the results land under
 * `live` in the results file with the model and the date, the rest of the file kept. No figure of a real
 * model comes from here (bench/README.md says whose they are). Without a key: one line, exit 0, nothing
 * written.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { liveBenchMain } from "../../bench/live/bench-main.js";
import type { LiveBenchResults } from "../../bench/live/live-bench.js";
import { LIVE_TASKS, type LiveTask } from "../../bench/live/tasks.js";
import { text, toolUse, type ModelRequest, type Reply } from "../../src/testing/index.js";
import { handoffMarkdown } from "../support/handoff-fixture.js";
import { useModels } from "./sdk-session.js";

const startModel = useModels();
const WINDOW = 50_000;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Where the scripted model's answers lie: it knows them, and puts each in place with one short command. */
let solutions = "";
beforeAll(() => {
  solutions = mkdtempSync(join(tmpdir(), "flower-live-bench-solutions-"));
  for (const task of LIVE_TASKS)
    for (const [file, content] of Object.entries(task.solution)) {
      mkdirSync(dirname(join(solutions, task.name, file)), { recursive: true });
      writeFileSync(join(solutions, task.name, file), content);
    }
});
afterAll(() => rmSync(solutions, { recursive: true, force: true }));

/** What this conversation has done: its own calls, and what a summary or a handoff says was done. */
function doneSoFar(request: ModelRequest, files: readonly string[], what: "read" | "changed"): string[] {
  const named =
    request
      .allText()
      .match(new RegExp(`${what} so far: [^\\n]*`, "g"))
      ?.join(" ") ?? "";
  const calls = request
    .toolCalls()
    .flatMap((call) =>
      what === "read" && call.name === "Read"
        ? [String(call.input.file_path)]
        : what === "changed" && call.name === "Bash"
          ? [String(call.input.command).split(" ").at(-1)!]
          : [],
    );
  return files.filter((file) => calls.includes(file) || named.includes(file));
}

function taskOf(request: ModelRequest): LiveTask {
  const all = request.allText();
  // The task's prompt; a successor has the handoff instead, which names what the task is about.
  const task = LIVE_TASKS.find(
    (candidate) => all.includes(candidate.prompt.slice(0, 60)) || all.includes(candidate.about),
  );
  if (!task) throw new Error(`no live task in ${JSON.stringify(request.firstUserText().slice(0, 120))}`);
  return task;
}

/** A careful model: one file per reply, what it has read carried through a compaction or a handoff. */
function carefulModel(request: ModelRequest): Reply | undefined {
  if (request.kind === "title") return undefined;
  const task = taskOf(request);
  const read = doneSoFar(request, task.reading, "read");
  const changed = doneSoFar(request, Object.keys(task.solution), "changed");
  const remaining = task.reading.filter((file) => !read.includes(file));
  const progress = `read so far: ${read.join(", ")}\nchanged so far: ${changed.join(", ")}\n`;
  if (request.kind === "compact")
    return text(`<summary>Working on: ${task.about}.\n${progress}Next: the rest, then the change.</summary>`);
  if (request.isHandoffTurn)
    return text(
      handoffMarkdown({
        doing: `${task.about}.\n${progress}`,
        decided: ["One file per reply, in the prompt's order."],
        deadends: "(empty)",
        next: [`Read ${remaining.join(", ") || "nothing more"}, then make the change.`],
        scene: task.reading.map((file) => `\`${file}\` — one of the task's files`),
      }),
    );
  if (remaining.length > 0) return toolUse("Read", { file_path: remaining[0]! });
  const next = Object.keys(task.solution).find((file) => !changed.includes(file));
  if (next) return toolUse("Bash", { command: `cp ${join(solutions, task.name, next)} ${next}` });
  return text("Done: the change is made.");
}

function resultsCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "flower-live-bench-"));
  dirs.push(dir);
  const file = join(dir, "results.json");
  copyFileSync(resolve(import.meta.dirname, "..", "..", "bench", "results.json"), file);
  return file;
}

describe("npm run bench -- --live, against the offline kit", () => {
  it("runs every task with auto-compact and with handoff; the checks decide; the results keep model and date", async () => {
    const model = await startModel({ policy: carefulModel, contextWindow: WINDOW });
    const file = resultsCopy();
    const before = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const lines: string[] = [];
    const code = await liveBenchMain(["--live", "--window", String(WINDOW), "--model", "haiku"], {
      env: { ANTHROPIC_API_KEY: model.env().ANTHROPIC_API_KEY! },
      childEnv: model.env(),
      out: (line) => lines.push(line),
      resultsFile: file,
    });
    expect(code, lines.join("\n")).toBe(0);
    const after = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown> & {
      live: LiveBenchResults;
    };
    const live = after.live;
    expect(live).toMatchObject({ model: "haiku", window: WINDOW, handoffAt: 25_000 });
    expect(Date.now() - Date.parse(live.date)).toBeLessThan(3_600_000);
    // Everything else of the results file is as it was.
    expect({ ...after, live: undefined }).toEqual({ ...before, live: undefined });

    expect(live.runs.map((run) => `${run.task}/${run.mode}`)).toEqual(
      LIVE_TASKS.flatMap((task) => [`${task.name}/auto-compact`, `${task.name}/handoff`]),
    );
    for (const run of live.runs) {
      expect(run.success, `${run.task}/${run.mode}: ${run.status}`).toBe(true);
      expect(run.tokens.input + run.tokens.cacheRead + run.tokens.cacheWrite).toBeGreaterThan(0);
      expect(run.usd).toBeGreaterThan(0);
      // Each mode did what it is there to measure, and only that.
      if (run.mode === "handoff") expect(run.compactions).toBe(0);
      if (run.mode === "auto-compact") expect(run.generations).toBe(1);
    }
    expect(live.runs.some((run) => run.mode === "handoff" && run.generations >= 2)).toBe(true);
    expect(live.runs.some((run) => run.mode === "auto-compact" && run.compactions >= 1)).toBe(true);
    // The table, side by side: a header, a rule, a row per task and mode.
    const header = lines.findIndex((line) => line.startsWith("| task "));
    expect(header).toBeGreaterThan(0);
    expect(lines[header]).toMatch(
      /\| success \| input \| cache read \| cache write \| output \| \$ +\| wall s \| generations \| compactions \|/,
    );
    expect(lines.slice(header + 2, header + 8)).toHaveLength(6);
    expect(lines[0]).toMatch(
      /^flower live bench: 3 task\(s\) × auto-compact and handoff, model haiku, window 50000: it will spend at most about \$4\.50/,
    );
    model.assertNoErrors();
  }, 300_000);

  it("without a key: one line, exit 0, nothing measured and nothing written", async () => {
    const file = resultsCopy();
    const before = readFileSync(file, "utf8");
    const lines: string[] = [];
    const env = {
      PATH: process.env.PATH,
      HOME: "/nonexistent-home",
      CLAUDE_CONFIG_DIR: "/nonexistent-config",
    };
    expect(await liveBenchMain(["--live"], { env, out: (line) => lines.push(line), resultsFile: file })).toBe(
      0,
    );
    expect(lines).toEqual([
      "flower live bench: skipped: no key (set ANTHROPIC_API_KEY, or a provider's variables as for flower itself; nothing was run)",
    ]);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(
      await liveBenchMain(["--live", "--window", "0"], {
        env,
        out: (line) => lines.push(line),
        resultsFile: file,
      }),
    ).toBe(2);
    expect(lines.at(-1)).toBe("flower live bench: --window must be a positive integer, got 0");
  });
});
