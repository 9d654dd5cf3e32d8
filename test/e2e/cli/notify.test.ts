/**
 * `--notify` as a person uses it (issue 35, item 5): the built `flower`, the real `claude` binary, the
 * offline kit. A notifier command (a small node script appending each payload it gets, from stdin and
 * its FLOWER_NOTIFY_* variables, to a file) gets each event exactly once: a direct run done, a run that
 * failed, a workflow pause (and the done of its `flower continue`), a goal not met; a webhook (a real
 * HTTP server on port 0) gets done. A notifier that exits 1, and one that hangs, never change the run:
 * it ends done, the hanging one is ended before flower exits, and stderr says it once. A bad
 * --notify is one usage line naming it, exit 2, and nothing written.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ManifestFile } from "../../../src/public/stores.js";
import type { Notification } from "../../../src/index.js";
import { fault, text } from "../../../src/testing/index.js";
import { goalNotMetPolicy } from "../../support/run-reports.js";
import { cleanEnv, runFlower, runFlowerOk, spawnFlower, useCliTest } from "./helpers.js";
import { isDocumentStep, isGoalStep, goalAnswer, requirementsAnswer } from "./workflow-answers.js";

const { temp, startModel } = useCliTest();

/** What the notifier script writes for each notification it gets. */
interface Received {
  stdin: Notification;
  env: Record<string, string | undefined>;
}

/** The notifier a person writes: each payload (stdin, and the variables) appended as one JSON line. */
const RECORDER = `
import { appendFileSync, readFileSync } from "node:fs";
const stdin = JSON.parse(readFileSync(0, "utf8"));
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith("FLOWER_NOTIFY_")));
appendFileSync(process.argv[2], JSON.stringify({ stdin, env }) + "\\n");
`;

/**
 * A notifier that never answers: it says its pid and waits forever; told to end (SIGTERM), it notes that
 * next to its pid first, so the test sees it was ended rather than left behind.
 */
const HANGER = `
import { appendFileSync, writeFileSync } from "node:fs";
writeFileSync(process.argv[2], String(process.pid));
process.on("SIGTERM", () => { appendFileSync(process.argv[2] + ".ended", "SIGTERM"); process.exit(143); });
setInterval(() => undefined, 1_000);
`;

/** The checkout a run works in, and the person's notifier scripts outside it (as in their home). */
function setUp() {
  const root = temp.make("flower-notify-");
  const home = temp.make("flower-notifier-");
  writeFileSync(join(home, "recorder.mjs"), RECORDER);
  writeFileSync(join(home, "hanger.mjs"), HANGER);
  writeFileSync(
    join(home, "fails.mjs"),
    'console.error("chat: channel #runs not found"); process.exit(1);\n',
  );
  const out = join(home, "notified.jsonl");
  return {
    root,
    home,
    runDir: join(root, "runs"),
    out,
    /** `--notify` of the recorder, as a person types it. */
    recorder: `node ${join(home, "recorder.mjs")} ${out}`,
  };
}

function received(out: string): Received[] {
  if (!existsSync(out)) return [];
  return readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Received);
}

function manifest(runDir: string): ManifestFile {
  return JSON.parse(readFileSync(join(runDir, "manifest.json"), "utf8")) as ManifestFile;
}

/** The variables carry what the JSON carries. */
function expectSameInEnv(one: Received): void {
  expect(one.env).toEqual({
    FLOWER_NOTIFY_EVENT: one.stdin.event,
    FLOWER_NOTIFY_RUN: one.stdin.run,
    FLOWER_NOTIFY_STEP: one.stdin.step,
    FLOWER_NOTIFY_STATUS: one.stdin.status,
    FLOWER_NOTIFY_WHY: one.stdin.why,
    FLOWER_NOTIFY_CONTINUE: one.stdin.continue ?? "",
    FLOWER_NOTIFY_AT: one.stdin.at,
  });
}

const direct = (step: string, notify: string, task = "Say hello.") => [
  "--direct",
  "--step",
  step,
  "--notify",
  notify,
  task,
];

