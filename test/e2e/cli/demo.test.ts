import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { demoTask } from "../../../src/testing/scenarios/demo/index.js";
import {
  expectReadablePage,
  screenshot,
  useReportBrowser,
  WIDTHS,
  type ElementLike,
} from "../../support/report-page.js";
import { reportOf } from "../../support/run-reports.js";
import { copyRunDir, sharedDemo, SHARED_DEMO_WAIT_MS } from "../../support/shared-demo.js";
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
  /** The shared demo's workspace: read, never written. */
  workspace: string;
  /** This file's copy of the demo's run directory. */
  runDir: string;
  notes: string;
  demo: Finished;
  runs?: Finished;
  show?: Finished;
  showRun?: Finished;
  report?: Finished;
  /** `flower report demo` (the whole run's page), per language. */
  runReports?: Record<string, string>;
  forget?: Finished;
  showAfterForget?: Finished;
  transcriptsAfterForget?: unknown;
}

/** The work step's handoff file: `handoff-<step>.md`, the step `demo/work` made file-name safe. */
const HANDOFF_FILE = "handoff-demo_work.md";

/** The manifest's record of the demo's work step. */
function demoRecord(runDir: string) {
  return JSON.parse(readFileSync(join(runDir, "manifest.json"), "utf8")).steps["demo/work"] as {
    status: string;
    retired: string[];
    degraded: number;
    denials: number;
    spills: number;
    sessionId: string;
  };
}

/**
 * The first describe reads the run's one shared demo (`flower demo --keep`, recorded in the background by
 * test/support/shared-demo-global-setup.ts with the telemetry receiver on, which test/e2e/cli/
 * serve-browser.test.ts and telemetry-demo.test.ts read too): a demo costs eight real `claude` sessions,
 * and everything here reads the finished run. `flower forget` and the reports write to the run
 * directory, so they run on this file's copy of it. The second describe needs a demo of its own: on a
 * terminal, in zh, without --keep.
 */
