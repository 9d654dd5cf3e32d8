/**
 * A workflow run on one shared store, through the built `flower` binary, the real `claude` binary, the
 * offline kit and a real PostgreSQL server (the machines of shared-store.test.ts: each its own checkout
 * at its own path, run directory and CLAUDE_CONFIG_DIR; they share only the store URL).
 *
 * - machine A starts `flower --store <url> "<task>"` (the default workflow) and pauses after the
 *   requirements; the printed continue line carries the store without its password;
 * - A's checkout is gone; machine C, a fresh checkout, shows the run and its frozen requirements from
 *   the store; machine B continues with the printed store, and the goal step quotes the requirements as
 *   frozen on A; C draws the report and forgets the run: sessions, files and records leave the store;
 * - `forget` refuses a step a live driver holds, naming it (exit 2), and deletes it once that driver is
 *   dead; bad store values are the same one-line errors as `flower runs` gives.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { text, toolUse, toolUses, type FakeModel, type ModelRequest } from "../../../src/testing/index.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { freshSchema, usePostgresServer, queryOnce } from "../../support/postgres-server.js";
import { cleanEnv, killGroup, runFlower, spawnFlower, useCliTest } from "./helpers.js";
import { ASSUMPTION, goalAnswer, isGoalStep, requirementsAnswer } from "./workflow-answers.js";

const { temp, startModel } = useCliTest();
let model: FakeModel | undefined;
const server = usePostgresServer();

/** The server trusts loopback connections, so a planted password is accepted and must never be printed. */
const PASSWORD = "planted-pw-7731";
const RUN = "fix-the-flaky-test";
const HANDOFF = handoffMarkdown({
  doing: "GEN-1: reading the notes in batches, written on machine A.",
  next: ["Finish."],
});

interface Machine {
  workspace: string;
  runDir: string;
  env: Record<string, string>;
}

/** A fresh checkout of the project at its own path; FLOWER_STORE is not set (the store goes by flag). */
function machine(name: string, origin: string, extra: Record<string, string> = {}): Machine {
  const root = temp.make(`flower-${name}-`);
  const workspace = join(root, "checkout");
  cpSync(origin, workspace, { recursive: true });
  return {
    workspace,
    runDir: join(root, "runs"),
    env: cleanEnv({
      ...(model ? model.env({ CLAUDE_CONFIG_DIR: temp.make(`flower-claude-${name}-`) }) : {}),
      ...extra,
    }),
  };
}

function on(m: Machine, args: string[], timeoutMs = 90_000) {
  return runFlower([...args, "--run-dir", m.runDir], { env: m.env, cwd: m.workspace, timeoutMs });
}

function origin(): string {
  const dir = temp.make("flower-origin-");
  writeFileSync(join(dir, "README.md"), "# Clock\n\nThe clock library.\n");
  return dir;
}

