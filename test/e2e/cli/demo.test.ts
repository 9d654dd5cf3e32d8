import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useTempDirs } from "../../support/temp-dir.js";
import { BIN, cleanEnv, killAll, runFlower, type Finished } from "./helpers.js";

const temp = useTempDirs();
afterEach(() => {
  killAll();
});

function hasScript(): boolean {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

interface DemoRun {
  workspace: string;
  runDir: string;
  notes: string;
  demo: Finished;
  runs?: Finished;
  show?: Finished;
  report?: Finished;
  forget?: Finished;
  showAfterForget?: Finished;
  transcriptsAfterForget?: unknown;
}

/** The manifest's record of the demo step. */
function demoRecord(runDir: string) {
  return JSON.parse(readFileSync(join(runDir, "manifest.json"), "utf8")).steps.demo as {
    status: string;
    retired: string[];
    degraded: number;
    denials: number;
    spills: number;
    sessionId: string;
  };
}

describe("flower demo --keep, run once; each property its own test", () => {
  let run: DemoRun;

  beforeAll(async () => {
    const workspace = join(temp.make("flower-cli-"), "demo");
    const runDir = join(workspace, "runs");
    // A hang guard, not a speed claim: the demo's wall time is ~10 s here.
    const demo = await runFlower(["demo", "--keep", "--workspace", workspace], {
      env: cleanEnv(),
      timeoutMs: 55_000,
    });
    run = { workspace, runDir, notes: join(workspace, ".flower", "notes"), demo };
    if (demo.code !== 0) return;
    const options = { env: cleanEnv(), timeoutMs: 15_000 };
    run.runs = await runFlower(["runs", "--run-dir", runDir], options);
    run.show = await runFlower(["show", "demo", "--run-dir", runDir], options);
    run.report = await runFlower(["report", "demo", "--run-dir", runDir], options);
    // Retention: the sessions go, the record stays.
    run.forget = await runFlower(["forget", "demo", "--run-dir", runDir], options);
    const db = new Database(join(runDir, "sessions.db"), { readonly: true });
    run.transcriptsAfterForget = db.prepare("SELECT count(*) AS n FROM transcripts").get();
    db.close();
    run.showAfterForget = await runFlower(["show", "demo", "--run-dir", runDir], options);
  }, 150_000);

  it("runs offline with no key and exits 0 with nothing on stderr", () => {
    expect(run.demo.timedOut).toBe(false);
    expect(run.demo.stderr).toBe("");
    expect(run.demo.code).toBe(0);
  });

  it("writes no escape codes to a plain pipe", () => {
    expect(run.demo.stdout).not.toContain("\x1b");
  });

  it("shows the coordinator's glance and the denied npm test", () => {
    const out = run.demo.stdout;
    expect(out).toContain('coordinator · Bash git status -s && echo "--- LOG ---" && git log --oneline -3');
    expect(out).toMatch(/^x {2}denied Bash npm test/m);
  });

  it("shows the analyst starting and its long Bash output spilled to disk", () => {
    expect(run.demo.stdout).toContain("-> analyst started");
    expect(run.demo.stdout).toMatch(/Bash output of 108\.9K chars spilled -> .*\.flower\/spill\//);
  });

  it("shows the context gauge against the demo's 60K window", () => {
    expect(run.demo.stdout).toMatch(/^# context [\d.]+K\/60K · about [\d.]+K until handoff$/m);
  });

  it("hands off twice, each with a doing/next summary and a fresh session", () => {
    const out = run.demo.stdout;
    expect(out.match(/— writing the handoff, new session next/g)).toHaveLength(2);
    expect(out.match(/^ {2}- doing {6}/gm)).toHaveLength(2);
    expect(out.match(/^ {2}- next {7}/gm)).toHaveLength(2);
    expect(out.match(/^<- new session takes over, context restarts from [\d.]+K$/gm)).toHaveLength(2);
    expect(out).toMatch(/demo finished: 2 handoffs, 3 generations/);
  });

  it("freezes the current handoff in .flower/notes and archives the first generation's", () => {
    const current = join(run.notes, "handoff-demo.md");
    expect(run.demo.stdout).toContain(`<- handoff written to ${current}`);
    expect(readFileSync(current, "utf8")).toContain(".flower/scripts/check-summary.sh");
    const archived = readdirSync(join(run.notes, "archive", "handoff"));
    expect(archived).toHaveLength(1);
    expect(readFileSync(join(run.notes, "archive", "handoff", archived[0]!), "utf8")).toContain(
      "docs/notes-01.md",
    );
  });

  it("leaves the worker's artifact in the workbench", () => {
    expect(existsSync(join(run.workspace, ".flower", "artifacts", "notes-summary.md"))).toBe(true);
  });

  it("records the step: done, two retired sessions, none degraded, one denial, a spill", () => {
    const record = demoRecord(run.runDir);
    expect(record.status).toBe("done");
    expect(record.retired).toHaveLength(2);
    expect(record.degraded).toBe(0);
    expect(record.denials).toBe(1);
    expect(record.spills).toBeGreaterThanOrEqual(1);
  });

  it("`flower runs` lists the step with three generations and its cost", () => {
    expect(run.runs?.code).toBe(0);
    expect(run.runs?.stdout).toMatch(/^STEP\s+STATUS\s+GEN\s+COST\s+TURNS\s+UPDATED\s+HELD BY$/m);
    // A finished step is held by nobody.
    expect(run.runs?.stdout).toMatch(
      /^demo\s+done\s+3\s+\$\d+\.\d{4}\s+\d+\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+-$/m,
    );
  });

  it("`flower show` lists every session and both handoffs, following the archived one", () => {
    const record = demoRecord(run.runDir);
    const current = join(run.notes, "handoff-demo.md");
    const archived = join(
      run.notes,
      "archive",
      "handoff",
      readdirSync(join(run.notes, "archive", "handoff"))[0]!,
    );
    const show = run.show?.stdout ?? "";
    expect(run.show?.code).toBe(0);
    for (const session of [...record.retired, record.sessionId]) expect(show).toContain(session);
    // Generation 1's file moved to the archive when generation 2 handed off; the record followed it.
    expect(show).toContain(`-> handed off: ${archived} · ok`);
    expect(show).toContain(`-> handed off: ${current} · ok`);
    expect(show).toContain(`current handoff  ${current}`);
    expect(show).toContain(archived);
    expect(show).toMatch(/^ {2}- doing {6}Finishing the survey/m);
    expect(show).toMatch(/^ {2}- scene {6}`\.flower\/artifacts\/notes-summary\.md`/m);
  });

  it("`flower show` draws the context per turn as a sparkline with both handoffs marked", () => {
    const line = (run.show?.stdout ?? "").split("\n").find((l) => l.startsWith("context "));
    expect(line).toBeDefined();
    const spark = line!.replace(/^context\s+/, "");
    expect(spark.split("│")).toHaveLength(3);
    expect(spark).toMatch(/^[▁▂▃▄▅▆▇█│]+$/);
  });

  it("`flower report` writes one self-contained HTML file with a point per main-thread turn", () => {
    expect(run.report?.code).toBe(0);
    const path = run.report!.stdout.trim();
    expect(path).toBe(join(run.runDir, "report-demo.html"));
    const html = readFileSync(path, "utf8");
    const record = JSON.parse(readFileSync(join(run.runDir, "manifest.json"), "utf8")).steps.demo as {
      history: Array<{ turns: unknown[] }>;
    };
    const turns = record.history.reduce((sum, generation) => sum + generation.turns.length, 0);
    expect(turns).toBeGreaterThan(5);
    expect(html.match(/data-context=/g)).toHaveLength(turns);
    expect(html.match(/data-handoff=/g)).toHaveLength(2);
    // Nothing to fetch and nothing to run: no script, no external resource.
    expect(html).not.toMatch(/<script|src="https?:|href="https?:/);
  });

  it("`flower forget` deletes the step's sessions and keeps its record", () => {
    expect(run.forget?.stdout).toBe(`deleted 3 sessions of "demo" from ${join(run.runDir, "sessions.db")}\n`);
    expect(run.transcriptsAfterForget).toEqual({ n: 0 });
    expect(run.showAfterForget?.stdout).toContain(demoRecord(run.runDir).sessionId);
  });
});

describe("flower demo, other ways to run it", () => {
  it("removes its temporary workspace unless --keep, and speaks zh with --lang zh", async () => {
    const run = await runFlower(["demo", "--lang", "zh", "--json"], { env: cleanEnv(), timeoutMs: 55_000 });
    expect(run.code).toBe(0);
    const events = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; phase?: string; path?: string });
    const done = events.filter((event) => event.type === "handoff" && event.phase === "done");
    expect(done).toHaveLength(2);
    expect(done[0]!.path).toMatch(/\/\.flower\/notes\/交接-demo\.md$/);
    expect(events.at(-1)).toMatchObject({ type: "result", status: "done" });
    // Human lines went to stderr, including where the workspace was and that it is gone.
    const removed = /工作区已删除: (\S+)/.exec(run.stderr)?.[1];
    expect(removed).toBeTruthy();
    expect(existsSync(removed!)).toBe(false);
  }, 80_000);

  it("on a TTY (under `script`) the gauge is redrawn in place", async () => {
    expect(hasScript(), "util-linux `script` is needed for the pseudo-terminal test").toBe(true);
    const workspace = join(temp.make("flower-cli-"), "tty");
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} demo --workspace ${JSON.stringify(workspace)}`;
    const run = await runFlower([], {
      command: "script",
      commandArgs: ["-q", "-e", "-c", command, "/dev/null"],
      env: cleanEnv({ TERM: "xterm" }),
      timeoutMs: 55_000,
    });
    expect(run.code).toBe(0);
    // eslint-disable-next-line no-control-regex -- the escape sequence is what this test looks for
    const redraws = run.stdout.match(/\r\x1b\[2K# context [\d.]+K\/60K/g) ?? [];
    expect(redraws.length).toBeGreaterThan(5);
    // The permanent lines are still there, printed above the status line.
    expect(run.stdout).toContain("<- new session takes over");
  }, 80_000);
});
