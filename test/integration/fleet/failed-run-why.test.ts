/**
 * A fleet run that failed says why where a person looks first: `flower runs --store` prints its worker's
 * one line under the table. Through the built CLI and a real PostgreSQL server; the worker's part is
 * played through the fleet's library face (claim, finish), as test/integration/fleet/fleet-runs.test.ts does.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { openFleet } from "../../../src/index.js";
import { currentProcess } from "../../../src/records/process-identity.js";
import { freshSchema, usePostgresServer } from "../../support/postgres-server.js";
import { submitRun, until } from "../../e2e/cli/fleet-helpers.js";
import { cleanEnv, runFlowerOk, spawnFlower } from "../../e2e/cli/helpers.js";

const postgres = usePostgresServer();

describe("flower runs --store and a failed fleet run", () => {
  it("says why it failed, in its worker's words", async () => {
    const url = `${postgres().url}?schema=${freshSchema("why")}`;
    const run = await submitRun(url, "Fix the flaky test", ["--direct"]);
    const fleet = openFleet(url);
    try {
      const [job] = await fleet.queue.fetch(1);
      expect(await fleet.runs.claim(run, "token-1", currentProcess())).not.toBeNull();
      const why = `Step "${run}" failed: 3 of 3 attempts failed; last: API Error: 529 Overloaded`;
      expect(await fleet.runs.finish(run, "token-1", "failed", { job: null, error: why })).toBe(true);
      await fleet.queue.complete(job!.id);
    } finally {
      await fleet.close();
    }
    const listed = (await runFlowerOk(["runs", "--store", url], { env: cleanEnv() })).stdout;
    expect(listed).toMatch(new RegExp(`^${run}\\s+failed\\s`, "m"));
    expect(listed).toContain(
      `\n${run} failed: Step "${run}" failed: 3 of 3 attempts failed; last: API Error: 529 Overloaded\n`,
    );
  });

  it("a run whose workers died with it ten times fails, and says so", async () => {
    const url = `${postgres().url}?schema=${freshSchema("retries")}`;
    const run = await submitRun(url, "Eat all the memory", ["--direct"]);
    // Ten deliveries whose worker died (the job goes back each time), then an eleventh held by a process
    // of this machine that has exited: the worker below sees it gone and gives the job back once more.
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    const fleet = openFleet(url);
    try {
      for (let death = 1; death <= 10; death++) {
        const [job] = await fleet.queue.fetch(1);
        await fleet.queue.fail(job!.id, `death ${death}`);
      }
      const [last] = await fleet.queue.fetch(1);
      expect(last?.run).toBe(run);
      expect(await fleet.runs.claim(run, "token-dead", { ...currentProcess(), pid: gone })).not.toBeNull();
    } finally {
      await fleet.close();
    }
    const worker = spawnFlower(["worker", "--store", url], {
      env: cleanEnv({ ANTHROPIC_API_KEY: "sk-unused" }),
    });
    try {
      await until(async () => {
        const listed = (await runFlowerOk(["runs", "--store", url], { env: cleanEnv() })).stdout;
        return new RegExp(`^${run}\\s+failed\\s`, "m").test(listed);
      }, "the run to fail");
    } finally {
      worker.child.kill("SIGTERM");
    }
    expect((await worker.done).code).toBe(0);
    const listed = (await runFlowerOk(["runs", "--store", url], { env: cleanEnv() })).stdout;
    expect(listed).toContain(
      `\n${run} failed: worker pid ${gone}@${currentProcess().host} is gone; its job went back 10 times already, so the run ends here\n`,
    );
  });
});