/** The words of a printed command line (plain words and '…' quoting, as shellQuote writes them). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((match) =>
    match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : match[2]!,
  );
}

function query<Row extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<Row[]> {
  return queryOnce<Row>(server().url, sql, values);
}

describe("a workflow run continued anywhere", () => {
  it("pauses on A, shows on a fresh checkout from the store, goes on on B as frozen on A, then is forgotten", async () => {
    const project = origin();
    let readmeOfA = "";
    model = await startModel({
      policy: (request: ModelRequest) => {
        if (request.kind === "title" || request.kind === "compact") return undefined;
        if (request.documentKind !== undefined) {
          if (isGoalStep(request)) return text(goalAnswer(request));
          if (request.countToolResults("Read") === 0) return toolUse("Read", { file_path: readmeOfA });
          return text(requirementsAnswer());
        }
        if (request.isSubagent) return text("unused");
        return text("WORK-DONE: the flaky test is fixed.");
      },
    });
    const schema = freshSchema("wf");
    const url = `${server().url.replace("flower@", `flower:${PASSWORD}@`)}?schema=${schema}`;
    const a = machine("a", project);
    const b = machine("b", project, { PGPASSWORD: PASSWORD });
    const c = machine("c", project);
    readmeOfA = join(a.workspace, "README.md");

    // Machine A: the default workflow, paused after the requirements.
    const first = await on(a, ["--store", url, "--workspace", a.workspace, "Fix the flaky test"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("Paused after the requirements step.");
    const goOn = /^Go on with: (flower continue .*)\n(.*)$/m.exec(first.stdout);
    expect(goOn, first.stdout).not.toBeNull();
    const printed = shellWords(goOn![1]!);
    const store = printed[printed.indexOf("--store") + 1]!;
    expect(printed.slice(0, 3)).toEqual(["flower", "continue", RUN]);
    expect(store).toBe(`${server().url}?schema=${schema}`);
    expect(goOn![2]).toMatch(/^ {2}\(the store's password is not printed: .*PGPASSWORD/);
    expect(first.stdout).not.toContain(PASSWORD);
    expect(first.stdout).not.toContain("***");
    const frozenOnA = join(a.workspace, ".flower", "notes", `requirements-${RUN}.md`);
    expect(readFileSync(frozenOnA, "utf8")).toContain(ASSUMPTION);
    // A is another machine from here on: nothing of its checkout is reachable.
    rmSync(a.workspace, { recursive: true, force: true });

    // Machine C, a fresh checkout: the run and its requirements, read from the store.
    const shown = await on(c, ["show", RUN, "--store", url]);
    expect(shown.stderr).toBe("");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^run {9}${RUN}$`, "m"));
    expect(shown.stdout).toMatch(/^ {2}1 {2}requirements {2}done · /m);
    expect(shown.stdout).toContain(
      `frozen Requirements confirmation  .flower/notes/requirements-${RUN}.md (from the store)`,
    );
    expect(shown.stdout).toMatch(/^ {2}- Assumptions {5}The flaky test is test\/clock\.test\.js/m);
    expect(shown.stdout).toContain(`one step in detail: flower show ${RUN}/requirements --store '${store}'`);
    expect(shown.stdout).not.toContain(PASSWORD);
    expect(existsSync(join(c.workspace, ".flower"))).toBe(false);
    expect(existsSync(c.runDir)).toBe(false);

    // Machine B goes on with the store as printed (its password from PGPASSWORD).
    const before = model.requests.length;
    const second = await on(b, ["continue", RUN, "--store", store, "--workspace", b.workspace]);
    expect(second.stderr).toBe("");
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("== step 1/3 · requirements · already done, not redone");
    expect(second.stdout).toContain("WORK-DONE: the flaky test is fixed.");
    const goalFirst = model.requests.slice(before).find(isGoalStep)!;
    expect(goalFirst.firstUserText()).toContain(ASSUMPTION);
    expect(second.stdout).toMatch(
      /^ {2}- Constraints {2}From the requirements: The flaky test is test\/clock\.test\.js/m,
    );
    expect(readFileSync(join(b.workspace, ".flower", "notes", `requirements-${RUN}.md`), "utf8")).toContain(
      ASSUMPTION,
    );

    // B is another machine too: C sees the goal it froze only in the store.
    rmSync(b.workspace, { recursive: true, force: true });
    // C again: one step in detail with its frozen goal, and the report, from the store.
    const goal = await on(c, ["show", `${RUN}/goal`, "--store", url]);
    expect(goal.code).toBe(0);
    expect(goal.stdout).toMatch(new RegExp(`^step {8}${RUN}/goal$`, "m"));
    expect(goal.stdout).toMatch(/^status {6}done · /m);
    expect(goal.stdout).toContain(`frozen Goal  .flower/notes/goal-${RUN}.md (from the store)`);
    expect(goal.stdout).toMatch(/^ {2}- Goal {9}The flaky test passes every time\.$/m);
    const reportPath = join(c.workspace, "report.html");
    const report = await on(c, ["report", RUN, "--store", url, "--out", reportPath]);
    expect(report.stderr).toBe("");
    expect(report.code).toBe(0);
    expect(report.stdout.trim()).toBe(reportPath);
    const html = readFileSync(reportPath, "utf8");
    for (const step of ["requirements", "goal", "work"]) expect(html).toContain(`${RUN}/${step}`);

    // C forgets the run: every step's sessions, files and records leave the store.
    const steps = await query<{ record: string }>(`SELECT record FROM ${schema}.flower_steps`);
    expect(steps).toHaveLength(3);
    const sessions = steps.map((row) => (JSON.parse(row.record) as { sessionId: string }).sessionId);
    const stored = await query(`SELECT 1 FROM ${schema}.flower_transcripts WHERE session_id = ANY($1)`, [
      sessions,
    ]);
    expect(stored.length).toBeGreaterThan(0);
    const files = await query<{ path: string }>(
      `SELECT path FROM ${schema}.flower_files WHERE step LIKE $1`,
      [`${RUN}/%`],
    );
    expect(files.map((row) => row.path)).toContain(`.flower/notes/requirements-${RUN}.md`);
    // The run's checkpoints (its files' history, carried in the store) go with its last step.
    const checkpoints = await query(`SELECT 1 FROM ${schema}.flower_work WHERE run = $1`, [RUN]);
    expect(checkpoints.length).toBeGreaterThan(0);
    const forgotten = await on(c, ["forget", RUN, "--store", url]);
    expect(forgotten.stderr).toBe("");
    expect(forgotten.code).toBe(0);
    expect(forgotten.stdout.trim()).toBe(
      `deleted 3 sessions, ${files.length} files, 3 records and ${checkpoints.length} checkpoints of "${RUN}" from ${url.replace(PASSWORD, "***")} (schema ${schema})`,
    );
    expect(await query(`SELECT 1 FROM ${schema}.flower_work`)).toHaveLength(0);
    expect(await query(`SELECT 1 FROM ${schema}.flower_steps`)).toHaveLength(0);
    expect(
      await query(`SELECT 1 FROM ${schema}.flower_transcripts WHERE session_id = ANY($1)`, [sessions]),
    ).toHaveLength(0);
    expect(await query(`SELECT 1 FROM ${schema}.flower_files WHERE step LIKE $1`, [`${RUN}/%`])).toHaveLength(
      0,
    );
    const gone = await on(c, ["show", RUN, "--store", url]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain(`no step "${RUN}"`);
    model.assertNoErrors();
  }, 300_000);
});

describe("flower show --store of a step that handed off elsewhere", () => {
  it("shows the current handoff from the store's copy on a checkout that never had it", async () => {
    model = await startModel({
      policy: (request: ModelRequest) => {
        if (request.isSubagent) return text("unused");
        if (request.isHandoffTurn) return text(HANDOFF);
        if (request.firstUserText().includes("GEN-1")) return text("Successor finished on machine A.");
        const read = request.countToolResults("Read");
        return toolUses(
          Array.from({ length: 6 }, (_, i) => ({
            name: "Read",
            input: { file_path: `note-${read + i + 1}.md` },
          })),
        );
      },
    });
    const url = `${server().url}?schema=${freshSchema("handoff")}`;
    const project = origin();
    for (let n = 1; n <= 60; n++)
      writeFileSync(
        join(project, `note-${n}.md`),
        `# NOTE-${n}\n${`Note ${n}: ${"the quick brown fox jumps over the lazy dog ".repeat(2)}\n`.repeat(30)}`,
      );
    const a = machine("a", project);
    const c = machine("c", project);
    const ran = await on(a, [
      "--direct",
      "--store",
      url,
      "--window",
      "100000",
      "--step",
      "long job",
      "--workspace",
      a.workspace,
      "Read all notes.",
    ]);
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain("Successor finished on machine A.");
    rmSync(a.workspace, { recursive: true, force: true });

    const shown = await on(c, ["show", "long job", "--store", url]);
    expect(shown.stderr).toBe("");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^totals {6}.* · generations 2 · /m);
    expect(shown.stdout).toContain("  .flower/notes/handoff-long-job.md (from the store)\n");
    expect(shown.stdout).toContain("current handoff  .flower/notes/handoff-long-job.md (from the store)");
    expect(shown.stdout).toContain("GEN-1: reading the notes in batches, written on machine A.");
    expect(existsSync(join(c.workspace, ".flower"))).toBe(false);
    model.assertNoErrors();
  }, 180_000);
});

describe("flower forget --store and a live driver", () => {
  it("refuses while the holder lives, naming it (exit 2, nothing deleted), and forgets once it is dead", async () => {
    model = await startModel({
      policy: (request: ModelRequest) => {
        if (request.isSubagent) return text("unused");
        return { ...text("slow answer"), delayMs: 120_000 };
      },
    });
    const url = `${server().url}?schema=${freshSchema("held")}`;
    const project = origin();
    const a = machine("a", project, { FLOWER_STORE: url });
    const c = machine("c", project, { FLOWER_STORE: url });
    const driver = spawnFlower(["--direct", "--step", "slow", "Answer slowly.", "--run-dir", a.runDir], {
      env: a.env,
      cwd: a.workspace,
      timeoutMs: 150_000,
    });
    const deadline = Date.now() + 60_000;
    while (model.requests.filter((request) => request.kind === "main").length === 0) {
      if (Date.now() > deadline) throw new Error("the driver never asked the model");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // FLOWER_STORE alone names the store.
    const refused = await on(c, ["forget", "slow"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain(`Step "slow" is being driven by pid ${driver.child.pid}`);
    const listed = await on(c, ["runs", "--json"]);
    expect(JSON.parse(listed.stdout.trim())).toMatchObject({ step: "slow", status: "running" });

    killGroup(driver.child, "SIGKILL");
    await driver.done;
    const forgotten = await on(c, ["forget", "slow"]);
    expect(forgotten.stderr).toBe("");
    expect(forgotten.code).toBe(0);
    expect(forgotten.stdout).toMatch(
      /^deleted \d+ sessions?, \d+ files?, 1 record and \d+ checkpoints? of "slow" from /,
    );
    const after = await on(c, ["runs"]);
    expect(after.stdout).toContain("No steps yet in");
  }, 240_000);
});

describe("store values show, report and forget refuse", () => {
  it.each([["show"], ["report"], ["forget", "any"]])(
    "flower %s: a malformed URL (exit 2) and an unreachable server (exit 1), one line, no password",
    async (...command) => {
      const root = temp.make("flower-bad-store-");
      const env = cleanEnv();
      const malformed = await runFlower([...command, "--store", "postgres://ci:secret@:5432/x"], {
        env,
        cwd: root,
        timeoutMs: 30_000,
      });
      expect(malformed.code).toBe(2);
      expect(malformed.stderr.trim().split("\n")).toHaveLength(1);
      expect(malformed.stderr).toContain('Invalid option --store: got "postgres://ci:***@:5432/x"');

      const unreachable = await runFlower(command, {
        env: { ...env, FLOWER_STORE: "postgres://ci:secret@127.0.0.1:1/flower" },
        cwd: root,
        timeoutMs: 30_000,
      });
      expect(unreachable.code).toBe(1);
      expect(unreachable.stderr.trim().split("\n")).toHaveLength(1);
      expect(unreachable.stderr).toMatch(
        /^flower: Cannot use the store postgres:\/\/ci:\*\*\*@127\.0\.0\.1:1\/flower \(schema public\): .*ECONNREFUSED/,
      );
      expect(unreachable.stderr).not.toContain("secret");
      expect(existsSync(join(root, "runs"))).toBe(false);
    },
    60_000,
  );
});
