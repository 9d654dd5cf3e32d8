/**
 * Nothing lost under a stop or a kill, through the built `flower` and the real binary:
 * - SIGTERM (`docker stop`) and Ctrl-C while a reply streams: the stop waits for it — it is paid for — so
 *   it reaches the session (`flower continue` resumes a transcript that has it), and the process still
 *   exits within the grace; a reply slower than the grace is cut, and the stop says so;
 * - SIGKILL after some answered turns, then `flower continue` to done: the record's cost is what the kit
 *   served, priced at the binary's own prices for the model (±1%), and its request count is the requests
 *   served; `flower runs`, `flower show` and the report say the same figure, and that part of it is an
 *   estimate (the killed driver's responses, which no total of the binary covered).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse, type Exchange, type Reply } from "../../../src/testing/index.js";
import { servedCost } from "../../support/served-cost.js";
import { cleanEnv, runFlower, runFlowerOk, spawnFlower, useCliTest, type Spawned } from "./helpers.js";

const { temp, startModel } = useCliTest();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const runArgs = ["--direct", "--step", "slow", "Run two commands"];

describe("a stop keeps the reply in flight", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`${signal} while a reply streams: the reply reaches the session, the process exits within the grace`, async () => {
      const root = temp.make("flower-stop-");
      const running: { flower?: Spawned } = {};
      let requestsAtReply = -1;
      const model = await startModel({
        policy: async (request): Promise<Reply | undefined> => {
          if (request.kind === "title" || request.kind === "compact") return undefined;
          if (request.lastUserText().includes("Continue the task")) return text("Finished after the stop.");
          if (request.countToolResults("Bash") === 0) return toolUse("Bash", { command: "echo first" });
          // The second reply takes 2 s; the stop comes 0.3 s into it.
          setTimeout(() => process.kill(running.flower!.child.pid!, signal), 300);
          await sleep(2_000);
          requestsAtReply = model.requests.length;
          return toolUse("Bash", { command: "echo second" }, { text: "REPLY-IN-FLIGHT: one more command" });
        },
      });
      const env = cleanEnv(model.env());
      running.flower = spawnFlower(runArgs, { env, cwd: root, timeoutMs: 60_000 });
      const stopped = await running.flower.done;
      expect(stopped.code).toBe(signal === "SIGTERM" ? 143 : 130);
      // The order, not the times: the reply in flight came, and the process exited without asking again.
      expect(requestsAtReply).toBeGreaterThan(0);
      expect(model.requests).toHaveLength(requestsAtReply);
      expect(stopped.stdout).toContain("Stopped at a message boundary");
      expect(stopped.stdout).not.toContain("was cut");

      const continued = await runFlower(["continue", "slow"], { env, cwd: root, timeoutMs: 60_000 });
      expect(continued.code).toBe(0);
      const resumed = model.requests.find((request) => request.lastUserText().includes("Continue the task"))!;
      expect(resumed.allText()).toContain("REPLY-IN-FLIGHT: one more command");
      model.assertNoErrors();
    }, 120_000);
  }

  it("a reply slower than the grace is cut, and the stop line says so", async () => {
    const root = temp.make("flower-stop-long-");
    const running: { flower?: Spawned } = {};
    let replied = false;
    const model = await startModel({
      policy: async (request) => {
        if (request.kind === "title" || request.kind === "compact") return undefined;
        if (request.countToolResults("Bash") === 0) return toolUse("Bash", { command: "echo first" });
        setTimeout(() => process.kill(running.flower!.child.pid!, "SIGTERM"), 300);
        await sleep(30_000);
        replied = true;
        return text("far too late");
      },
    });
    running.flower = spawnFlower(runArgs, { env: cleanEnv(model.env()), cwd: root, timeoutMs: 60_000 });
    const stopped = await running.flower.done;
    expect(stopped.code).toBe(143);
    // It exited before the reply came, not after waiting it out.
    expect(replied).toBe(false);
    expect(stopped.stdout).toContain("the reply in flight was cut: it had not come after 6 s");
  }, 120_000);
});

describe("every dollar booked", () => {
  it("SIGKILL after three answered turns, continue to done: the cost is what was served at the binary's prices, and the requests are counted", async () => {
    const root = temp.make("flower-cost-");
    const running: { flower?: Spawned } = {};
    let killedIn: Exchange["index"] | undefined;
    const model = await startModel({
      policy: async (request) => {
        if (request.kind === "title" || request.kind === "compact") return undefined;
        if (request.lastUserText().includes("Continue the task") || request.countToolResults("Bash") >= 5)
          return request.countToolResults("Bash") >= 5
            ? text("All five done.")
            : toolUse("Bash", { command: "echo more" });
        const bash = request.countToolResults("Bash");
        // Three turns answered; the fourth request is where the driver dies.
        if (bash === 3 && killedIn === undefined && running.flower !== undefined) {
          killedIn = model.requests.length - 1;
          process.kill(running.flower.child.pid!, "SIGKILL");
          await sleep(500);
        }
        return toolUse("Bash", { command: `echo ${bash + 1}` });
      },
    });
    const env = cleanEnv(model.env());
    running.flower = spawnFlower(["--direct", "--step", "paid", "Run five commands"], {
      env,
      cwd: root,
      timeoutMs: 60_000,
    });
    expect((await running.flower.done).signal).toBe("SIGKILL");
    const continued = await runFlower(["continue", "paid"], { env, cwd: root, timeoutMs: 90_000 });
    expect(continued.code).toBe(0);

    // What the binary got answered: every exchange but the one the kill cut off.
    const served = model.exchanges.filter((exchange) => exchange.usage && exchange.index !== killedIn);
    const record = JSON.parse(readFileSync(join(root, "runs", "manifest.json"), "utf8")).steps.paid;
    expect(record.costUsd).toBeGreaterThan(0);
    expect(Math.abs(record.costUsd - servedCost(served)) / servedCost(served)).toBeLessThan(0.01);
    expect(record.numTurns).toBe(served.length);
    expect(record.estimatedCost.responses).toBe(3);

    const figure = `$${record.costUsd.toFixed(4)}`;
    const runs = await runFlowerOk(["runs"], { env, cwd: root });
    expect(runs.stdout).toContain(`≈${figure}`);
    const json = JSON.parse(
      (await runFlowerOk(["runs", "--json"], { env, cwd: root })).stdout.trim().split("\n")[0]!,
    );
    expect(json.costUsd).toBeCloseTo(record.costUsd, 10);
    const shown = await runFlowerOk(["show", "paid"], { env, cwd: root });
    expect(shown.stdout).toContain(`cost ${figure} (≈$`);
    expect(shown.stdout).toContain(
      "3 responses a stopped driver was billed for before the binary reported its total",
    );
    await runFlowerOk(["report", "paid"], { env, cwd: root });
    const report = readFileSync(
      join(
        root,
        "runs",
        readdirSync(join(root, "runs")).find((name) => name.endsWith(".html"))!,
      ),
      "utf8",
    );
    expect(report).toContain(figure);
    model.assertNoErrors();
  }, 180_000);
});
