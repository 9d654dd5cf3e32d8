/**
 * How `flower` fails and stops, as a user sees it (issue 22, items 4, 5 and 9): the built CLI, the real
 * binary, the offline kit.
 * - A request that cannot pass (a 401) reaches the provider once, and the output says the API's words.
 * - A binary that refuses to start says why (its stderr line), once, and is not started again.
 * - A refused connection is retried, then its reason is said.
 * - SIGTERM stops at a message boundary like Ctrl-C: exit 143, the continue line, and that line resumes
 *   the same session. When the reply in flight was the step's last, the step is done and says so.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ManifestFile, StepRecord } from "../../../src/public/stores.js";
import { fault, text, toolUse, type FakeModel, type ModelRequest } from "../../../src/testing/index.js";
import { cleanEnv, runFlower, spawnFlower, type Spawned, useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();
let model: FakeModel | undefined;

function setUp() {
  const root = temp.make("flower-fail-");
  return { root, runDir: join(root, "runs") };
}

function record(runDir: string, step: string): StepRecord {
  return (JSON.parse(readFileSync(join(runDir, "manifest.json"), "utf8")) as ManifestFile).steps[step]!;
}

const direct = (paths: { root: string; runDir: string }, step: string, task: string) => [
  "--direct",
  "--workspace",
  paths.root,
  "--run-dir",
  paths.runDir,
  "--step",
  step,
  task,
];

/** A port nothing listens on: bound once to learn a free number, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("a failure says why, once", () => {
  it("a 401: one request reaches the provider, the API's message and a hint, exit 1", async () => {
    model = await startModel({ policy: () => fault("unauthorized") });
    const paths = setUp();
    const run = await runFlower(direct(paths, "auth", "Say hello."), {
      env: cleanEnv(model.env()),
      cwd: paths.root,
    });
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(1);
    expect(model.requests.filter((request) => request.isMainThread)).toHaveLength(1);
    const output = run.stdout + run.stderr;
    expect(output).toContain("invalid x-api-key");
    expect(output).toContain("check ANTHROPIC_API_KEY");
    expect(output).not.toContain("retrying");
    expect(record(paths.runDir, "auth")).toMatchObject({ status: "failed", attempts: 1 });
  });

  it("a binary that refuses to start (root with IS_SANDBOX=0): its own line, not started again", async () => {
    if (process.getuid?.() !== 0)
      throw new Error("this test needs root: as root the binary refuses to start with IS_SANDBOX=0");
    model = await startModel({ policy: () => text("never asked") });
    const paths = setUp();
    const run = await runFlower(direct(paths, "sandbox", "Say hello."), {
      env: cleanEnv(model.env({ IS_SANDBOX: "0" })),
      cwd: paths.root,
    });
    expect(run.code).toBe(1);
    expect(model.requests).toHaveLength(0);
    expect(run.stderr).toContain(
      "claude said: --dangerously-skip-permissions cannot be used with root/sudo privileges",
    );
    expect(run.stderr).toContain("set IS_SANDBOX=1");
    expect(run.stdout + run.stderr).not.toContain("retrying");
    // Tried once, not three times.
    expect(record(paths.runDir, "sandbox")).toMatchObject({ status: "failed", attempts: 1 });
  });

  it("a refused connection is retried, then its reason is said", async () => {
    model = await startModel({ policy: () => text("unused") });
    const paths = setUp();
    const port = await closedPort();
    const run = await runFlower(direct(paths, "offline", "Say hello."), {
      env: cleanEnv(model.env({ ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` })),
      cwd: paths.root,
      timeoutMs: 90_000,
    });
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/attempt 1\/3 failed: .*ECONNREFUSED.* — retrying/);
    expect(run.stdout).toMatch(/attempt 2\/3 failed: .*ECONNREFUSED.* — retrying/);
    expect(run.stderr).toMatch(/3 of 3 attempts failed; last: API Error: Connection refused.*ECONNREFUSED/);
    expect(record(paths.runDir, "offline")).toMatchObject({ status: "failed", attempts: 3 });
  });
});

describe("SIGTERM is a stop request", () => {
  it("during a streaming turn: exit 143, the continue line, which resumes the same session", async () => {
    const first: { spawned?: Spawned } = {};
    let terminated = false;
    model = await startModel({
      policy: async (request: ModelRequest) => {
        if (!request.isMainThread) return undefined;
        if (request.lastUserText().includes("Continue the task.")) return text("Finished after SIGTERM.");
        if (!terminated) {
          // `docker stop` arrives while the model is answering.
          terminated = true;
          first.spawned?.child.kill("SIGTERM");
        }
        // The reply in flight lands within the stop's grace and asks for a tool: the step stops at
        // that boundary, before the tool runs.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        return toolUse("Bash", { command: "echo never-run" });
      },
    });
    const paths = setUp();
    const env = cleanEnv(model.env());
    first.spawned = spawnFlower(direct(paths, "term", "Say hello slowly."), { env, cwd: paths.root });
    const stopped = await first.spawned.done;
    expect(stopped.timedOut).toBe(false);
    expect(stopped.signal).toBeNull();
    expect(stopped.code).toBe(143);
    expect(stopped.stderr).toContain("SIGTERM: stopping at the next message boundary");
    const line = /Pick it up with: (flower continue .*)$/m.exec(stopped.stdout)?.[1];
    expect(line, stopped.stdout).toBeDefined();
    const before = record(paths.runDir, "term");
    expect(before.status).toBe("stopped");
    expect(before.sessionId).toBeTruthy();

    // The printed line, as the user would paste it (no flag it does not have).
    const [command, ...args] = line!.split(" ");
    expect(command).toBe("flower");
    const requestsBefore = model.requests.length;
    const resumed = await runFlower(args, { env, cwd: paths.root });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("Finished after SIGTERM.");
    const continued = model.requests.slice(requestsBefore).find((request) => request.isMainThread)!;
    expect(continued.sessionId).toBe(before.sessionId);
    expect(record(paths.runDir, "term")).toMatchObject({ status: "done", sessionId: before.sessionId });
    model.assertNoErrors();
  });

  it("when the reply in flight ends the step, it is done: exit 0, its answer, no continue line", async () => {
    const running: { spawned?: Spawned } = {};
    model = await startModel({
      policy: (request: ModelRequest) => {
        if (!request.isMainThread) return undefined;
        running.spawned?.child.kill("SIGTERM");
        return text("The last words, delivered.", { delayMs: 1_500 });
      },
    });
    const paths = setUp();
    running.spawned = spawnFlower(direct(paths, "last", "Say hello slowly."), {
      env: cleanEnv(model.env()),
      cwd: paths.root,
    });
    const ended = await running.spawned.done;
    expect(ended.stderr).toContain("SIGTERM: stopping at the next message boundary");
    expect(ended.code, ended.stdout + ended.stderr).toBe(0);
    expect(ended.stdout).toContain("The reply in flight ended the step before the stop took effect");
    expect(ended.stdout).toContain("The last words, delivered.");
    expect(ended.stdout).not.toContain("Pick it up with");
    expect(record(paths.runDir, "last").status).toBe("done");
    model.assertNoErrors();
  });
});
