/**
 * `flower say <run> "…"` (issue 43) through the built CLI, the real `claude` binary and the offline kit:
 * the words reach the running session's main thread as a person's message at its next message boundary
 * (with a tool result, never in a subagent's or the handoff-writing turn's request), once and in the
 * order said; the driver's terminal, the record, `flower show` and the report say so. A run that is
 * stopped keeps a message (said on the command line, or typed into the live page behind its token, in
 * Chromium) for the session `flower continue` resumes. A driver SIGKILLed after its session got a
 * message leaves it in the channel: the continued session finds it in its transcript and is not given
 * it twice. A run that has ended refuses in one line (exit 2).
 */
import { writeFileSync, readFileSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { ManifestFile, StepRecord } from "../../../src/public/stores.js";
import { text, toolUse, type FakeModel, type ModelRequest } from "../../../src/testing/index.js";
import { CHROMIUM_ARGS, chromiumPath } from "../../support/chromium.js";
import { handoffMarkdown } from "../../support/handoff-fixture.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import { fleetProject, fleetRows, startWorker, submitRun } from "./fleet-helpers.js";
import { goalAnswer, isDocumentStep, isGoalStep, requirementsAnswer } from "./workflow-answers.js";
import { cleanEnv, killGroup, runFlower, spawnFlower, useCliTest, type Spawned } from "./helpers.js";

const { temp, startModel } = useCliTest();
const server = usePostgresServer();

const BY = `${userInfo().username}@${hostname()}`;
/** How the binary frames a message that arrives while the main thread works (CLI 2.1.332). */
const FRAMED = "The user sent a new message while you were working:";

/** How many times `words` occurs in a request's conversation. */
function times(request: ModelRequest, words: string): number {
  return request.allText().split(words).length - 1;
}

function record(runDir: string, step: string): StepRecord {
  const manifest = JSON.parse(readFileSync(join(runDir, "manifest.json"), "utf8")) as ManifestFile;
  return manifest.steps[step]!;
}

async function until(condition: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function project(): { root: string; runDir: string } {
  const root = temp.make("flower-say-");
  writeFileSync(join(root, "count.txt"), "one\ntwo\nthree\n");
  return { root, runDir: join(root, "runs") };
}

/**
 * A main thread that reads count.txt turn after turn (a turn every 200 ms) until it has heard `last`
 * from a person; then it answers and the step is done. Every main-thread request is kept.
 */
async function busyModel(
  last: string,
  options: { onRequest?: (request: ModelRequest) => void | Promise<void> } = {},
): Promise<{ model: FakeModel; main: ModelRequest[] }> {
  const main: ModelRequest[] = [];
  const model = await startModel({
    policy: async (request) => {
      if (request.kind === "title" || request.kind === "compact") return undefined;
      if (request.isSubagent) return text("unused");
      main.push(request);
      await options.onRequest?.(request);
      if (request.allText().includes(last)) return text(`Heard you: ${last}`);
      if (request.countToolResults("Read") >= 300) return text("Gave up: nobody said anything.");
      return { ...toolUse("Read", { file_path: "count.txt" }), delayMs: 200 };
    },
  });
  return { model, main };
}

function startBusy(model: FakeModel, root: string, runDir: string): Spawned {
  return spawnFlower(
    ["--workspace", root, "--run-dir", runDir, "--direct", "--step", "busy", "Count the lines"],
    {
      env: cleanEnv(model.env()),
      cwd: root,
      timeoutMs: 120_000,
    },
  );
}

describe("flower say", () => {
  it("gives a running step's main thread the words at its next boundary, once each, in order; an ended run refuses", async () => {
    const ONE = "Count the blank lines too";
    const TWO = "And report the total in words";
    const { model, main } = await busyModel(TWO);
    const { root, runDir } = project();
    const env = cleanEnv(model.env());
    const driver = startBusy(model, root, runDir);
    await until(() => main.length >= 2, "the driver's first turns");

    // Two messages in a row, from another terminal.
    for (const words of [ONE, TWO]) {
      const said = await runFlower(["say", "busy", words, "--run-dir", runDir], { env, cwd: root });
      expect(said.stderr).toBe("");
      expect(said.code).toBe(0);
      expect(said.stdout).toMatch(
        /^told "busy": the driver of busy \(pid \d+ on .+\) gives it to the main thread at its next message boundary\n$/,
      );
    }
    const finished = await driver.done;
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stdout).toContain(`Heard you: ${TWO}`);
    // The driver's terminal says when each reached the main thread, in the order said.
    const told = (words: string) =>
      finished.stdout.indexOf(`>> busy: ${BY} said (flower say, given to the main thread): ${words}`);
    expect(told(ONE)).toBeGreaterThan(-1);
    expect(told(TWO)).toBeGreaterThan(told(ONE));

    // At a boundary: the first request with the words carries them with a tool result, framed as a
    // person's message. Once each, in order, to the end of the session.
    const first = main.find((request) => times(request, ONE) > 0)!;
    expect(first.lastToolResult()).toBeDefined();
    expect(first.lastUserText()).toContain(FRAMED);
    const last = main.at(-1)!;
    expect(times(last, ONE)).toBe(1);
    expect(times(last, TWO)).toBe(1);
    expect(last.allText().indexOf(ONE)).toBeLessThan(last.allText().indexOf(TWO));
    model.assertNoErrors();

    // The record, show and the report: said by a person, when, which generation got it.
    const step = record(runDir, "busy");
    expect(
      step.personMessages?.map(({ by, text: words, generation }) => ({ by, words, generation })),
    ).toEqual([
      { by: BY, words: ONE, generation: 1 },
      { by: BY, words: TWO, generation: 1 },
    ]);
    const shown = await runFlower(["show", "busy", "--run-dir", runDir], { env, cwd: root });
    expect(shown.stdout).toMatch(
      new RegExp(`^ {7}<< said by a person, ${BY}, at .+ \\(flower say; given at .+\\): ${ONE}$`, "m"),
    );
    expect(shown.stdout).not.toContain("not given to a session yet");
    const out = join(root, "report.html");
    await runFlower(["report", "busy", "--run-dir", runDir, "--out", out], { env, cwd: root });
    const html = readFileSync(out, "utf8");
    expect(html).toContain("Said by a person");
    expect(html.match(/<li data-message data-generation="1">/g)).toHaveLength(2);

    // The step is done: nobody would read another message.
    const late = await runFlower(["say", "busy", "one more thing", "--run-dir", runDir], { env, cwd: root });
    expect(late.code).toBe(2);
    expect(late.stdout).toBe("");
    expect(late.stderr).toBe(
      'flower say: run "busy" has ended (done); nobody would read the message, nothing was kept\n',
    );
    const unknown = await runFlower(["say", "bsuy", "hello", "--run-dir", runDir], { env, cwd: root });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no run or step "bsuy"');
    expect(unknown.stderr).toContain("known: busy");
    const empty = await runFlower(["say", "busy", "  ", "--run-dir", runDir], { env, cwd: root });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("say something");
  });

  it("keeps a message for a stopped run (the command line, and the live page behind its token) for the session continue resumes", async () => {
    const THREE = "Skip the first line";
    const FOUR = "Then stop and say how many";
    const { model, main } = await busyModel(FOUR);
    const { root, runDir } = project();
    const env = cleanEnv(model.env());
    const driver = startBusy(model, root, runDir);
    await until(() => main.length >= 2, "the driver's first turns");
    process.kill(driver.child.pid!, "SIGINT");
    const stopped = await driver.done;
    expect(stopped.code, stopped.stderr).toBe(130);

    const kept = await runFlower(["say", "busy", THREE, "--run-dir", runDir], { env, cwd: root });
    expect(kept.stderr).toBe("");
    expect(kept.stdout).toBe(
      'kept for "busy" (stopped): its next session gets it first thing (flower continue busy)\n',
    );
    const shown = await runFlower(["show", "busy", "--run-dir", runDir], { env, cwd: root });
    expect(shown.stdout).toContain(`said by a person, ${BY}, at`);
    expect(shown.stdout).toContain(`(flower say): ${THREE} — not given to a session yet`);

    // The live page: the field is behind the token; typed into it, the words wait like the command's.
    const serve = spawnFlower(["serve", "--run-dir", runDir, "--port", "0", "--allow-actions"], {
      env,
      cwd: root,
      timeoutMs: 120_000,
    });
    let printed = "";
    serve.child.stdout!.on("data", (chunk: Buffer) => (printed += chunk.toString()));
    await until(() => /#token=/.test(printed), "flower serve's address");
    const address = /Open (http:\/\/127\.0\.0\.1:\d+\/)#token=([\w-]+)/.exec(printed)!;
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
      headless: true,
    });
    try {
      const page = await browser.newPage();
      // Without the token the page may look, not act: the same words are refused and nothing is kept.
      await page.goto(address[1]!);
      const field = page.locator('input[data-say="busy"]');
      await expect.poll(() => field.count(), { timeout: 30_000 }).toBe(1);
      await field.fill("not from the person with the token");
      await field.press("Enter");
      await expect.poll(() => page.locator("#message").getAttribute("data-status")).toBe("403");
      await page.goto(`${address[1]}#token=${address[2]}`);
      await page.reload();
      await expect.poll(() => field.count(), { timeout: 30_000 }).toBe(1);
      await field.fill(FOUR);
      await page.locator('tr[data-run="busy"] button[data-action="say"]').click();
      await expect.poll(() => page.locator("#message").getAttribute("data-status")).toBe("200");
      expect(await page.locator("#message").textContent()).toBe(
        "Say: busy: its main thread gets it at the next message boundary (or its next session).",
      );
      expect(await field.inputValue()).toBe("");
    } finally {
      await browser.close();
      process.kill(serve.child.pid!, "SIGINT");
      expect((await serve.done).code).toBe(0);
    }

    const before = main.length;
    const continued = await runFlower(["continue", "busy", "--run-dir", runDir], {
      env,
      cwd: root,
      timeoutMs: 120_000,
    });
    expect(continued.code, continued.stderr).toBe(0);
    expect(continued.stdout).toContain(`Heard you: ${FOUR}`);
    const resumed = main.slice(before);
    // The session continue resumed (the same one) got both, in order, once each; the refused words never.
    expect(new Set(resumed.map((request) => request.sessionId))).toEqual(new Set([main[0]!.sessionId]));
    const last = resumed.at(-1)!;
    expect(times(last, THREE)).toBe(1);
    expect(times(last, FOUR)).toBe(1);
    expect(last.allText().indexOf(THREE)).toBeLessThan(last.allText().indexOf(FOUR));
    expect(main.some((request) => request.allText().includes("not from the person with the token"))).toBe(
      false,
    );
    expect(record(runDir, "busy").personMessages?.map((message) => message.text)).toEqual([THREE, FOUR]);
    model.assertNoErrors();
  });

  // The worst moments: the request that first carries the words is at the model (the binary wrote the
  // message to its transcript only after it: the continued session must be given it again), and the
  // request after it (the transcript holds it: the continued session must not be given it twice).
  it.each([
    { killAt: 1, transcript: "lacks it" },
    { killAt: 2, transcript: "holds it" },
  ])(
    "a driver SIGKILLed at request $killAt carrying a message (its transcript $transcript): continue gives it exactly once",
    async ({ killAt }) => {
      const FIVE = "Count the words instead";
      let driver: Spawned | undefined;
      let carrying = 0;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const { model, main } = await busyModel("the line that never comes", {
        // The driver dies here; its orphaned request is held until the test ends.
        onRequest: async (request) => {
          if (carrying >= killAt || !request.allText().includes(FIVE) || ++carrying < killAt) return;
          killGroup(driver!.child);
          await held;
        },
      });
      const { root, runDir } = project();
      const env = cleanEnv(model.env());
      try {
        driver = startBusy(model, root, runDir);
        await until(() => main.length >= 2, "the driver's first turns");
        const said = await runFlower(["say", "busy", FIVE, "--run-dir", runDir], { env, cwd: root });
        expect(said.code, said.stderr).toBe(0);
        const dead = await driver.done;
        expect(dead.signal).toBe("SIGKILL");
        expect(carrying).toBe(killAt);

        // The channel still holds the message: the next session is given it unless its transcript has it.
        const before = main.length;
        const continued = spawnFlower(["continue", "busy", "--run-dir", runDir], {
          env,
          cwd: root,
          timeoutMs: 120_000,
        });
        await until(() => main.length >= before + 3, "three turns of the continued session");
        process.kill(continued.child.pid!, "SIGINT");
        expect((await continued.done).code).toBe(130);
        const resumed = main.slice(before);
        expect(new Set(resumed.map((request) => request.sessionId))).toEqual(new Set([main[0]!.sessionId]));
        expect(times(resumed.at(-1)!, FIVE)).toBe(1);
        // Once in the record too, and nothing left waiting.
        expect(record(runDir, "busy").personMessages?.map((message) => message.text)).toEqual([FIVE]);
        const shown = await runFlower(["show", "busy", "--run-dir", runDir], { env, cwd: root });
        expect(shown.stdout).not.toContain("not given to a session yet");
      } finally {
        release();
      }
    },
  );

  it("a message said during the handoff-writing turn goes to the successor, not into the writing turn", async () => {
    const SIX = "Next generation: double-check the total";
    const DONE = "Successor finished.";
    const { root, runDir } = project();
    let writing: ModelRequest[] = [];
    let first: string | undefined;
    const successor: ModelRequest[] = [];
    let saying: Promise<unknown> | null = null;
    const model: FakeModel = await startModel({
      policy: async (request) => {
        if (request.kind === "title" || request.kind === "compact") return undefined;
        if (request.isSubagent) return text("unused");
        if (request.isHandoffTurn) {
          writing = [...writing, request];
          // Said while the writing turn runs: the driver keeps it for the successor.
          saying ??= runFlower(["say", "busy", SIX, "--run-dir", runDir], {
            env: cleanEnv(model.env()),
            cwd: root,
          });
          await saying;
          return text(
            handoffMarkdown({
              doing: "Counting the lines of count.txt.",
              decided: ["Read the file each turn."],
              deadends: "(empty)",
              next: ["Go on counting."],
              scene: ["`count.txt` — the file being counted"],
            }),
          );
        }
        first ??= request.sessionId;
        if (request.sessionId !== first) {
          successor.push(request);
          if (request.allText().includes(SIX)) return text(DONE);
          return toolUse("Read", { file_path: "count.txt" });
        }
        return { ...toolUse("Read", { file_path: "count.txt" }), delayMs: 200 };
      },
    });
    const env = cleanEnv(model.env());
    const driver = startBusy(model, root, runDir);
    await until(() => first !== undefined, "the driver's first turn");
    const asked = await runFlower(["handoff", "busy", "--run-dir", runDir], { env, cwd: root });
    expect(asked.code, asked.stderr).toBe(0);
    const finished = await driver.done;
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stdout).toContain(DONE);
    expect(writing.length).toBeGreaterThan(0);
    for (const request of writing) expect(times(request, SIX)).toBe(0);
    // The successor's first request is its handoff; the words come at its first boundary, once.
    expect(times(successor[0]!, SIX)).toBe(0);
    expect(times(successor.at(-1)!, SIX)).toBe(1);
    expect(successor.at(-1)!.lastToolResult()).toBeDefined();
    const step = record(runDir, "busy");
    expect(step.generations).toBe(2);
    expect(step.personMessages?.map(({ text: words, generation }) => ({ words, generation }))).toEqual([
      { words: SIX, generation: 2 },
    ]);
    model.assertNoErrors();
  });

  it("a message said while a subagent works reaches the main thread after the subagent, never the subagent", async () => {
    const SEVEN = "Tell the engineer's result to me in one line";
    const { root, runDir } = project();
    const subagent: ModelRequest[] = [];
    const main: ModelRequest[] = [];
    let saying: Promise<unknown> | null = null;
    const model: FakeModel = await startModel({
      policy: async (request) => {
        if (request.kind === "title" || request.kind === "compact") return undefined;
        if (request.isSubagent) {
          subagent.push(request);
          // While the subagent works, a person says something; it goes on working a while after.
          if (request.countToolResults("Bash") === 1) {
            saying ??= runFlower(["say", "busy", SEVEN, "--run-dir", runDir], {
              env: cleanEnv(model.env()),
              cwd: root,
            });
            await saying;
          }
          if (request.countToolResults("Bash") >= 4) return text("Engineer: counted 3 lines.");
          return { ...toolUse("Bash", { command: "sleep 0.3; wc -l count.txt" }), delayMs: 100 };
        }
        main.push(request);
        if (request.allText().includes(SEVEN)) return text("3 lines, said in one line.");
        return toolUse("Agent", {
          subagent_type: "engineer",
          description: "Count",
          prompt: "Count the lines of count.txt.",
        });
      },
    });
    const finished = await runFlower(
      ["--workspace", root, "--run-dir", runDir, "--direct", "--step", "busy", "Count the lines"],
      { env: cleanEnv(model.env()), cwd: root, timeoutMs: 120_000 },
    );
    expect(finished.code, finished.stderr).toBe(0);
    expect(saying).not.toBeNull();
    for (const request of subagent) expect(times(request, SEVEN)).toBe(0);
    // The main thread's request after the Agent call's result carries it, once.
    const heard = main.find((request) => times(request, SEVEN) > 0)!;
    expect(heard.lastToolResult()?.name).toBe("Agent");
    expect(times(main.at(-1)!, SEVEN)).toBe(1);
    model.assertNoErrors();
  });

  it("through a shared store: kept for a queued run, given by the worker that takes it; a second from another checkout while it runs", async () => {
    const EIGHT = "Start with the README";
    const NINE = "Now say what the README is about";
    const { model, main } = await busyModel(NINE);
    const schema = freshSchema("say");
    const url = `${server().url}?schema=${schema}`;
    const workspace = fleetProject(temp);
    // The person's other checkout: no run directory, only the store.
    const elsewhere = temp.make("flower-say-elsewhere-");
    const env = cleanEnv(model.env({ CLAUDE_CONFIG_DIR: temp.make("flower-claude-person-") }));
    const run = await submitRun(url, "Read the README and count its lines", ["--direct"], workspace);

    const queued = await runFlower(["say", run, EIGHT, "--store", url], { env, cwd: elsewhere });
    expect(queued.stderr).toBe("");
    expect(queued.stdout).toBe(
      `kept for "${run}" (queued, no worker has it yet): its next session gets it first thing\n`,
    );

    const worker = startWorker(model, temp, { name: "w1", url, workspace });
    try {
      await until(
        () => main.some((request) => request.allText().includes(EIGHT)),
        "the worker's session to hear the first",
      );
      const driven = await runFlower(["say", run, NINE, "--store", url], { env, cwd: elsewhere });
      expect(driven.stderr).toBe("");
      expect(driven.stdout).toMatch(
        new RegExp(
          `^told "${run}": the driver of ${run} \\(pid ${worker.child.pid} on .+\\) gives it to the main thread at its next message boundary\n$`,
        ),
      );
      await until(
        () => main.at(-1)!.allText().includes(NINE),
        "the worker's session to hear the second",
        60_000,
      );
      const last = main.at(-1)!;
      expect(times(last, EIGHT)).toBe(1);
      expect(times(last, NINE)).toBe(1);
      expect(last.allText().indexOf(EIGHT)).toBeLessThan(last.allText().indexOf(NINE));
      // The first came at the session's first boundary: its first request is the task alone.
      const first = main.find((request) => request.sessionId === last.sessionId)!;
      expect(times(first, EIGHT)).toBe(0);

      const deadline = Date.now() + 60_000;
      while ((await fleetRows(server().url, schema)).find((row) => row.run === run)?.status !== "done") {
        if (Date.now() > deadline) throw new Error("the run did not end done");
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const shown = await runFlower(["show", run, "--store", url, "--json"], { env, cwd: elsewhere });
      const stored = JSON.parse(shown.stdout) as StepRecord;
      expect(stored.personMessages?.map((said) => said.text)).toEqual([EIGHT, NINE]);
      const late = await runFlower(["say", run, "thanks", "--store", url], { env, cwd: elsewhere });
      expect(late.code).toBe(2);
      expect(late.stderr).toBe(
        `flower say: run "${run}" has ended (done); nobody would read the message, nothing was kept\n`,
      );
    } finally {
      worker.child.kill("SIGTERM");
      await worker.done;
    }
    model.assertNoErrors();
  });

  it("a workflow run paused after its requirements keeps the words for its goal step, which hears them in its prompt", async () => {
    const TEN = "The goal must also say the test may not be retried";
    const goal: ModelRequest[] = [];
    const model = await startModel({
      policy: (request) => {
        if (request.kind === "title" || request.kind === "compact") return undefined;
        if (isDocumentStep(request)) {
          if (!isGoalStep(request)) return text(requirementsAnswer());
          goal.push(request);
          return text(goalAnswer(request));
        }
        if (request.isSubagent) return text("unused");
        return text("WORK-DONE");
      },
    });
    const root = temp.make("flower-say-workflow-");
    const env = cleanEnv(model.env());
    const paused = await runFlower(["Fix the flaky test"], { env, cwd: root, timeoutMs: 90_000 });
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toContain("Paused after the requirements step.");
    const run = "fix-the-flaky-test";

    const kept = await runFlower(["say", run, TEN], { env, cwd: root });
    expect(kept.stderr).toBe("");
    expect(kept.stdout).toBe(
      `kept for "${run}" (paused for you): its next session gets it first thing (flower continue ${run})\n`,
    );
    const continued = await runFlower(["continue", run], { env, cwd: root, timeoutMs: 90_000 });
    expect(continued.code, continued.stderr).toBe(0);
    expect(continued.stdout).toContain(
      `>> ${run}/goal: ${BY} said (flower say, given to the main thread): ${TEN}`,
    );
    // The goal step's own prompt carries it (its last answer must be its document), once.
    expect(goal).toHaveLength(1);
    expect(times(goal[0]!, TEN)).toBe(1);
    expect(goal[0]!.firstUserText()).toContain(`A person sent this run a message (flower say), ${BY} at `);
    const steps = (JSON.parse(readFileSync(join(root, "runs", "manifest.json"), "utf8")) as ManifestFile)
      .steps;
    expect(steps[`${run}/goal`]!.personMessages?.map((said) => said.text)).toEqual([TEN]);
    expect(steps[`${run}/work`]!.personMessages).toBeUndefined();
    model.assertNoErrors();
  });
});