describe("a notifier command gets each event once", () => {
  it("a direct run that ends done", async () => {
    const model = await startModel({ policy: () => text("Hello.") });
    const paths = setUp();
    const before = new Date().toISOString();
    await runFlowerOk(direct("hello", paths.recorder), { env: cleanEnv(model.env()), cwd: paths.root });
    const got = received(paths.out);
    expect(got).toHaveLength(1);
    expect(Object.keys(got[0]!.stdin)).toEqual(["event", "run", "step", "status", "why", "continue", "at"]);
    expect(got[0]!.stdin).toMatchObject({
      event: "done",
      run: "hello",
      step: "work",
      status: "done",
      why: "the run is done",
      continue: null,
    });
    expect(got[0]!.stdin.at >= before && got[0]!.stdin.at <= new Date().toISOString()).toBe(true);
    expectSameInEnv(got[0]!);
  });

  it("a run that failed: failed, with the line that picks it up again", async () => {
    const model = await startModel({ policy: () => fault("unauthorized") });
    const paths = setUp();
    const run = await runFlower(direct("broken", paths.recorder), {
      env: cleanEnv(model.env()),
      cwd: paths.root,
    });
    expect(run.code).toBe(1);
    const printed = /^The step failed; after fixing the cause, try: (.*)$/m.exec(run.stderr)?.[1];
    expect(printed, run.stderr).toBe("flower continue broken");
    const got = received(paths.out);
    expect(got).toHaveLength(1);
    expect(got[0]!.stdin).toMatchObject({
      event: "failed",
      run: "broken",
      step: "work",
      status: "failed",
      continue: printed,
    });
    expect(got[0]!.stdin.why).toContain("401");
    expectSameInEnv(got[0]!);
    // The notifier is no reason for another line: only the run's own.
    expect(run.stderr).not.toContain("notifying");
  });

  it("a workflow run that pauses after its requirements, then its flower continue that ends done", async () => {
    const model = await startModel({
      policy: (request) => {
        if (request.kind === "title" || request.kind === "compact") return undefined;
        if (isGoalStep(request)) return text(goalAnswer(request));
        if (isDocumentStep(request)) return text(requirementsAnswer());
        if (request.isSubagent) return text("unused");
        return text("WORK-DONE: the flaky test is fixed.");
      },
    });
    const paths = setUp();
    const env = cleanEnv(model.env());
    const paused = await runFlowerOk(["--step", "flaky", "--notify", paths.recorder, "Fix the flaky test"], {
      env,
      cwd: paths.root,
    });
    const goOn = /^Go on with: (.*)$/m.exec(paused.stdout)?.[1];
    expect(goOn, paused.stdout).toBe("flower continue flaky");
    const file = /^ {2}file {2}(.+)$/m.exec(paused.stdout)?.[1];
    expect(file, paused.stdout).toBeDefined();
    let got = received(paths.out);
    expect(got).toHaveLength(1);
    expect(got[0]!.stdin).toMatchObject({
      event: "paused",
      run: "flaky",
      step: "requirements",
      status: "paused",
      continue: goOn,
    });
    expect(got[0]!.stdin.why).toBe(
      `paused after requirements for you to read ${file} (1 open question), then go on`,
    );
    expectSameInEnv(got[0]!);

    // The person goes on with the printed line, and --notify again.
    await runFlowerOk(["continue", "flaky", "--notify", paths.recorder], { env, cwd: paths.root });
    got = received(paths.out);
    expect(got.map((one) => one.stdin.event)).toEqual(["paused", "done"]);
    expect(got[1]!.stdin).toMatchObject({ run: "flaky", step: "work", status: "done", continue: null });
  });

  it("a run whose goal is not met: goal-not-met, with the guard's reason and the line that tries again", async () => {
    const model = await startModel({ policy: goalNotMetPolicy() });
    const paths = setUp();
    const run = await runFlower(["--yes", "--step", "gnm", "--notify", paths.recorder, "Write out.txt"], {
      env: cleanEnv(model.env()),
      cwd: paths.root,
      timeoutMs: 150_000,
    });
    expect(run.code).toBe(1);
    const tryAgain = /^Try again \(the goal recorded when the work began\): (.*)$/m.exec(run.stdout)?.[1];
    expect(tryAgain, run.stdout).toBe("flower continue gnm");
    const got = received(paths.out);
    expect(got).toHaveLength(1);
    expect(got[0]!.stdin).toMatchObject({
      event: "goal-not-met",
      run: "gnm",
      step: "work",
      status: "goal-not-met",
      why: manifest(paths.runDir).steps["gnm/work"]!.guard!.why,
      continue: tryAgain,
    });
    // The verdict, not the agent's claim.
    expect(got[0]!.stdin.why).not.toContain("Done: wrote out.txt");
  }, 180_000);
});

