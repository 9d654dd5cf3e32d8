/**
 * One live driver per step, through the CLI and the real binary: a second `flower continue` while the
 * first process drives the step is refused in one line naming the holder (exit 2); with `--wait` it
 * waits for the holder to finish and then continues the step.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { text, type FakeModel } from "../../../src/testing/index.js";
import { cleanEnv, runFlower, spawnFlower, useCliTest } from "./helpers.js";

const { temp, startModel } = useCliTest();

/**
 * The first process's answer waits until the test releases it, so the step stays held for exactly as
 * long as the second process needs (at most `limitMs`, so a test that never releases fails, not hangs).
 */
function heldFirstAnswer(limitMs = 60_000) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
    setTimeout(resolve, limitMs).unref();
  });
  const policy = async (request: { lastUserText(): string }) => {
    if (request.lastUserText().includes("Continue the task."))
      return text("continued after the holder finished");
    await released;
    return text("first process done");
  };
  return { policy, release };
}

async function started(model: FakeModel): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (model.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

/** A first `flower --direct --step held` driving the step, its answer held back until released. */
async function holderDriving() {
  const held = heldFirstAnswer();
  const model = await startModel({ policy: held.policy });
  const root = temp.make("flower-lease-");
  const args = ["--workspace", root, "--run-dir", join(root, "runs")];
  const env = cleanEnv(model.env());
  const first = spawnFlower([...args, "--direct", "--step", "held", "Do the held work."], {
    env,
    cwd: root,
    timeoutMs: 90_000,
  });
  await started(model);
  return { held, root, args, env, first };
}

describe("flower continue on a step another process drives", () => {
  it("is refused in one line that names the holder's pid and host, exit 2", async () => {
    const { held, root, args, env, first } = await holderDriving();
    const second = await runFlower(["continue", "held", ...args], { env, cwd: root, timeoutMs: 60_000 });
    held.release();
    expect(second.code).toBe(2);
    const lines = second.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Step "held" is being driven by pid ${first.child.pid}`);
    expect(lines[0]).toContain("--wait");
    const done = await first.done;
    expect(done.code).toBe(0);
  }, 150_000);

  it("with --wait waits for the holder, then continues the step", async () => {
    const { held, root, args, env, first } = await holderDriving();
    const waiting = spawnFlower(["continue", "held", "--wait", ...args], {
      env,
      cwd: root,
      timeoutMs: 120_000,
    });
    // The holder finishes only once the second process says it is waiting for it.
    let said = "";
    waiting.child.stdout!.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes("waiting for it to finish")) held.release();
    });
    const second = await waiting.done;
    expect((await first.done).code).toBe(0);
    expect(second.stderr).toBe("");
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/is driven by pid \d+ on .+; waiting for it to finish/);
    expect(second.stdout).toContain("continued after the holder finished");
  }, 200_000);
});
