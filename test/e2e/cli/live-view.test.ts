/**
 * The live view as a person meets it, through the built CLI, the real `claude` binary and the offline
 * kit: a subagent the binary refused is shown as refused and counted, not as one that ran; and on a
 * terminal (a real one, tmux) a slow reply is not silence — the status line says how long it has
 * waited, and moves — while a pipe and `--json` get no such line.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { text, toolUse, type ModelRequest } from "../../../src/testing/index.js";
import { hasTmux, openTerminal, type Terminal } from "../../support/tmux.js";
import { BIN, cleanEnv, runFlower, useCliTest } from "./helpers.js";
import { requirementsAnswer } from "./workflow-answers.js";

const { temp, startModel } = useCliTest();
let terminal: Terminal | undefined;

afterEach(() => {
  terminal?.kill();
  terminal = undefined;
});

/** Polls `check` until it returns a value (not undefined); fails naming `what` if it never does. */
async function until<T>(check: () => T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a subagent the binary refused", () => {
  it("in a requirements step (no Agent tool there): shown as refused, counted as a denial, never as started", async () => {
    const model = await startModel({
      policy: (request: ModelRequest) => {
        if (request.documentKind === "requirements" && request.isMainThread) {
          // The document agent reaches for a subagent it does not have.
          if (request.countToolResults("Agent") === 0)
            return toolUse("Agent", {
              subagent_type: "engineer",
              description: "Survey the tests",
              prompt: "List the flaky tests.",
            });
          return text(requirementsAnswer());
        }
        return text("nothing else is asked in this test");
      },
    });
    const root = temp.make("flower-refused-");
    writeFileSync(join(root, "README.md"), "A project.\n");
    const env = cleanEnv(model.env());
    const run = await runFlower(["Fix the flaky test"], { env, cwd: root, timeoutMs: 120_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines).toContain(
      "x  denied Agent engineer: Survey the tests — No such tool available: Agent. Agent is disabled for this session, in subagents as well as here.",
    );
    expect(run.stdout).not.toMatch(/-> engineer started|<- engineer done/);
    // The binary's answer reached the model as the refusal it is.
    const second = model.requests.find(
      (request) => request.documentKind === "requirements" && request.countToolResults("Agent") > 0,
    );
    expect(second?.toolResults().find((result) => result.name === "Agent")?.isError).toBe(true);

    const shown = await runFlower(["show", "fix-the-flaky-test/requirements"], { env, cwd: root });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/ · denials 1$/m);
    model.assertNoErrors();
  }, 180_000);
});

describe("a slow reply on a terminal", () => {
  it("the status line says how long it has waited, and the count moves; the run then ends as usual", async () => {
    expect(hasTmux(), "tmux is needed for the terminal test").toBe(true);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    const model = await startModel({
      policy: async (request: ModelRequest) => {
        if (request.kind === "main" && request.countToolResults("Bash") === 0) {
          // The first reply of the work is slow: held until the test has seen the terminal wait.
          held += 1;
          await released;
        }
        return text("The flaky test is fixed.");
      },
    });
    const root = temp.make("flower-slow-");
    const home = temp.make("flower-slow-home-");
    mkdirSync(join(root, "src"));
    terminal = openTerminal({
      command: `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} --direct "Fix the flaky test"`,
      cwd: root,
      env: cleanEnv({ ...model.env(), TERM: "xterm-256color", HOME: home }),
      scratch: home,
    });
    const waited = (screen: string[]) => {
      const line = screen.find((candidate) => /waiting \d+s$/.test(candidate));
      return line === undefined ? undefined : { line, seconds: Number(/waiting (\d+)s$/.exec(line)![1]) };
    };
    const first = await until(() => (held > 0 ? waited(terminal!.screen()) : undefined), "the first wait");
    // The line it waits on: the gauge of the step, or a line of its own before the first reply.
    expect(first.line).toMatch(/^(# context .* · |\.\. )waiting \d+s$/);
    const later = await until(() => {
      const now = waited(terminal!.screen());
      return now && now.seconds > first.seconds ? now : undefined;
    }, "the count to move");
    expect(later.seconds).toBeGreaterThan(first.seconds);
    release();
    const end = await until(() => {
      const screen = terminal!.screen();
      return screen.some((line) => line.startsWith("[exit ")) ? screen : undefined;
    }, "the run's end");
    expect(end).toContain("[exit 0]");
    expect(end.some((line) => line.startsWith("<= done fix-the-flaky-test"))).toBe(true);
    // Nothing left waiting on the screen once the step ended.
    expect(end.filter((line) => /waiting \d+s/.test(line))).toEqual([]);
    model.assertNoErrors();
  }, 180_000);

  it("a pipe and --json get no waiting line and no escape code, however long the reply takes", async () => {
    let sawRequest!: () => void;
    const requested = new Promise<void>((resolve) => (sawRequest = resolve));
    const model = await startModel({
      policy: async (request: ModelRequest) => {
        if (request.kind === "main" && request.countToolResults("Bash") === 0) {
          sawRequest();
          // Longer than the terminal waits before it says so (2 s): a pipe still says nothing.
          await new Promise((resolve) => setTimeout(resolve, 3_500));
        }
        return text("The flaky test is fixed.");
      },
    });
    const root = temp.make("flower-slow-pipe-");
    const env = cleanEnv(model.env());
    const piped = await runFlower(["--direct", "Fix the flaky test"], { env, cwd: root, timeoutMs: 120_000 });
    await requested;
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).not.toContain("waiting");
    // eslint-disable-next-line no-control-regex -- no terminal code in a pipe
    expect(piped.stdout).not.toMatch(/\x1b/);
    const json = await runFlower(["--json", "--direct", "Fix the flaky test again"], {
      env,
      cwd: root,
      timeoutMs: 120_000,
    });
    expect(json.code, json.stderr).toBe(0);
    for (const line of json.stdout.trim().split("\n"))
      expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(json.stdout + json.stderr).not.toContain("waiting");
  }, 180_000);
});