describe("a webhook gets the JSON as a POST", () => {
  const servers: ReturnType<typeof createServer>[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  it("done, once", async () => {
    const requests: { method?: string; url?: string; type?: string; body: string }[] = [];
    const server = createServer((request: IncomingMessage, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        requests.push({
          method: request.method,
          url: request.url,
          type: request.headers["content-type"],
          body,
        });
        response.writeHead(200).end("ok");
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const model = await startModel({ policy: () => text("Hello.") });
    const paths = setUp();
    await runFlowerOk(direct("hooked", `http://127.0.0.1:${port}/flower?token=abc`), {
      env: cleanEnv(model.env()),
      cwd: paths.root,
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: "POST", url: "/flower?token=abc", type: "application/json" });
    expect(JSON.parse(requests[0]!.body)).toMatchObject({
      event: "done",
      run: "hooked",
      step: "work",
      status: "done",
      continue: null,
    });
  });
});

describe("a notifier that fails never changes the run", () => {
  it("one that exits 1: the run ends done, and stderr says it once", async () => {
    const model = await startModel({ policy: () => text("Hello.") });
    const paths = setUp();
    const notify = `node ${join(paths.home, "fails.mjs")}`;
    const run = await runFlower(direct("loud", notify), { env: cleanEnv(model.env()), cwd: paths.root });
    expect(run.code).toBe(0);
    expect(manifest(paths.runDir).steps.loud!.status).toBe("done");
    expect(run.stdout).toContain("Hello.");
    expect(run.stderr).toBe(
      `flower: notifying ${notify.length > 60 ? `${notify.slice(0, 59)}…` : notify} failed (exit code 1: chat: channel #runs not found); the run is not affected\n`,
    );
  });

  // The order of events, not their times: a busy machine stretches every wait (a bound of 9 s measured
  // from when the test noticed the notifier failed at 8.8 s).
  it("one that hangs: the run is recorded done before it is told; the notifier is ended, said once", async () => {
    const model = await startModel({ policy: () => text("Hello.") });
    const paths = setUp();
    const pidFile = join(paths.home, "hanger.pid");
    const spawned = spawnFlower(direct("patient", `node ${join(paths.home, "hanger.mjs")} ${pidFile}`), {
      env: cleanEnv(model.env()),
      cwd: paths.root,
      timeoutMs: 90_000,
    });
    // The notifier starts once the run is over: the record already says done.
    while ((!existsSync(pidFile) || readFileSync(pidFile, "utf8") === "") && spawned.child.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(pidFile), "the notifier was started").toBe(true);
    expect(manifest(paths.runDir).steps.patient!.status).toBe("done");
    expect(existsSync(`${pidFile}.ended`), "told to end before its limit").toBe(false);
    const run = await spawned.done;
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Hello.");
    // flower ended it (it never gives up on its own) before flower itself exited, and said so once.
    expect(readFileSync(`${pidFile}.ended`, "utf8")).toBe("SIGTERM");
    expect(run.stderr).toMatch(
      /^flower: notifying node .+ failed \(no answer within 10 s, ended\); the run is not affected\n$/,
    );
    // Ended, not left behind (a zombie, if any, runs nothing).
    const pid = Number(readFileSync(pidFile, "utf8"));
    const stat = (() => {
      try {
        return readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        return null;
      }
    })();
    if (stat !== null) expect(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3)).toBe("Z");
  }, 120_000);
});

describe("a bad --notify is one usage line naming it, exit 2, nothing written", () => {
  it.each([
    [["--notify", "", "Fix it"], "flower: --notify must not be empty"],
    [
      ["--notify", "ftp://bob:secret@files.example.com/drop", "Fix it"],
      "flower: --notify must be a shell command, or an http:// or https:// URL for a webhook; got ftp://***@files.example.com/… (ftp:// is neither)",
    ],
    [["continue", "--notify", "  "], "flower: --notify must not be empty"],
    [
      ["submit", "Fix it", "--notify", "ftp://files.example.com"],
      "flower: --notify must be a shell command, or an http:// or https:// URL for a webhook; got ftp://files.example.com (ftp:// is neither)",
    ],
    [
      ["worker", "--notify", "gopher://x"],
      "flower: --notify must be a shell command, or an http:// or https:// URL for a webhook; got gopher://x (gopher:// is neither)",
    ],
    [
      ["--notify", "http://", "Fix it"],
      "flower: --notify must be a shell command, or an http:// or https:// URL for a webhook; got http:// (not a URL that parses)",
    ],
  ])("flower %j", async (args, line) => {
    const paths = setUp();
    const run = await runFlower(args, {
      env: cleanEnv({ ANTHROPIC_API_KEY: "sk-never-used" }),
      cwd: paths.root,
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`${line}\n`);
    expect(existsSync(paths.runDir)).toBe(false);
  });
});