describe("flower demo --keep (the shared demo); each property its own test", () => {
  let run: DemoRun;

  beforeAll(async () => {
    const shared = await sharedDemo();
    const runDir = copyRunDir(shared, temp.make("flower-cli-"));
    run = { workspace: shared.workspace, runDir, notes: shared.notes, demo: shared.finished };
    if (run.demo.code !== 0) return;
    const options = { env: cleanEnv(), timeoutMs: 15_000 };
    run.runs = await runFlower(["runs", "--run-dir", runDir], options);
    run.show = await runFlower(["show", "demo/work", "--run-dir", runDir], options);
    run.showRun = await runFlower(["show", "demo", "--run-dir", runDir], options);
    run.report = await runFlower(["report", "demo/work", "--run-dir", runDir], options);
    const recorded = { run: "demo", runDir, workspace: run.workspace };
    run.runReports = { en: await reportOf(recorded, "en"), zh: await reportOf(recorded, "zh") };
    // Retention: the sessions go, the record stays.
    run.forget = await runFlower(["forget", "demo/work", "--run-dir", runDir], options);
    const db = new Database(join(runDir, "sessions.db"), { readonly: true });
    run.transcriptsAfterForget = db
      .prepare("SELECT DISTINCT session_id AS id FROM transcripts ORDER BY id")
      .all()
      .map((row) => (row as { id: string }).id);
    db.close();
    run.showAfterForget = await runFlower(["show", "demo/work", "--run-dir", runDir], options);
  }, SHARED_DEMO_WAIT_MS + 120_000);

  it("runs offline with no key and exits 0 with nothing on stderr", () => {
    expect(run.demo.timedOut).toBe(false);
    expect(run.demo.stderr).toBe("");
    expect(run.demo.code).toBe(0);
  });

  it("writes no escape codes to a plain pipe", () => {
    expect(run.demo.stdout).not.toContain("\x1b");
  });

  it("runs requirements → goal → work, naming the active step", () => {
    const out = run.demo.stdout;
    const starts = ["== step 1/3 · requirements", "== step 2/3 · goal", "== step 3/3 · work"].map((line) =>
      out.indexOf(`${line}\n`),
    );
    expect(starts.every((at) => at >= 0)).toBe(true);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    // After the pause the frozen requirements step is skipped, not redone.
    expect(out).toContain("== step 1/3 · requirements · already done, not redone");
    expect(out.match(/^=> start demo\/requirements$/gm)).toHaveLength(1);
  });

  it("freezes the requirements, shows their sections, pauses with the open question, and edits one line", () => {
    const out = run.demo.stdout;
    const requirements = join(run.notes, "requirements-demo.md");
    expect(out).toContain(`<- Requirements confirmation frozen to:\n   ${requirements}\n`);
    expect(out).toMatch(/^ {2}- Acceptance {6}\.flower\/artifacts\/notes-summary\.md exists/m);
    expect(out).toContain("Paused after the requirements step.");
    expect(out).toContain("    - Should the table also list each note's measurement run id (HT0…)?");
    expect(out).toMatch(
      /^demo: playing the person at the pause — changing line \d+ of .*requirements-demo\.md:$/m,
    );
    const file = readFileSync(requirements, "utf8");
    expect(file).toContain("(confirmed by a person: no run ids)");
    expect(file).not.toContain("- The table has two columns: note number and topic.\n");
  });

  it("the goal step read the edited file: its frozen constraints quote the changed line", () => {
    const goal = join(run.notes, "goal-demo.md");
    expect(run.demo.stdout).toContain(`<- Goal frozen to:\n   ${goal}\n`);
    expect(run.demo.stdout).toMatch(
      /^ {2}- Constraints {2}From the requirements: The table has two columns: note number and topic \(confirmed by a person: no run ids\)/m,
    );
    expect(readFileSync(goal, "utf8")).toContain("(confirmed by a person: no run ids)");
  });

  it("shows the coordinator's glance and the denied npm test", () => {
    const out = run.demo.stdout;
    expect(out).toContain('coordinator · Bash git status -s && echo "--- LOG ---" && git log --oneline -3');
    expect(out).toMatch(/^x {2}denied Bash npm test/m);
  });

  it("shows the analyst starting and its long Bash output spilled to disk", () => {
    expect(run.demo.stdout).toContain("-> analyst started");
    // The path is never cut: it has a line of its own under the one that names it.
    expect(run.demo.stdout).toMatch(
      /Bash output of 108\.9K chars spilled to:\n {6}\S*\.flower\/spill\/\S+$/m,
    );
  });

  it("shows the context gauge against the demo's 60K window", () => {
    expect(run.demo.stdout).toMatch(/^# context [\d.]+K\/60K · about [\d.]+K until handoff$/m);
  });

  it("the goal guard sends the claimed success back once: a check fails, a subagent fixes it, the checks pass", () => {
    const out = run.demo.stdout;
    const failing = out.indexOf("!! goal checks: 1 of 3 failing\n");
    const round = out.indexOf(">> guard round 1/3 · 1 of 3 checks failing — sent back with the evidence\n");
    const passing = out.indexOf("ok goal checks: all 3 pass\n");
    expect(failing).toBeGreaterThan(0);
    expect(round).toBeGreaterThan(failing);
    expect(passing).toBeGreaterThan(round);
    expect(out).toMatch(
      /^ {3}x 2\. grep -c '\^\. \[0-9\]' \.flower\/artifacts\/notes-summary\.md — output does not match \/\^90\$\/; log:\n {6}\S*goal-check-2\.run-1\.log$/m,
    );
    const guard = JSON.parse(readFileSync(join(run.runDir, "manifest.json"), "utf8")).steps["demo/work"]
      .guard;
    expect(guard).toMatchObject({ rounds: 1, outcome: "passed" });
    expect(guard.checkRuns.map((checks: { passed: boolean }) => checks.passed)).toEqual([false, true]);
    expect(
      readFileSync(join(run.workspace, ".flower", "artifacts", "notes-summary.md"), "utf8").match(/^\| \d/gm),
    ).toHaveLength(90);
  });

  it("hands off twice, each with a doing/next summary and a fresh session", () => {
    const out = run.demo.stdout;
    expect(out.match(/— writing the handoff for the next session/g)).toHaveLength(2);
    expect(out.match(/^ {2}- doing {6}/gm)).toHaveLength(2);
    expect(out.match(/^ {2}- next {7}/gm)).toHaveLength(2);
    expect(out.match(/^<- new session starts from the handoff, not from [\d.]+K$/gm)).toHaveLength(2);
    expect(out).toMatch(/demo finished: 2 handoffs, 3 generations/);
  });

  it("freezes the current handoff in .flower/notes and archives the first generation's", () => {
    const current = join(run.notes, HANDOFF_FILE);
    expect(run.demo.stdout).toContain(`<- handoff written to:\n   ${current}\n`);
    expect(readFileSync(current, "utf8")).toContain(".flower/scripts/check-summary.sh");
    const archived = readdirSync(join(run.notes, "archive", "handoff"));
    expect(archived).toHaveLength(1);
    expect(readFileSync(join(run.notes, "archive", "handoff", archived[0]!), "utf8")).toContain(
      "docs/notes-01.md",
    );
  });

  it("leaves the subagent's artifact in the workbench", () => {
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

  it("`flower runs` lists the run, then its three steps under it; the work step with three generations", () => {
    expect(run.runs?.code).toBe(0);
    expect(run.runs?.stdout).toMatch(/^STEP\s+STATUS\s+GEN\s+COST\s+TURNS\s+UPDATED\s+HELD BY$/m);
    const lines = (run.runs?.stdout ?? "").split("\n");
    const at = lines.findIndex((line) => /^demo\s+done\s+\$\d+\.\d{4}\s+\d+\s/.test(line));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(/^ {2}requirements\s+done\s+1\s/);
    expect(lines[at + 2]).toMatch(/^ {2}goal\s+done\s+1\s/);
    // A finished step is held by nobody.
    expect(lines[at + 3]).toMatch(
      /^ {2}work\s+done\s+3\s+\$\d+\.\d{4}\s+\d+\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+-$/,
    );
  });

  it("`flower show demo` shows the run's steps and both frozen documents as they are on disk", () => {
    const show = run.showRun?.stdout ?? "";
    expect(run.showRun?.code).toBe(0);
    expect(show).toMatch(/^ {2}3 {2}work {10}done · \$\d+\.\d{4} · \d+ turns · generations 3$/m);
    expect(show).toContain(
      `frozen Requirements confirmation  ${join(run.notes, "requirements-demo.md")} · changed on disk after it was frozen`,
    );
    expect(show).toMatch(
      /^ {2}- Assumptions {5}The table has two columns: note number and topic \(confirmed/m,
    );
    expect(show).toContain(`frozen Goal  ${join(run.notes, "goal-demo.md")}`);
    expect(show).toMatch(/^ {2}- Checks {7}`test -s \.flower\/artifacts\/notes-summary\.md` exits 0/m);
  });

  it("`flower show demo/work` lists every session and both handoffs, following the archived one", () => {
    const record = demoRecord(run.runDir);
    const current = join(run.notes, HANDOFF_FILE);
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
    expect(path).toBe(join(run.runDir, "report-demo_work.html"));
    const html = readFileSync(path, "utf8");
    const record = JSON.parse(readFileSync(join(run.runDir, "manifest.json"), "utf8")).steps["demo/work"] as {
      history: Array<{ turns: unknown[] }>;
    };
    const turns = record.history.reduce((sum, generation) => sum + generation.turns.length, 0);
    expect(turns).toBeGreaterThan(5);
    expect(html.match(/data-context=/g)).toHaveLength(turns);
    expect(html.match(/data-handoff=/g)).toHaveLength(2);
    // Nothing to fetch and nothing to run: no script, no external resource.
    expect(html).not.toMatch(/<script|src="https?:|href="https?:/);
  });

  describe.each([
    ["en", "Task", "done"],
    ["zh", "任务", "done"],
  ])("`flower report demo` in Chromium (%s)", (lang, taskLabel, done) => {
    const browser = useReportBrowser();
    afterAll(() => browser.close());

    it.each(WIDTHS)(
      "at %i px: task as typed, steps in order, documents, checks",
      async (width) => {
        const { page, problems } = await browser.open(run.runReports![lang]!, width);
        try {
          await expect(page.locator("section.run .task .label").textContent()).resolves.toBe(taskLabel);
          expect(await page.locator("section.run .task .typed").textContent()).toBe(
            // The demo ran in English: the task is as it was typed, whatever language the page speaks.
            demoTask("en"),
          );
          const steps = await page
            .locator("ol.run-steps li")
            .evaluateAll((items: ElementLike[]) =>
              items.map((item) => `${item.getAttribute("data-step")}:${item.getAttribute("data-status")}`),
            );
          expect(steps).toEqual([`demo/requirements:${done}`, `demo/goal:${done}`, `demo/work:${done}`]);
          // Both documents, each with its sections; the demo's person edited the requirements file.
          expect(await page.locator("section.document").count()).toBe(2);
          expect(await page.locator("section.document").first().locator("dt").count()).toBeGreaterThan(2);
          expect(await page.locator("section.document").first().locator("p.note").count()).toBe(1);
          // The requirements as the goal step read them: the person's line, its section marked (the page
          // showed the text as first frozen while the goal step had read the edit).
          const changed = page.locator("section.document").first().locator("[data-changed]");
          expect(await changed.count()).toBe(1);
          expect(await changed.locator("dd").textContent()).toContain("(confirmed by a person: no run ids)");
          expect(await changed.locator("dt").textContent()).toMatch(
            lang === "en" ? /changed after it was frozen$/ : /冻结后改过$/,
          );
          expect(await page.locator("section.document").nth(1).locator("[data-changed]").count()).toBe(0);
          // The goal's checks, run by run: the demo's first run fails one check, the last passes all.
          const cells = page.locator("table.goal-checks td[data-passed]");
          expect(await cells.count()).toBeGreaterThan(3);
          expect(await page.locator("table.goal-checks td.failed").count()).toBeGreaterThan(0);
          for (const href of await page
            .locator("table.goal-checks td a")
            .evaluateAll((links: ElementLike[]) => links.map((link) => link.getAttribute("href")!))) {
            const file = fileURLToPath(new URL(href, page.url()));
            expect(existsSync(file), file).toBe(true);
          }
          // Then each step's chart: the work step's turns are the main thread's, as in `flower show`.
          expect(await page.locator("section.step").count()).toBe(3);
          await expectReadablePage(page, width);
          if (lang === "en") await screenshot(page, `report-demo-${width}.png`);
          expect(problems).toEqual([]);
        } finally {
          await page.close();
        }
      },
      120_000,
    );
  });

  it("`flower forget` deletes the step's sessions and keeps its record", () => {
    expect(run.forget?.stdout).toBe(
      `deleted 3 sessions of "demo/work" from ${join(run.runDir, "sessions.db")}\n`,
    );
    // Only the two document steps' sessions are left: forget took the one step it was named.
    const steps = JSON.parse(readFileSync(join(run.runDir, "manifest.json"), "utf8")).steps as Record<
      string,
      { sessionId: string }
    >;
    expect(run.transcriptsAfterForget).toEqual(
      [steps["demo/requirements"]!.sessionId, steps["demo/goal"]!.sessionId].sort(),
    );
    expect(run.showAfterForget?.stdout).toContain(demoRecord(run.runDir).sessionId);
  });
});

describe("flower demo on a TTY (under `script`), in zh, without --keep: run once", () => {
  // One demo serves all three: stdout and stderr are both the terminal, so every line lands in `stdout`.
  let run: Finished;
  let lines: string[];
  beforeAll(async () => {
    expect(hasScript(), "util-linux `script` is needed for the pseudo-terminal test").toBe(true);
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} demo --lang zh`;
    run = await runFlower([], {
      command: "script",
      commandArgs: ["-q", "-e", "-c", command, "/dev/null"],
      env: cleanEnv({ TERM: "xterm" }),
      timeoutMs: 150_000,
    });
    lines = run.stdout.split(/\r?\n/);
  }, 200_000);

  it("redraws the gauge in place and prints the permanent lines above it", () => {
    expect(run.code).toBe(0);
    // eslint-disable-next-line no-control-regex -- the escape sequence is what this test looks for
    const redraws = run.stdout.match(/\r\x1b\[2K# 上下文 [\d.]+K\/60K/g) ?? [];
    expect(redraws.length).toBeGreaterThan(5);
    expect(lines.filter((line) => line.startsWith("<- 新会话只从交接开始"))).toHaveLength(2);
  });

  it("speaks zh: both handoffs frozen under their zh names, the edited line in the goal's constraints", () => {
    const handoffs = lines.filter(
      (line, index) =>
        line === "<- 交接写在:" &&
        /^ {3}\S+\/\.flower\/notes\/交接-demo_work\.md$/.test(lines[index + 1] ?? ""),
    );
    expect(handoffs).toHaveLength(2);
    expect(run.stdout).toMatch(/\.flower\/notes\/需求-demo\.md/);
    expect(lines.find((line) => line.includes("约束"))).toContain("已由人确认:不列运行编号");
    expect(run.stdout).toContain("demo 跑完: 换代 2 次,共 3 代");
  });

  it("removes its temporary workspace and says where it was", () => {
    const removed = /工作区已删除: (\S+?)(?:\(|\s|$)/.exec(run.stdout)?.[1];
    expect(removed).toBeTruthy();
    expect(existsSync(removed!)).toBe(false);
  });
});
