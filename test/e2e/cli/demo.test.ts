import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { BIN, cleanEnv, killAll, removeTempDirs, runFlower, tempDir } from "./helpers.js";

afterEach(() => {
  killAll();
  removeTempDirs();
});

function hasScript(): boolean {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("flower demo", () => {
  it("runs offline with no key: delegation, glance, denial, spill, two handoffs; runs/show read it back", async () => {
    const workspace = join(tempDir(), "demo");
    // A hang guard, not a speed claim: the demo's wall time is ~10 s here.
    const run = await runFlower(["demo", "--keep", "--workspace", workspace], {
      env: cleanEnv(),
      timeoutMs: 55_000,
    });
    expect(run.timedOut).toBe(false);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const out = run.stdout;
    // A plain pipe: no escape codes at all.
    expect(out).not.toContain("\x1b");
    expect(out).toContain('coordinator · Bash git status -s && echo "--- LOG ---" && git log --oneline -3');
    expect(out).toMatch(/^x {2}denied Bash npm test/m);
    expect(out).toContain("-> analyst started");
    expect(out).toMatch(/Bash output of 108\.9K chars spilled -> .*\.flower\/spill\//);
    expect(out).toMatch(/^# context [\d.]+K\/60K · about [\d.]+K until handoff$/m);
    expect(out.match(/— writing the handoff, new session next/g)).toHaveLength(2);
    expect(out.match(/^ {2}- doing {6}/gm)).toHaveLength(2);
    expect(out.match(/^ {2}- next {7}/gm)).toHaveLength(2);
    expect(out.match(/^<- new session takes over, context restarts from [\d.]+K$/gm)).toHaveLength(2);
    expect(out).toMatch(/demo finished: 2 handoffs, 3 generations/);

    const notes = join(workspace, ".flower", "notes");
    const current = join(notes, "handoff-demo.md");
    expect(out).toContain(`<- handoff written to ${current}`);
    expect(readFileSync(current, "utf8")).toContain(".flower/scripts/check-summary.sh");
    const archived = readdirSync(join(notes, "archive", "handoff"));
    expect(archived).toHaveLength(1);
    expect(readFileSync(join(notes, "archive", "handoff", archived[0]!), "utf8")).toContain(
      "docs/notes-01.md",
    );
    expect(existsSync(join(workspace, ".flower", "artifacts", "notes-summary.md"))).toBe(true);

    const runDir = join(workspace, "runs");
    const record = JSON.parse(readFileSync(join(runDir, "manifest.json"), "utf8")).steps.demo;
    expect(record.status).toBe("done");
    expect(record.retired).toHaveLength(2);
    expect(record.degraded).toBe(0);
    expect(record.denials).toBe(1);
    expect(record.spills).toBeGreaterThanOrEqual(1);

    const runs = await runFlower(["runs", "--run-dir", runDir], { env: cleanEnv(), timeoutMs: 15_000 });
    expect(runs.code).toBe(0);
    expect(runs.stdout).toMatch(/^STEP\s+STATUS\s+GEN\s+COST\s+TURNS\s+UPDATED$/m);
    expect(runs.stdout).toMatch(/^demo\s+done\s+3\s+\$\d+\.\d{4}\s+\d+\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/m);

    const show = await runFlower(["show", "demo", "--run-dir", runDir], {
      env: cleanEnv(),
      timeoutMs: 15_000,
    });
    expect(show.code).toBe(0);
    for (const session of [...record.retired, record.sessionId]) expect(show.stdout).toContain(session);
    // Generation 1's file moved to the archive when generation 2 handed off; the record followed it.
    expect(show.stdout).toContain(`-> handed off: ${join(notes, "archive", "handoff", archived[0]!)} · ok`);
    expect(show.stdout).toContain(`-> handed off: ${current} · ok`);
    expect(show.stdout).toContain(`current handoff  ${current}`);
    expect(show.stdout).toContain(join(notes, "archive", "handoff", archived[0]!));
    expect(show.stdout).toMatch(/^ {2}- doing {6}Finishing the survey/m);
    expect(show.stdout).toMatch(/^ {2}- scene {6}`\.flower\/artifacts\/notes-summary\.md`/m);

    // Retention: the sessions go, the record stays.
    const forget = await runFlower(["forget", "demo", "--run-dir", runDir], {
      env: cleanEnv(),
      timeoutMs: 15_000,
    });
    expect(forget.stdout).toBe(`deleted 3 sessions of "demo" from ${join(runDir, "sessions.db")}\n`);
    const db = new Database(join(runDir, "sessions.db"), { readonly: true });
    expect(db.prepare("SELECT count(*) AS n FROM transcripts").get()).toEqual({ n: 0 });
    db.close();
    const again = await runFlower(["show", "demo", "--run-dir", runDir], {
      env: cleanEnv(),
      timeoutMs: 15_000,
    });
    expect(again.stdout).toContain(record.sessionId);
  }, 80_000);

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
    const workspace = join(tempDir(), "tty");
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
